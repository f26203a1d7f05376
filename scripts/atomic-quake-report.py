#!/usr/bin/python3
"""The Atomic Quake study's tables and figure (scripts/reports/atomic_quake.py) from the CSV
files of scripts/quake-bench --paper:

  atomic-quake-report.py report CSV BLOCKS.csv PREFIX [--run R] [--no-plot]
      writes PREFIX.txt (Tables 1-3, Figure 3's data, CPU time per command, the goals of
      scripts/goals.toml) and PREFIX.png (Figure 3)

The report uses one run id of the CSV files (default: the latest): medians over its rounds
for throughput and CPU time, its statistics runs for the transaction tables, and puts the
values published by Zyulkyarov et al. (Atomic Quake, PPoPP 2009) beside ours where the paper
gives them. (The statistics files of each run become CSV fields with scripts/tm-stats-csv.)
"""
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ beside the scripts
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from reports import atomic_quake  # noqa: E402 (after the path)
from reports.common import parse_command_line, fail  # noqa: E402

USAGE = "atomic-quake-report.py report CSV BLOCKS.csv PREFIX [--run R] [--no-plot]"


def main(argv):
    if len(argv) < 2 or argv[1] in ("-h", "--help"):
        out = sys.stdout if len(argv) > 1 else sys.stderr
        print(f"Usage: {USAGE}\n", file=out)
        print(__doc__.strip(), file=out)
        return 0 if len(argv) > 1 else 2
    if argv[1] != "report":
        what = "option" if argv[1].startswith("-") else "command"
        fail(atomic_quake.PROG, f"unknown {what} {argv[1]} (see --help)", 2)
    (csv_path, blocks_path, prefix), opts = parse_command_line(
        atomic_quake.PROG, __doc__, USAGE, argv[1:], values=("--run",), flags=("--no-plot",),
        files=(3, 3))
    atomic_quake.Report(csv_path, blocks_path, opts["run"]).write(prefix, not opts["no-plot"])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
