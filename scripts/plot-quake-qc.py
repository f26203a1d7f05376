#!/usr/bin/python3
"""Table and figure of results/quake-qc.csv (written by scripts/quake-bench --qc-cost; the
report is scripts/reports/quake_qc.py).

  plot-quake-qc.py CSV PNG [--functions FILE] [--table TXT] [--run RUN_ID] [--no-plot]

QuakeWorld's own game (id's qwprogs.dat) on mvdsv -progtype 0 and on qwsv, the same recorded
fight replayed in real time: the server's CPU per 1,000 moves acknowledged to the bots (median
of the rounds) of mvdsv and of qwsv at 1 thread in LOCK and STM, libtm's statistics of qwsv at
2 threads, the goals of scripts/goals.toml ([quake_qc]) and, with --functions (the file qwsv
-qcfunctions wrote), the QuakeC functions the fights reached and those never reached. One run
(--run, default the latest run id in the file)."""
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ beside the scripts
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from reports import quake_qc  # noqa: E402 (after the path)
from reports.common import fail, parse_command_line, publish, rows_of_run  # noqa: E402


def main(argv):
    (path, png), opts = parse_command_line(
        quake_qc.PROG, __doc__,
        "plot-quake-qc.py CSV PNG [--functions FILE] [--table TXT] [--run RUN_ID] [--no-plot]",
        argv, values=("--functions", "--run", "--table"), flags=("--no-plot",))
    _, rows = rows_of_run(quake_qc.PROG, path, "acked", "quake-bench --qc-cost", opts["run"])
    try:
        report = quake_qc.Report(rows, opts["functions"])
    except OSError as e:
        fail(quake_qc.PROG, f"{e.filename}: {e.strerror} (qwsv -qcfunctions FILE writes it)")
    publish(report.text(), opts["table"])
    if not opts["no-plot"]:
        report.plot(png)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
