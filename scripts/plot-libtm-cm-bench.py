#!/usr/bin/python3
"""Report of scripts/libtm-cm-bench (scripts/reports/libtm_cm_bench.py): prints the tables of
medians and the goal checks, writes them to TXT (--table) and one PNG per workload: commits per
second and aborts per commit against threads, a line per contention manager, the adaptive
default and a mutex."""
import argparse
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ beside the scripts
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from reports import libtm_cm_bench  # noqa: E402 (after the path)
from reports.common import publish  # noqa: E402


def parse_args(argv):
    ap = argparse.ArgumentParser(
        prog=os.path.basename(argv[0]),
        usage="%(prog)s [-h] [--table TXT] [--no-plot] CSV OUTPUT_DIR",
        description=__doc__ + " scripts/libtm-cm-bench runs it.")
    # Both are checked after the options, so that an unknown option is named as such
    # (argparse would first complain that CSV is missing).
    ap.add_argument("csv", metavar="CSV", nargs="?",
                    help="the measurements written by scripts/libtm-cm-bench")
    ap.add_argument("out", metavar="OUTPUT_DIR", nargs="?",
                    help="where libtm-cm-bench-WORKLOAD.png goes, one per workload of the CSV")
    ap.add_argument("--table", metavar="TXT", help="also write the tables there")
    ap.add_argument("--no-plot", action="store_true", help="the tables only")
    args, unknown = ap.parse_known_args(argv[1:])
    if unknown:
        ap.error("unknown option " + " ".join(unknown))
    if not args.out:
        ap.error("name the CSV and the OUTPUT_DIR")
    return args


def main(argv):
    args = parse_args(argv)
    prog = libtm_cm_bench.PROG
    try:
        study = libtm_cm_bench.Study(args.csv)
    except OSError as err:
        print("%s: cannot read %s (%s); run scripts/libtm-cm-bench first" % (prog, args.csv, err.strerror),
              file=sys.stderr)
        return 1
    except (KeyError, ValueError) as err:
        print("%s: %s is not a libtm-cm-bench CSV (%s)" % (prog, args.csv, err), file=sys.stderr)
        return 1
    if not study.workloads:
        print("%s: %s has no rows" % (prog, args.csv), file=sys.stderr)
        return 1
    if not os.path.isdir(args.out):
        print("%s: %s is not a folder" % (prog, args.out), file=sys.stderr)
        return 1
    publish(study.report(), args.table)
    if not args.no_plot:
        study.plot(args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
