#!/usr/bin/python3
"""Plots results/quake-bench.csv (written by scripts/quake-bench --sweep; the report is
scripts/reports/quake_sweep.py).

  plot-quake-bench.py CSV PNG [--run RUN_ID]

Left: throughput (commands the server ran per second) of each qwsv sync mode by server
threads, absolute. Middle: the same relative to LOCK at one thread (one scale for all modes,
so a slower mode never looks better than it is). Right: the same bots in real time against
mvdsv + KTX (single-threaded) and qwsv: round-trip latency of the moves (p50/p90/p99) and
the replies per second each answered. Medians over repeated rounds; one sweep (--run, default
the latest run id in the file).
"""
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ beside the scripts
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from reports import quake_sweep  # noqa: E402 (after the path)
from reports.common import parse_command_line, pyplot, rows_of_run  # noqa: E402


def main(argv):
    (path, png), options = parse_command_line(
        quake_sweep.PROG, __doc__, "plot-quake-bench.py CSV PNG [--run RUN_ID]", argv, values=("--run",))
    pyplot(quake_sweep.PROG)  # before reading: the plot is all this command makes
    run, rows = rows_of_run(quake_sweep.PROG, path, "commands_per_s", "quake-bench --sweep", options["run"])
    quake_sweep.plot(rows, run, png)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
