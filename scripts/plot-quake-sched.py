#!/usr/bin/python3
"""Table and figure of results/quake-sched.csv (written by scripts/quake-bench --sched; the
report is scripts/reports/quake_sched.py).

  plot-quake-sched.py CSV PNG [--table TXT] [--run RUN_ID] [--no-plot]

For each map and thread count, every mode (-sched lpt -sync none, -sched static with each
-sync mode): the server's CPU-milliseconds per 1,000 commands, the share of the request
phase during which every worker was busy, the jobs per frame and their weights (maximum and
mean; with -sched static a worker's clients are its one job), frames/s, messages per frame
and per second. Then the goals of scripts/goals.toml (lpt at 2 threads on the large map: CPU
per command no more than the best static mode's, every worker busy most of the request
phase) and the reference design's published figures. Medians over rounds; one run (--run,
default the latest run id in the file). The figure: CPU per 1,000 commands, the all-busy
share (with the reference's 55 % and 40 %) and lpt's jobs and weights, by threads, one row
per map.
"""
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ beside the scripts
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from reports import quake_sched  # noqa: E402 (after the path)
from reports.common import parse_command_line, rows_of_run  # noqa: E402


def main(argv):
    (path, png), opts = parse_command_line(
        quake_sched.PROG, __doc__, "plot-quake-sched.py CSV PNG [--table TXT] [--run RUN_ID] [--no-plot]",
        argv, values=("--run", "--table"), flags=("--no-plot",))
    _, rows = rows_of_run(quake_sched.PROG, path, "all_busy_share", "quake-bench --sched", opts["run"])
    points = quake_sched.medians(rows)
    text = quake_sched.table(points, rows)
    if opts["table"]:
        with open(opts["table"], "w") as f:
            f.write(text)
        print(f"{quake_sched.PROG}: wrote {opts['table']}")
    print(text, end="")
    if not opts["no-plot"]:
        quake_sched.plot(points, png, rows)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
