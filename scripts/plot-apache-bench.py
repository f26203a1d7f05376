#!/usr/bin/python3
"""The Apache cache study's tables and figures (scripts/reports/apache_bench.py) from the CSV
that scripts/apache-bench writes; NAME.txt and the figures go to OUTDIR (default: the CSV's
folder)."""
import argparse
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ beside the scripts
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from reports import apache_bench  # noqa: E402
from reports.apache_bench import MODE_ORDER, load, label_modes, write_table, plot  # noqa: E402


def main():
    parser = argparse.ArgumentParser(usage="%(prog)s [-h] [--command COMMAND] [--no-plots] csv [outdir]",
                                     description=apache_bench.__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    # csv is checked below, after the options: an unknown option is named as such (argparse
    # would first complain that csv is missing).
    parser.add_argument("csv", nargs="?", help="CSV written by scripts/apache-bench")
    parser.add_argument("outdir", nargs="?", help="output folder (default: the CSV's)")
    parser.add_argument("--command", default="", help="the command that produced the CSV (quoted in the table)")
    parser.add_argument("--no-plots", action="store_true", help="write the table only")
    args, unknown = parser.parse_known_args()
    if unknown:
        parser.error("unknown option " + " ".join(unknown))
    if not args.csv:
        parser.error("name the CSV written by scripts/apache-bench")
    try:
        notes, rows, points = load(args.csv)
    except (OSError, KeyError, ValueError) as error:
        print(f"plot-apache-bench: cannot read {args.csv}: {error} (run scripts/apache-bench first)",
              file=sys.stderr)
        return 1
    if not rows:
        print(f"plot-apache-bench: {args.csv} has no runs", file=sys.stderr)
        return 1
    outdir = args.outdir or os.path.dirname(os.path.abspath(args.csv))
    os.makedirs(outdir, exist_ok=True)
    name = os.path.splitext(os.path.basename(args.csv))[0]
    label_modes(notes)
    exponents = sorted({r["s"] for r in rows}, key=float)
    modes = [m for m in MODE_ORDER if any(r["mode"] == m for r in rows)]
    clients_list = sorted({int(r["clients"]) for r in rows})
    write_table(os.path.join(outdir, f"{name}.txt"), notes, args.command, points, exponents, modes, clients_list)
    if not args.no_plots:
        plot(outdir, name, notes, points, exponents, modes, clients_list)
    return 0


if __name__ == "__main__":
    sys.exit(main())
