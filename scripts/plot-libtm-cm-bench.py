#!/usr/bin/python3
"""Plots of scripts/libtm-cm-bench: one PNG per workload, commits per second and aborts per
commit against threads, a line per contention manager, the adaptive default and a mutex."""
import argparse
import csv
import os
import sys


def parse_args(argv):
    ap = argparse.ArgumentParser(
        prog=os.path.basename(argv[0]),
        usage="%(prog)s [-h] CSV OUTPUT_DIR",
        description=__doc__ + " scripts/libtm-cm-bench runs it.")
    # Both are checked after the options, so that an unknown option is named as such
    # (argparse would first complain that CSV is missing).
    ap.add_argument("csv", metavar="CSV", nargs="?",
                    help="the measurements written by scripts/libtm-cm-bench")
    ap.add_argument("out", metavar="OUTPUT_DIR", nargs="?",
                    help="where libtm-cm-bench-WORKLOAD.png goes, one per workload of the CSV")
    args, unknown = ap.parse_known_args(argv[1:])
    if unknown:
        ap.error("unknown option " + " ".join(unknown))
    if not args.out:
        ap.error("name the CSV and the OUTPUT_DIR")
    return args


def main(argv):
    args = parse_args(argv)
    try:
        with open(args.csv, newline="") as f:
            rows = list(csv.DictReader(f))
    except OSError as err:
        print("plot-libtm-cm-bench: cannot read %s (%s); run scripts/libtm-cm-bench first"
              % (args.csv, err.strerror), file=sys.stderr)
        return 1
    if not rows:
        print("plot-libtm-cm-bench: %s has no rows" % args.csv, file=sys.stderr)
        return 1
    if not os.path.isdir(args.out):
        print("plot-libtm-cm-bench: %s is not a folder" % args.out, file=sys.stderr)
        return 1
    # After the command line, so that --help works without matplotlib.
    try:
        import matplotlib
        matplotlib.use("Agg")  # no display needed
        import matplotlib.pyplot as plt
        from matplotlib.ticker import FuncFormatter
    except ImportError:
        sys.exit("%s: %s has no matplotlib: install the Debian package python3-matplotlib "
                 "(scripts/deps.sh)" % (os.path.basename(sys.argv[0]), sys.executable))

    workloads = list(dict.fromkeys(r["workload"] for r in rows))
    runtimes = list(dict.fromkeys(r["runtime"] for r in rows))
    # One colour per manager; gray and black are the reference lines' (adaptive, mutex).
    palette = [c for i, c in enumerate(plt.get_cmap("tab10").colors) if i != 7]
    managers = [rt for rt in runtimes if rt not in ("adaptive", "mutex")]
    colour = {rt: palette[i % len(palette)] for i, rt in enumerate(managers)}
    for w in workloads:
        fig, (top, bottom) = plt.subplots(2, 1, figsize=(9, 8), sharex=True)
        for rt in runtimes:
            pts = sorted((int(r["threads"]), r) for r in rows if r["workload"] == w and r["runtime"] == rt)
            xs = [t for t, r in pts if r["commits_per_s"]]
            ys = [float(r["commits_per_s"]) / 1e6 for t, r in pts if r["commits_per_s"]]
            style = dict(marker="o", linewidth=1.4, color=colour.get(rt))
            if rt in ("adaptive", "mutex"):
                style.update(linestyle="--", linewidth=2.2, color="black" if rt == "mutex" else "tab:gray")
            label = rt.replace("cm-", "")
            if xs:
                top.plot(xs, ys, label=label, **style)
            ax = [t for t, r in pts if r["aborts_per_commit"]]
            ay = [max(float(r["aborts_per_commit"]), 1e-4) for t, r in pts if r["aborts_per_commit"]]
            if ax and rt != "mutex":
                bottom.plot(ax, ay, label=label, **style)
        top.set_xscale("log", base=2)
        threads = sorted({int(r["threads"]) for r in rows if r["workload"] == w})
        top.set_xticks(threads)
        top.set_xticklabels([str(t) for t in threads])
        top.set_yscale("log")  # the managers sit far below the mutex and the default
        top.set_ylabel("million commits per second (log)")
        plain = FuncFormatter(lambda v, _: "%g" % v)
        top.yaxis.set_major_formatter(plain)
        top.yaxis.set_minor_formatter(plain)
        top.set_title("%s: contention managers, threads on %d cores (managers with LIBTM_ALGO=orec)" %
                      (w, os.cpu_count() or 2))
        top.legend(fontsize=8, ncol=3)
        top.grid(True, alpha=0.3)
        bottom.set_yscale("log")
        bottom.set_xlabel("threads")
        bottom.set_ylabel("aborts per commit (none: drawn at 1e-4)")
        bottom.grid(True, alpha=0.3)
        fig.tight_layout()
        fig.savefig(os.path.join(args.out, "libtm-cm-bench-%s.png" % w), dpi=100)
        plt.close(fig)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
