"""Report of scripts/quake-bench --sweep (results/quake-bench.csv): qwsv's sync modes by
server threads under replayed fighting bots in closed loop, and the same bots in real time
against mvdsv + KTX and qwsv. Medians over the rounds of one sweep (one run id).

The plot: left, the commands the server ran per second by mode and threads; middle, the same
relative to LOCK at one thread (one scale for all modes, so a slower mode never looks better
than it is); right, the real-time runs' round trips (p50/p90/p99) and replies per second."""
from collections import defaultdict

from reports.common import field, median, pyplot, markdown_table

PROG = "plot-quake-bench"
NAMES = {"lock": "LOCK", "region": "REGION", "stm": "STM", "stmlock": "STM_LOCK",
         "stm-htm0": "STM (LIBTM_HTM=0)", "stm-orec": "STM (LIBTM_ALGO=orec)",
         "stm-gcc": "STM (GCC libitm)", "stmlock-gcc": "STM_LOCK (GCC libitm)"}
MARKERS = {"lock": "o", "region": "D", "stm": "s", "stmlock": "^", "stm-htm0": "v",
           "stm-orec": "P", "stm-gcc": ">", "stmlock-gcc": "<"}


def mode_order(modes):
    return sorted(modes, key=lambda m: list(NAMES).index(m) if m in NAMES else 99)


def closed_loop(rows):
    """{mode: {threads: [commands/s of each round]}} of qwsv's closed-loop runs."""
    by_mode = defaultdict(lambda: defaultdict(list))
    for r in rows:
        if r["server"] == "qwsv" and r["speed"] == "closed" and field(r, "commands_per_s"):
            by_mode[r["mode"]][int(r["threads"])].append(field(r, "commands_per_s"))
    return by_mode


def readme_table(rows, labels, threads):
    """Markdown: median commands per second at the given server threads (rows), a column per
    mode."""
    by_mode = closed_loop(rows)
    modes = mode_order(by_mode)
    table = [[str(t)] + [f"{median(by_mode[m][t]):,.0f}" if by_mode[m].get(t) else "-"
                         for m in modes] for t in threads]
    return markdown_table(["server threads"] + [labels.get(m, m) for m in modes], table)


def realtime(rows):
    """{name: rows} of the real-time runs (speed 1): mvdsv + KTX and qwsv."""
    groups = defaultdict(list)
    for r in rows:
        if r["speed"] == "1":
            name = "mvdsv + KTX" if r["server"] == "mvdsv" else \
                f"qwsv {r['threads']} thr {NAMES.get(r['mode'], r['mode'])}"
            groups[name].append(r)
    return groups


def plot(rows, run, png):
    plt = pyplot(PROG)
    grid = [r for r in rows if r["server"] == "qwsv" and r["speed"] == "closed"]
    by_mode = closed_loop(rows)
    fig, (ax_abs, ax_norm, ax_rt) = plt.subplots(1, 3, figsize=(17, 5))
    base = None
    if by_mode.get("lock", {}).get(1):
        base = median(by_mode["lock"][1])
    for mode in mode_order(by_mode):
        points = sorted((t, median(v)) for t, v in by_mode[mode].items())
        xs, ys = [t for t, _ in points], [y for _, y in points]
        label = NAMES.get(mode, mode)
        ax_abs.plot(xs, ys, marker=MARKERS.get(mode, "o"), label=label)
        if base:
            ax_norm.plot(xs, [y / base for y in ys], marker=MARKERS.get(mode, "o"), label=label)
    if grid:
        ax_abs.set_title(f"throughput, {grid[0]['bots']} fighting bots in closed loop "
                         f"({grid[0]['map']})")
    ax_abs.set_xlabel("server threads")
    ax_abs.set_ylabel("commands the server ran per second")
    ax_abs.set_ylim(bottom=0)
    ax_norm.axhline(1.0, color="grey", linewidth=0.8)
    ax_norm.set_title("the same, relative to LOCK at 1 thread")
    ax_norm.set_xlabel("server threads")
    ax_norm.set_ylabel("throughput / LOCK's at 1 thread")
    ax_norm.set_ylim(bottom=0)
    for ax in (ax_abs, ax_norm):
        ax.set_xticks(sorted({int(r["threads"]) for r in grid}))

    groups = realtime(rows)
    if groups:
        names = sorted(groups, key=lambda n: (not n.startswith("mvdsv"), n))
        width = 0.25
        for k, (key, label) in enumerate((("rtt_p50_ms", "p50"), ("rtt_p90_ms", "p90"),
                                          ("rtt_p99_ms", "p99"))):
            values = [median(field(r, key) or 0 for r in groups[n]) for n in names]
            ax_rt.bar([i + (k - 1) * width for i in range(len(names))], values, width,
                      label=label)
        labels = [f"{n}\n{median(field(r, 'replies_per_s') or 0 for r in groups[n]):.0f}"
                  " replies/s" for n in names]
        ax_rt.set_xticks(range(len(names)))
        ax_rt.set_xticklabels(labels, fontsize=8)
        ax_rt.set_title("the same bots in real time (77 moves/s each): round trip")
        ax_rt.set_ylabel("ms (qwbot: the acknowledgement of each move)")
    else:
        ax_rt.set_axis_off()
    for ax in (ax_abs, ax_norm, ax_rt):
        ax.grid(True, alpha=0.3)
        if ax.get_legend_handles_labels()[0]:
            ax.legend(fontsize=8)
    fig.suptitle(f"qwsv under replayed fighting bots (run {run}); bots and server share the "
                 "machine's cores")
    fig.tight_layout()
    fig.savefig(png, dpi=100)
    print(f"plot-quake-bench: wrote {png}")
