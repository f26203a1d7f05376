#!/usr/bin/python3
"""Plots results/apache-bench.csv (written by scripts/apache-bench).

usage: plot-apache-bench.py [CSV] [OUTDIR]
Writes OUTDIR/NAME.png (NAME = the CSV's base name: throughput and response time against
clients, one column per Zipf exponent) and, when the libtm runs reported statistics,
OUTDIR/NAME-aborts.png (aborts per commit of the transactional mode).
"""
import csv
import os
import sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

MODE_ORDER = ["nocache", "disk", "socache", "mem-lock", "mem-tm", "mem-tm-gcc"]
MODE_LABEL = {
    "nocache": "no cache",
    "disk": "disk (CacheLock on)",
    "socache": "socache shmcb 64 MiB",
    "mem-lock": "mem, lock",
    "mem-tm": "mem, tm on libtm",
    "mem-tm-gcc": "mem, tm on GCC libitm",
}

# Fixed colours so that a mode looks the same in every plot, whatever subset was run.
MODE_COLOR = dict(zip(MODE_ORDER, ["tab:gray", "tab:orange", "tab:green", "tab:blue", "tab:red", "tab:purple"]))


def number(text):
    try:
        return float(text)
    except (TypeError, ValueError):
        return None


def main():
    if len(sys.argv) > 1 and sys.argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0
    here = os.path.dirname(os.path.abspath(__file__))
    path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "..", "results", "apache-bench.csv")
    outdir = sys.argv[2] if len(sys.argv) > 2 else os.path.dirname(path)
    try:
        rows = list(csv.DictReader(open(path)))
    except OSError as error:
        print(f"plot-apache-bench: cannot read {path}: {error} (run scripts/apache-bench first)",
              file=sys.stderr)
        return 1
    if not rows:
        print(f"plot-apache-bench: {path} has no rows", file=sys.stderr)
        return 1
    name = os.path.splitext(os.path.basename(path))[0]
    exponents = sorted({r["s"] for r in rows}, key=float)
    modes = [m for m in MODE_ORDER if any(r["mode"] == m for r in rows)]

    fig, axes = plt.subplots(2, len(exponents), figsize=(5 * len(exponents), 8), squeeze=False)
    for column, s in enumerate(exponents):
        for mode in modes:
            points = sorted(((int(r["clients"]), number(r["rate_rps"]), number(r["response_ms"]))
                             for r in rows if r["s"] == s and r["mode"] == mode))
            if not points:
                continue
            xs = [p[0] for p in points]
            style = dict(marker="o", label=MODE_LABEL[mode], color=MODE_COLOR[mode])
            axes[0][column].plot(xs, [p[1] for p in points], **style)
            axes[1][column].plot(xs, [p[2] for p in points], **style)
        axes[0][column].set_title(f"Zipf s = {s}")
        axes[0][column].set_ylabel("requests/s")
        axes[1][column].set_ylabel("mean response time, ms (clients / rate)")
        for row in (0, 1):
            axes[row][column].set_xlabel("concurrent siege clients")
            axes[row][column].set_xscale("log", base=2)
            axes[row][column].grid(True, alpha=0.3)
        axes[1][column].set_yscale("log")
    axes[0][0].legend(fontsize=8)
    fig.suptitle("man2html through httpd 2.4: throughput and response time by cache mode")
    fig.tight_layout()
    out = os.path.join(outdir, f"{name}.png")
    fig.savefig(out, dpi=110)
    print(f"plot-apache-bench: wrote {out}")

    tm_rows = [r for r in rows if r["mode"] == "mem-tm" and number(r.get("tm_commits")) ]
    if tm_rows:
        fig, ax = plt.subplots(figsize=(6, 4))
        for s in exponents:
            points = sorted((int(r["clients"]), number(r["tm_aborts"]) / number(r["tm_commits"]))
                            for r in tm_rows if r["s"] == s)
            if points:
                ax.plot([p[0] for p in points], [p[1] for p in points], marker="o", label=f"s = {s}")
        ax.set_xscale("log", base=2)
        ax.set_xlabel("concurrent siege clients")
        ax.set_ylabel("aborts per commit")
        ax.set_title("mod_mem_cache MCacheSync tm on libtm: abort rate")
        ax.grid(True, alpha=0.3)
        ax.legend()
        fig.tight_layout()
        out = os.path.join(outdir, f"{name}-aborts.png")
        fig.savefig(out, dpi=110)
        print(f"plot-apache-bench: wrote {out}")
    else:
        print("plot-apache-bench: no libtm statistics in the CSV; abort-rate plot skipped")
    return 0


if __name__ == "__main__":
    sys.exit(main())
