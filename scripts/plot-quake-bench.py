#!/usr/bin/python3
"""Plots results/quake-bench.csv (written by scripts/quake-bench --sweep).

  plot-quake-bench.py CSV PNG [--run RUN_ID]

Left: throughput (replies the bots received per second) of each qwsv sync mode, normalised to
the same mode at one thread -- the shape of Atomic Quake's Figure 3. Middle: the same
throughput in replies/s. Right: the same bots in real time against mvdsv (single-threaded)
and qwsv: round-trip latency of the moves (p50/p90/p99) and replies/s. Medians over repeated
rounds. Uses the rows of one sweep (--run, default the latest run id in the file).
"""
import csv
import statistics
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def fail(msg):
    print(f"plot-quake-bench: {msg}", file=sys.stderr)
    sys.exit(1)


def number(row, key):
    try:
        return float(row[key])
    except (KeyError, TypeError, ValueError):
        return None


def main(argv):
    if len(argv) < 3 or argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if len(argv) > 1 and argv[1] in ("-h", "--help") else 2
    path, png = argv[1], argv[2]
    run = None
    if "--run" in argv:
        i = argv.index("--run")
        if i + 1 >= len(argv):
            fail("--run needs a run id (first CSV column)")
        run = argv[i + 1]
    try:
        with open(path, newline="") as f:
            rows = list(csv.DictReader(f))
    except OSError as e:
        fail(f"{path}: {e.strerror}")
    if not rows or "replies_per_s" not in rows[0]:
        fail(f"{path}: no quake-bench rows (run scripts/quake-bench --sweep)")
    if run is None:
        run = max(r["run"] for r in rows)
    # failed runs (server died, bots incomplete) are in the CSV but not in the plot
    rows = [r for r in rows if r["run"] == run and number(r, "replies_per_s")
            and r.get("status", "ok") == "ok"]
    if not rows:
        fail(f"{path}: no rows for run {run}")

    qwsv = [r for r in rows if r["server"] == "qwsv"]
    # the grid is the most common speed among qwsv rows (the speed-1 reference is extra)
    speeds = defaultdict(int)
    for r in qwsv:
        speeds[r["speed"]] += 1
    if not speeds:
        fail(f"{path}: run {run} has no qwsv rows")
    grid_speed = max(speeds, key=speeds.get)
    grid = [r for r in qwsv if r["speed"] == grid_speed]

    by_mode = defaultdict(lambda: defaultdict(list))
    for r in grid:
        by_mode[r["sync"]][int(r["threads"])].append(number(r, "replies_per_s"))
    # the real-time pair: the same bots at speed 1 against mvdsv and qwsv (1 thread)
    realtime = defaultdict(list)
    for r in rows:
        if r["speed"] == "1" and r is not None:
            name = "mvdsv" if r["server"] == "mvdsv" else f"qwsv {r['threads']}t {r['sync']}"
            realtime[name].append(r)

    fig, (ax_norm, ax_abs, ax_rt) = plt.subplots(1, 3, figsize=(16, 5))
    markers = {"lock": "o", "stm": "s", "stmlock": "^", "stm-gcc": "v", "stmlock-gcc": "<",
               "region": "D", "none": "x"}
    for mode in sorted(by_mode):
        points = sorted((t, statistics.median(v)) for t, v in by_mode[mode].items())
        xs = [t for t, _ in points]
        ys = [y for _, y in points]
        base = dict(points).get(1)
        m = markers.get(mode, "o")
        if base:
            ax_norm.plot(xs, [y / base for y in ys], marker=m, label=mode.upper())
        ax_abs.plot(xs, ys, marker=m, label=f"qwsv {mode}")
    ax_norm.axhline(1.0, color="grey", linewidth=0.8)
    bots = grid[0]["bots"]
    trace = grid[0]["trace"]
    how = "closed loop" if grid_speed == "closed" else f"speed {grid_speed}"
    ax_norm.set_title("throughput normalised to 1 thread")
    ax_norm.set_xlabel("server threads")
    ax_norm.set_ylabel("replies/s relative to the same mode at 1 thread")
    ax_abs.set_title(f"throughput ({bots} bots, {trace}, {how})")
    ax_abs.set_xlabel("server threads")
    ax_abs.set_ylabel("replies received by the bots per second")
    ax_abs.set_ylim(bottom=0)

    if realtime:
        names = sorted(realtime, key=lambda n: (n != "mvdsv", n))
        width = 0.25
        for k, (key, label) in enumerate((("rtt_p50_ms", "p50"), ("rtt_p90_ms", "p90"),
                                          ("rtt_p99_ms", "p99"))):
            values = [statistics.median(number(r, key) for r in realtime[n]) for n in names]
            ax_rt.bar([i + (k - 1) * width for i in range(len(names))], values, width,
                      label=label)
        labels = []
        for n in names:
            rps = statistics.median(number(r, "replies_per_s") for r in realtime[n])
            labels.append(f"{n}\n{rps:.0f} replies/s")
        ax_rt.set_xticks(range(len(names)))
        ax_rt.set_xticklabels(labels)
        ax_rt.set_title("real time (77 moves/s per bot): round trip")
        ax_rt.set_ylabel("ms (qwbot, ack of each move)")
    else:
        ax_rt.set_axis_off()
    for ax in (ax_norm, ax_abs, ax_rt):
        ax.grid(True, alpha=0.3)
        if ax.get_legend_handles_labels()[0]:
            ax.legend(fontsize=8)
    fig.suptitle(f"qwsv under replayed bots (run {run})")
    fig.tight_layout()
    fig.savefig(png, dpi=100)
    print(f"plot-quake-bench: wrote {png}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
