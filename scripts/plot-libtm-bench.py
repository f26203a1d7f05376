#!/usr/bin/python3
"""Plots the CSV of scripts/libtm-bench: throughput against thread count, one panel per
structure and update rate, one line per runtime."""
import argparse
import csv
import os
import sys

STRUCTURE_ORDER = ["rbtree", "skiplist", "list", "hashset", "bank", "travel", "genome", "graph"]
STYLE = {  # runtime -> (colour, marker, line style)
    "libtm": ("tab:red", "o", "-"),
    "libtm-orec": ("tab:orange", "s", "-"),
    "libtm-norec": ("tab:brown", "^", "-"),
    "libitm": ("tab:blue", "o", "--"),
    "libitm-mlwt": ("tab:cyan", "s", "--"),
    "mutex": ("tab:gray", "D", ":"),
    "seq": ("black", "*", ""),
    "floor": ("tab:green", "v", ""),  # the -tm build on a runtime that does nothing
}


def load(path):
    series = {}  # (structure, update) -> runtime -> [(threads, ops/s)]
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            if not row["ops_per_s"]:
                continue  # every run of this runtime failed
            key = (row["structure"], int(row["update"]))
            points = series.setdefault(key, {}).setdefault(row["runtime"], [])
            points.append((int(row["threads"]), float(row["ops_per_s"])))
    return series


def parse_args():
    top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap = argparse.ArgumentParser(description=__doc__ + " scripts/libtm-bench runs it.")
    ap.add_argument("csv", nargs="?", metavar="CSV",
                    default=os.path.join(top, "results", "libtm-bench.csv"),
                    help="the measurements (default: results/libtm-bench.csv)")
    ap.add_argument("png", nargs="?", metavar="PNG",
                    help="the plot to write (default: the CSV's name with .png)")
    args = ap.parse_args()
    if args.png is None:
        args.png = os.path.splitext(args.csv)[0] + ".png"
    return args


def main():
    args = parse_args()
    csv_path, png_path = args.csv, args.png
    # After the command line, so that --help works without matplotlib.
    try:
        import matplotlib
        matplotlib.use("Agg")  # no display needed
        import matplotlib.pyplot as plt
    except ImportError:
        sys.exit("%s: %s has no matplotlib: install the Debian package python3-matplotlib "
                 "(scripts/deps.sh)" % (os.path.basename(sys.argv[0]), sys.executable))
    try:
        series = load(csv_path)
    except (OSError, KeyError, ValueError) as err:
        sys.exit(f"plot-libtm-bench: cannot read {csv_path} ({err}); run scripts/libtm-bench first")
    if not series:
        sys.exit(f"plot-libtm-bench: {csv_path} holds no measurements")

    structures = [s for s in STRUCTURE_ORDER if any(k[0] == s for k in series)]
    columns = max(len([k for k in series if k[0] == s]) for s in structures)
    fig, axes = plt.subplots(len(structures), columns, squeeze=False,
                             figsize=(max(4.2 * columns, 6.0), 3.2 * len(structures) + 0.4))
    runtimes_seen = []
    for r, structure in enumerate(structures):
        keys = sorted(k for k in series if k[0] == structure)
        for c in range(columns):
            ax = axes[r][c]
            if c >= len(keys):
                ax.set_visible(False)
                continue
            _, update = keys[c]
            threads_all = set()
            for runtime, points in series[keys[c]].items():
                points.sort()
                xs = [p[0] for p in points]
                ys = [p[1] / 1e6 for p in points]
                threads_all.update(xs)
                colour, marker, line = STYLE.get(runtime, ("tab:purple", "x", "-"))
                if runtime == "seq":
                    ax.axhline(ys[0], color=colour, linestyle=":", linewidth=0.8)
                ax.plot(xs, ys, color=colour, marker=marker, linestyle=line or "None",
                        label=runtime, markersize=5 if runtime != "seq" else 9)
                if runtime not in runtimes_seen:
                    runtimes_seen.append(runtime)
            ax.set_xscale("log", base=2)
            ax.set_xticks(sorted(threads_all))
            ax.set_xticklabels([str(t) for t in sorted(threads_all)])
            ax.set_ylim(bottom=0)
            what = f"{update} % transfers" if structure == "bank" else f"{update} % updates"
            ax.set_title(f"{structure}, {what}", fontsize=10)
            ax.set_xlabel("threads")
            ax.set_ylabel("M ops/s")
            ax.grid(True, alpha=0.3)

    # One legend, in the first panel: a figure-level legend collides with the title on narrow plots.
    handles = []
    for runtime in runtimes_seen:
        colour, marker, line = STYLE.get(runtime, ("tab:purple", "x", "-"))
        handles.append(plt.Line2D([], [], color=colour, marker=marker, linestyle=line or "None",
                                  label=runtime))
    axes[0][0].legend(handles=handles, fontsize=7, loc="best", framealpha=0.8)
    fig.suptitle("libtm-bench: median throughput (seq = uninstrumented build, floor = the tm build "
                 "on a runtime that does nothing; both 1 thread)", fontsize=10)
    fig.tight_layout(rect=(0, 0, 1, 1 - 0.35 / fig.get_figheight()))  # room for the title
    fig.savefig(png_path, dpi=100)


if __name__ == "__main__":
    main()
