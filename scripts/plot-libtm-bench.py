#!/usr/bin/python3
"""Report of scripts/libtm-bench (scripts/reports/libtm_bench.py): prints the table of medians,
ratios and goal verdicts, writes it to TXT (--table) and plots throughput against thread count,
one panel per structure and update rate, one line per runtime."""
import argparse
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ beside the scripts
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from reports import libtm_bench  # noqa: E402 (after the path)
from reports.common import publish  # noqa: E402


def parse_args():
    top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap = argparse.ArgumentParser(description=__doc__ + " scripts/libtm-bench runs it.")
    ap.add_argument("csv", nargs="?", metavar="CSV",
                    default=os.path.join(top, "results", "libtm-bench.csv"),
                    help="the measurements (default: results/libtm-bench.csv)")
    ap.add_argument("png", nargs="?", metavar="PNG",
                    help="the plot to write (default: the CSV's name with .png)")
    ap.add_argument("--table", metavar="TXT", help="also write the table there")
    ap.add_argument("--no-plot", action="store_true", help="the table only")
    args = ap.parse_args()
    if args.png is None:
        args.png = os.path.splitext(args.csv)[0] + ".png"
    return args


def main():
    args = parse_args()
    try:
        study = libtm_bench.Study(args.csv)
    except (OSError, KeyError, ValueError) as err:
        sys.exit(f"{libtm_bench.PROG}: cannot read {args.csv} ({err}); run scripts/libtm-bench first")
    if not study.configs:
        sys.exit(f"{libtm_bench.PROG}: {args.csv} holds no measurements")
    publish(study.report(), args.table)
    if not args.no_plot:
        (study.policy_plot if study.is_policy() else study.plot)(args.png)


if __name__ == "__main__":
    main()
