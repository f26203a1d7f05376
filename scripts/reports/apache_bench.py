"""Report of scripts/apache-bench, the Apache cache study: tables and figures from its CSV
(one row per run; each point repeated).

For NAME = the CSV's name:
  NAME.txt                medians with the spread (min-max) per point, the ratios tm/lock
                          and mem/disk per point, httpd's CPU time per request, the aborts
                          per atomic block (from NAME-blocks.csv), and the study's goals
                          (scripts/goals.toml) checked
  NAME-s<S>.png           one figure per Zipf exponent: throughput and response time
                          against concurrent clients, per cache mode (median, band = spread)
  NAME-single-process.png httpd with one child in tm mode: throughput, aborts per
                          transaction and the share of serial runs against clients
                          (libtm's per-process statistics)
"""
import os

from reports.common import median, number, read_csv, markdown_table
from reports.goals import goals

MODE_ORDER = ["nocache", "disk", "socache", "mem-lock", "mem-tm", "mem-tm-sw", "mem-tm-gcc", "mem-tm-base"]
MODE_LABEL = {
    "nocache": "no cache",
    "disk": "disk cache",
    "socache": "socache (shmcb)",
    "mem-lock": "mem, lock",
    "mem-tm": "mem, tm (libtm)",
    "mem-tm-sw": "mem, tm (libtm, software only)",
    "mem-tm-gcc": "mem, tm (GCC libitm)",
    "mem-tm-base": "mem, tm (libtm, baseline build)",
}
MODE_SHORT = {"nocache": "none", "disk": "disk", "socache": "socache", "mem-lock": "lock",
              "mem-tm": "tm", "mem-tm-sw": "tm-sw", "mem-tm-gcc": "tm-gcc",
              "mem-tm-base": "tm-base"}
MODE_COLOR = dict(zip(MODE_ORDER, ["tab:gray", "tab:orange", "tab:green", "tab:blue", "tab:red",
                                   "tab:purple", "tab:brown", "tab:pink"]))
TM_MODES = ["mem-tm", "mem-tm-sw", "mem-tm-base"]


class Point:
    """The repeated runs of one (s, mode, clients)."""

    def __init__(self, rows):
        self.rows = rows
        self.rates = [number(r["rate_rps"]) for r in rows if number(r["rate_rps"])]
        self.responses = [number(r["response_ms"]) for r in rows if number(r["response_ms"])]
        self.hits = [number(r["hit_ratio"]) for r in rows if number(r["hit_ratio"]) is not None]
        per_tx = []
        for r in rows:
            commits, aborts = number(r.get("tm_commits")), number(r.get("tm_aborts"))
            if commits:
                per_tx.append(aborts / commits)
        self.aborts_per_tx = per_tx
        self.serial_share = [number(r["tm_serial"]) / number(r["tm_commits"]) for r in rows
                             if number(r.get("tm_commits")) and number(r.get("tm_serial")) is not None]
        self.failed = sum(int(number(r.get("failed")) or 0) for r in rows)
        self.cpu = [number(r.get("httpd_cpu_us_per_request")) for r in rows
                    if number(r.get("httpd_cpu_us_per_request"))]
        self.siege_cpu = [number(r.get("siege_cpu_us_per_request")) for r in rows
                          if number(r.get("siege_cpu_us_per_request"))]
        self.tm_files = [number(r.get("tm_files")) for r in rows if number(r.get("tm_files"))]
        # requests/s by repeat: ratios pair the runs of one round (modes interleaved)
        self.by_repeat = {r["repeat"]: number(r["rate_rps"]) for r in rows if number(r["rate_rps"])}

    def median(self, values=None):
        values = self.rates if values is None else values
        return median(values)

    def spread(self, values=None):
        values = self.rates if values is None else values
        return (min(values), max(values)) if values else (None, None)


def load(path):
    """(notes, rows, {(s, mode, clients): Point}) of the CSV."""
    notes, rows = read_csv(path)
    points = {}
    for r in rows:
        points.setdefault((r["s"], r["mode"], int(r["clients"])), []).append(r)
    return notes, rows, {k: Point(v) for k, v in points.items()}


def paired_ratios(a, b):
    """Ratios a/b of requests/s, one per repeat that both points have: the runs of one
    repeat ran back to back (modes interleaved), so a drift of the shared machine hits both."""
    if not a or not b:
        return []
    return [a.by_repeat[r] / b.by_repeat[r] for r in sorted(a.by_repeat) if r in b.by_repeat]


def ratio_summary(a, b):
    """(median, lowest, highest) of the paired ratios, or None."""
    ratios = paired_ratios(a, b)
    if not ratios:
        return None
    return median(ratios), min(ratios), max(ratios)


def ratio_text(a, b):
    """Median of the paired ratios with their range: 1.03 [0.95-1.10]."""
    summary = ratio_summary(a, b)
    if not summary:
        return "-", None
    middle, low, high = summary
    return f"{middle:.2f} [{low:.2f}-{high:.2f}]", summary


def judge(summaries, goal):
    """The goal over points [(clients, (median, low, high))]: met where the median reaches
    it, within the spread where only the best repeat does."""
    met = [c for c, (middle, _, _) in summaries if middle >= goal]
    spread = [c for c, (middle, _, high) in summaries if middle < goal <= high]
    missed = [c for c, (_, _, high) in summaries if high < goal]
    parts = [f"median >= {goal:g} at {len(met)} of {len(summaries)} points"]
    if met and len(met) < len(summaries):
        parts[0] += f" ({', '.join(map(str, met))} clients)"
    if spread:
        parts.append(f"within the spread (best repeat >= {goal:g}) at {', '.join(map(str, spread))} clients")
    if missed:
        parts.append(f"not met (every repeat below) at {', '.join(map(str, missed))} clients")
    return "; ".join(parts)


def verdict(summaries, goal):
    """'met' when every point's median reaches the goal, 'within the spread' when every
    point's best repeat does, else 'not met'."""
    if all(middle >= goal for _, (middle, _, _) in summaries):
        return "met"
    return "within the spread" if all(high >= goal for _, (_, _, high) in summaries) else "not met"


def goal_points(points, exponents, modes, clients_list):
    """The points the goals judge, as ({'tm/lock': [(clients, (median, low, high))]},
    {'lock/disk': [...], 'tm/disk': [...]}): at the goals' Zipf exponent, tm/lock from the
    goals' fewest clients, mem/disk at every client count."""
    g = goals("apache_bench")
    goals_tm, goals_disk = {}, {}
    for s in (s for s in exponents if float(s) == g["s"]):
        for c in clients_list:
            if "mem-tm" in modes and "mem-lock" in modes and c >= g["tm_vs_lock_from_clients"]:
                summary = ratio_summary(points.get((s, "mem-tm", c)), points.get((s, "mem-lock", c)))
                if summary:
                    goals_tm.setdefault("tm/lock", []).append((c, summary))
            for m in (m for m in ("mem-lock", "mem-tm") if m in modes and "disk" in modes):
                summary = ratio_summary(points.get((s, m, c)), points.get((s, "disk", c)))
                if summary:
                    goals_disk.setdefault(f"{MODE_SHORT[m]}/disk", []).append((c, summary))
    return goals_tm, goals_disk


def goal_checks(points, exponents, modes, clients_list):
    """[(goal, measured, verdict)] of the study's goals."""
    g = goals("apache_bench")
    goals_tm, goals_disk = goal_points(points, exponents, modes, clients_list)
    checks = [(f"mem, tm >= {g['tm_vs_lock_min']:.1f} x mem, lock from {g['tm_vs_lock_from_clients']} "
               f"clients, s = {g['s']:g}", judge(values, g["tm_vs_lock_min"]), verdict(values, g["tm_vs_lock_min"]))
              for values in goals_tm.values()]
    checks += [(f"mem >= {g['mem_vs_disk_min']:.1f} x disk ({name}), s = {g['s']:g}",
                judge(values, g["mem_vs_disk_min"]), verdict(values, g["mem_vs_disk_min"]))
               for name, values in goals_disk.items()]
    return checks


def load_blocks(path):
    """{(s, mode, clients, function): [aborts per commit of each repeat]} of NAME-blocks.csv
    (libtm's counts per atomic block of every tm run), or {} when there is none."""
    if not path or not os.path.exists(path):
        return {}
    _, rows = read_csv(path)
    runs = {}  # a function inlined at several places is several blocks: added up per run
    for r in rows:
        key = (r["s"].lstrip("s"), r["mode"], int(r["clients"]), r["function"])
        counts = runs.setdefault(key, {}).setdefault(r["repeat"], [0, 0])
        counts[0] += number(r["commits"]) or 0
        counts[1] += number(r["aborts"]) or 0
    return {key: [aborts / commits for commits, aborts in by_repeat.values() if commits]
            for key, by_repeat in runs.items()}


def block_rate(blocks, s, mode, clients, function):
    """Median aborts per 1,000 commits of one atomic block at one point, or None."""
    values = blocks.get((s, mode, clients, function))
    return 1000 * median(values) if values else None


def blocks_table(out, s, blocks, modes, clients_list):
    """Aborts per 1,000 commits of each atomic block (the module's critical sections)."""
    functions = sorted({k[3] for k in blocks if k[0] == s})
    tm_modes = [m for m in TM_MODES if m in modes and any(k[1] == m for k in blocks)]
    if not functions or not tm_modes:
        return
    out.append("aborts per 1,000 commits per atomic block (median of the repeats; libtm's LIBTM_STATS)")
    out.append(f"{'clients':>7} {'block':<26}" + "".join(f" {MODE_SHORT[m]:>8}" for m in tm_modes))
    for c in clients_list:
        for function in functions:
            cells = [block_rate(blocks, s, m, c, function) for m in tm_modes]
            out.append(f"{c:>7} {function:<26}" + "".join(f" {v:8.2f}" if v is not None else f" {'-':>8}"
                                                          for v in cells))


def rtm_absent(notes):
    return any("RTM absent" in n for n in notes)


def label_modes(notes):
    """Without RTM, libtm's tm mode is its software path: the labels say so."""
    if rtm_absent(notes):
        MODE_LABEL["mem-tm"] = "mem, tm (libtm, software: no RTM)"


def cpu_table(out, s, points, modes, clients_list):
    """CPU time per request of httpd and of siege, the two that share the machine."""
    def has(m, field):
        return any(points.get((s, m, c)) and getattr(points[(s, m, c)], field) for c in clients_list)
    httpd_modes = [m for m in modes if has(m, "cpu")]
    siege_modes = [m for m in modes if has(m, "siege_cpu")]
    if not httpd_modes:
        return
    out.append("CPU time per request, microseconds (median): httpd's processes (not the CGI)"
               + (" | siege" if siege_modes else ""))
    out.append(f"{'clients':>7} " + " ".join(f"{MODE_SHORT[m]:>8}" for m in httpd_modes)
               + ("  |" + " ".join(f"{MODE_SHORT[m]:>8}" for m in siege_modes) if siege_modes else ""))
    for c in clients_list:
        cells = []
        for m in httpd_modes:
            p = points.get((s, m, c))
            cells.append(f"{p.median(p.cpu):8.0f}" if p and p.cpu else f"{'-':>8}")
        line = f"{c:>7} " + " ".join(cells)
        if siege_modes:
            cells = []
            for m in siege_modes:
                p = points.get((s, m, c))
                cells.append(f"{p.median(p.siege_cpu):8.0f}" if p and p.siege_cpu else f"{'-':>8}")
            line += "  |" + " ".join(cells)
        out.append(line)


def write_table(path, notes, command, points, exponents, modes, clients_list, blocks=None):
    out = []
    out.append("Apache cache study (man2html through httpd 2.4, Zipf URL lists, siege)")
    out.append(f"command: {command}" if command else "")
    out.extend(notes)
    if rtm_absent(notes):
        out.append("no RTM on this CPU: tm is libtm's software path (LIBTM_HTM=0 would change "
                   "nothing, so there is no separate tm-sw mode)")
    runs = sorted({len(p.rates) for p in points.values()})
    if runs and runs[0] != runs[-1]:
        out.append(f"runs per point: {runs[0]}-{runs[-1]} (the run was cut short: the later repeats "
                   "cover only some points)")
    out.append("requests/s: median of the repeats (min-max); ratios a/b: median of the per-repeat "
               "ratios (the modes of a repeat ran back to back) [lowest-highest]; hit = hit ratio "
               "of the memory cache (lock); aborts/tx = libtm aborts per committed transaction")
    out.append("")
    best_mem = [m for m in ("mem-lock", "mem-tm") if m in modes]
    for s in exponents:
        out.append(f"== Zipf s = {s}")
        head = f"{'clients':>7} " + " ".join(f"{MODE_SHORT[m]:>20}" for m in modes)
        ratio_cols = []
        if "mem-tm" in modes and "mem-lock" in modes:
            ratio_cols.append(("tm/lock", "mem-tm", "mem-lock"))
        if "mem-tm-sw" in modes and "mem-lock" in modes:
            ratio_cols.append(("tm-sw/lock", "mem-tm-sw", "mem-lock"))
        if "mem-tm" in modes and "mem-tm-base" in modes:
            ratio_cols.append(("tm/tm-base", "mem-tm", "mem-tm-base"))
        if "disk" in modes:
            ratio_cols += [(f"{MODE_SHORT[m]}/disk", m, "disk") for m in best_mem]
        head += "".join(f" {name:>18}" for name, _, _ in ratio_cols)
        extra = []
        if "mem-lock" in modes:
            extra.append("hit")
        extra += [f"ab/tx {MODE_SHORT[m]}" for m in TM_MODES if m in modes]
        head += "".join(f" {e:>11}" for e in extra)
        out.append(head)
        for c in clients_list:
            line = f"{c:>7} "
            for m in modes:
                p = points.get((s, m, c))
                if p and p.rates:
                    lo, hi = p.spread()
                    line += f" {p.median():8.0f} ({lo:.0f}-{hi:.0f})".rjust(21)
                else:
                    line += f"{'-':>21}"
            for name, a, b in ratio_cols:
                text, _ = ratio_text(points.get((s, a, c)), points.get((s, b, c)))
                line += f" {text:>18}"
            if "mem-lock" in modes:
                p = points.get((s, "mem-lock", c))
                line += f" {p.median(p.hits):11.3f}" if p and p.hits else f" {'-':>11}"
            for m in TM_MODES:
                if m in modes:
                    p = points.get((s, m, c))
                    line += f" {p.median(p.aborts_per_tx):11.4f}" if p and p.aborts_per_tx else f" {'-':>11}"
            out.append(line)
        cpu_table(out, s, points, modes, clients_list)
        blocks_table(out, s, blocks or {}, modes, clients_list)
        out.append("")
    g = goals("apache_bench")
    goals_tm, goals_disk = goal_points(points, exponents, modes, clients_list)
    if goals_tm or goals_disk:
        out.append(f"== Goals at s = {g['s']:g} (on the per-repeat ratios: median, and the best repeat for "
                   "'within the spread')")
    for name, values in goals_tm.items():
        out.append(f"mem/tm >= {g['tm_vs_lock_min']:.1f} x mem/lock from {g['tm_vs_lock_from_clients']} "
                   f"clients: {judge(values, g['tm_vs_lock_min'])}; {name} "
                   + ", ".join(f"{c}: {m:.3f} [{lo:.3f}-{hi:.3f}]" for c, (m, lo, hi) in values))
    for name, values in goals_disk.items():
        out.append(f"mem >= {g['mem_vs_disk_min']:.1f} x disk ({name}): {judge(values, g['mem_vs_disk_min'])}; "
                   + ", ".join(f"{c}: {m:.3f} [{lo:.3f}-{hi:.3f}]" for c, (m, lo, hi) in values))
    failed = sum(p.failed for p in points.values())
    out.append(f"failed requests over all runs: {failed}")
    with open(path, "w") as f:
        f.write("\n".join(line for line in out if line is not None) + "\n")
    print("\n".join(out))
    print(f"plot-apache-bench: wrote {path}")


def dodge(x, index, count):
    """Shifts the index-th of count series a little along the log2 x axis, so that the
    spreads of modes at the same point stand side by side instead of on top of each other."""
    return x * 2 ** (0.07 * (index - (count - 1) / 2))


def draw_series(ax, xs, points, values_of, mode, index=0, count=1, label=None, **style):
    """Median line with a min-max bar over the repeats at each point."""
    used, medians, below, above = [], [], [], []
    for x, p in zip(xs, points):
        values = values_of(p) if p else []
        if values:
            middle = median(values)
            used.append(dodge(x, index, count))
            medians.append(middle)
            below.append(middle - min(values))
            above.append(max(values) - middle)
    if not used:
        return
    color = style.pop("color", MODE_COLOR.get(mode))
    ax.errorbar(used, medians, yerr=[below, above], marker="o", markersize=4, capsize=2.5,
                elinewidth=1, color=color, label=label or MODE_LABEL[mode], **style)


def draw_ratio(ax, xs, s, points, top, bottom, index, count, **style):
    """Median of the per-repeat ratios top/bottom with a bar over their range, the median's
    value written beside it."""
    used, medians, below, above = [], [], [], []
    for x in xs:
        summary = ratio_summary(points.get((s, top, x)), points.get((s, bottom, x)))
        if summary:
            middle, low, high = summary
            used.append(dodge(x, index, count))
            medians.append(middle)
            below.append(middle - low)
            above.append(high - middle)
    if not used:
        return None
    ax.errorbar(used, medians, yerr=[below, above], marker="o", markersize=4, capsize=2.5,
                elinewidth=1, label=f"{MODE_LABEL[top]} / {MODE_LABEL[bottom]}", **style)
    for x, middle in zip(used, medians):
        # Beside the point, away from the other series (dodge puts index 0 to the left).
        left = index < (count - 1) / 2
        ax.annotate(f"{middle:.2f}", (x, middle), textcoords="offset points",
                    xytext=(-5 if left else 5, 0), ha="right" if left else "left", va="center",
                    fontsize=7, color=style.get("color"),
                    bbox=dict(boxstyle="square,pad=0.1", facecolor="white", edgecolor="none", alpha=0.8))
    return min(m - b for m, b in zip(medians, below))


def ratio_panel(ax, clients_list, s, points, tops, bottom, goal, title):
    """Ratios top/bottom of requests/s per point for each mode in tops, with the goal line."""
    lows = [draw_ratio(ax, clients_list, s, points, m, bottom, i, len(tops), color=MODE_COLOR[m])
            for i, m in enumerate(tops)]
    lows = [low for low in lows if low is not None]
    style_axes(ax, clients_list, "ratio of requests/s")
    ax.set_title(title)
    if lows:
        # Not from 0: what matters is where the points lie against the goal line.
        floor = max(0.0, min(min(lows), goal * 0.7) - 0.1)
        top = max(ax.get_ylim()[1], goal * 1.2) + 0.05
        ax.axhline(goal, color="green", linewidth=1.2, linestyle="--", label=f"goal: {goal:g}")
        ax.axhspan(goal, top, color="green", alpha=0.07)
        ax.set_ylim(floor, top)
        ax.legend(fontsize=8, loc="best", framealpha=0.9)


def style_axes(ax, clients_list, ylabel, log_y=False):
    ax.set_xscale("log", base=2)
    ax.set_xticks(clients_list)
    ax.set_xticklabels([str(c) for c in clients_list])
    ax.set_xlabel("concurrent siege clients")
    ax.set_ylabel(ylabel)
    if log_y:
        import matplotlib.ticker
        ax.set_yscale("log")
        ax.yaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda v, _: f"{v:g}"))
    ax.grid(True, alpha=0.3)


def save(plt, fig, footer, top, path):
    """Writes fig to path with the run's conditions as a footer; top leaves room for the title."""
    fig.text(0.5, 0.01, footer, ha="center", fontsize=7, color="dimgray")
    fig.tight_layout(rect=(0, 0.03, 1, top))
    fig.savefig(path, dpi=110)
    plt.close(fig)
    print(f"plot-apache-bench: wrote {path}")


def plot(outdir, name, notes, points, exponents, modes, clients_list):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    footer = notes[0] if notes else ""
    tm_modes = [m for m in TM_MODES if m in modes]
    mem_modes = [m for m in ("mem-lock", "mem-tm") if m in modes]
    for s in exponents:
        fig, axes = plt.subplots(2, 2, figsize=(12.5, 8.6))
        (rate_ax, time_ax), (tm_ax, disk_ax) = axes
        for i, m in enumerate(modes):
            ps = [points.get((s, m, c)) for c in clients_list]
            draw_series(rate_ax, clients_list, ps, lambda p: p.rates, m, i, len(modes))
            draw_series(time_ax, clients_list, ps, lambda p: p.responses, m, i, len(modes))
        style_axes(rate_ax, clients_list, "requests/s")
        rate_ax.set_ylim(bottom=0)
        rate_ax.set_title("throughput (median of the repeats, bar: min-max)")
        # Above the no-cache curve, in the room below the cached ones.
        rate_ax.legend(fontsize=8, loc="lower right", bbox_to_anchor=(1, 0.1))
        style_axes(time_ax, clients_list, "ms (clients / throughput)", log_y=True)
        time_ax.set_title("mean response time (log scale; lower is better)")
        # The two questions of the study, as ratios with their goal lines.
        g = goals("apache_bench")
        ratio_panel(tm_ax, clients_list, s, points, tm_modes if "mem-lock" in modes else [],
                    "mem-lock", g["tm_vs_lock_min"],
                    f"transactions vs lock (goal at s = {g['s']:g} from {g['tm_vs_lock_from_clients']} "
                    f"clients: >= {g['tm_vs_lock_min']:.1f})")
        ratio_panel(disk_ax, clients_list, s, points, mem_modes if "disk" in modes else [],
                    "disk", g["mem_vs_disk_min"],
                    f"memory cache vs disk cache (goal at s = {g['s']:g}: >= {g['mem_vs_disk_min']:.1f})")
        fig.suptitle(f"man2html through httpd 2.4, Zipf s = {s}: cache modes against concurrent clients\n"
                     "(ratios: median of the per-repeat ratios, bar: their range; green: the goal)")
        save(plt, fig, footer, 0.94, os.path.join(outdir, f"{name}-s{s}.png"))

    if not tm_modes:
        print("plot-apache-bench: no tm mode in the CSV; single-process figure skipped")
        return
    fig, axes = plt.subplots(3, len(exponents), figsize=(max(4.6 * len(exponents), 9), 10), squeeze=False)
    # Aborts and serial shares on one scale per row, so the exponents compare at a glance.
    for row in (1, 2):
        for ax in axes[row][1:]:
            ax.sharey(axes[row][0])
    shown = [m for m in ["mem-lock"] + tm_modes if m in modes]
    for column, s in enumerate(exponents):
        top, middle, bottom = axes[0][column], axes[1][column], axes[2][column]
        for i, m in enumerate(shown):
            ps = [points.get((s, m, c)) for c in clients_list]
            draw_series(top, clients_list, ps, lambda p: p.rates, m, i, len(shown),
                        linestyle="--" if m == "mem-lock" else "-")
        for i, m in enumerate(tm_modes):
            ps = [points.get((s, m, c)) for c in clients_list]
            draw_series(middle, clients_list, ps, lambda p: [1000 * a for a in p.aborts_per_tx], m, i,
                        len(tm_modes))
            draw_series(bottom, clients_list, ps, lambda p: p.serial_share, m, i, len(tm_modes))
        top.set_title(f"Zipf s = {s}")
        first = column == 0
        style_axes(top, clients_list, "requests/s" if first else "")
        top.set_ylim(bottom=0)
        style_axes(middle, clients_list, "aborts per 1,000 committed\ntransactions" if first else "")
        style_axes(bottom, clients_list, "share of transactions\nlibtm ran serially" if first else "")
        bottom.set_ylim(0, 1.05)
    # The aborts' scale once every exponent is drawn: set per column, it kept the first one's.
    highest = max((ax.dataLim.y1 for ax in axes[1] if ax.has_data()), default=1)
    axes[1][0].set_ylim(0, max(highest, 0.1) * 1.08)
    axes[0][0].legend(fontsize=8, loc="upper left")
    files = sorted({int(f) for p in points.values() for f in p.tm_files})
    merged = ("" if not files else
              f"{files[0]} files per run" if len(files) == 1 else f"{files[0]}-{files[-1]} files per run")
    fig.suptitle("httpd with one child (64 threads) and MCacheSync tm: throughput, aborts and serial runs\n"
                 f"from libtm's per-process statistics (LIBTM_STATS=...-%p.json: {merged + ', ' if merged else ''}"
                 "one per process, merged with libtm-stats)\n"
                 "median, bar: min-max of the repeats; lock dashed")
    save(plt, fig, footer, 0.92, os.path.join(outdir, f"{name}-single-process.png"))




def readme_table(points, s):
    """Markdown: the Zipf exponent s by clients, requests/s median (min-max), the ratios and
    libtm's aborts per 1,000 transactions."""
    def rate(p, spread=True):
        if not p or not p.rates:
            return "-"
        low, high = p.spread()
        return f"{p.median():.0f}" + (f" ({low:.0f}-{high:.0f})" if spread else "")

    def median_ratio(a, b):
        summary = ratio_summary(a, b)
        return f"{summary[0]:.2f}" if summary else "-"
    head = ["clients", "no cache", "disk cache", "mem, lock", "mem, tm (libtm)", "tm/lock", "lock/disk",
            "tm/disk", "aborts per 1,000 tx"]
    rows = []
    for c in sorted({k[2] for k in points if k[0] == s}):
        p = {m: points.get((s, m, c)) for m in MODE_ORDER}
        tm = p["mem-tm"]
        rows.append([str(c), rate(p["nocache"], spread=False), rate(p["disk"]), rate(p["mem-lock"]), rate(tm),
                     ratio_text(tm, p["mem-lock"])[0], median_ratio(p["mem-lock"], p["disk"]),
                     median_ratio(tm, p["disk"]),
                     f"{1000 * tm.median(tm.aborts_per_tx):.1f}" if tm and tm.aborts_per_tx else "-"])
    return markdown_table(head, rows)



def baseline_table(points, blocks, s):
    """Markdown: a change of the module (mem-tm) against the build before it (mem-tm-base), by
    clients: requests/s, their paired ratio, libtm's aborts per 1,000 requests (not per
    transaction: open transactions are commits of their own) and per 1,000 commits of the
    hit's and the insert's atomic blocks; mem, lock for the noise."""
    def rate(p):
        if not p or not p.rates:
            return "-"
        low, high = p.spread()
        return f"{p.median():.0f} ({low:.0f}-{high:.0f})"

    def pair(values):
        return " / ".join("-" if v is None else f"{v:.2f}" for v in values)
    def per_request(p):
        values = [number(r["tm_aborts"]) / number(r["requests"]) for r in p.rows
                  if number(r.get("requests")) and number(r.get("tm_aborts")) is not None] if p else []
        return 1000 * median(values) if values else None
    head = ["clients", "mem, lock", "tm, before", "tm, after", "after/before",
            "aborts per 1,000 requests", "per 1,000 hits (open_entity)", "per 1,000 inserts (create_entity)"]
    rows = []
    for c in sorted({k[2] for k in points if k[0] == s}):
        base, tm = points.get((s, "mem-tm-base", c)), points.get((s, "mem-tm", c))
        rows.append([str(c), rate(points.get((s, "mem-lock", c))), rate(base), rate(tm), ratio_text(tm, base)[0],
                     pair([per_request(base), per_request(tm)]),
                     pair([block_rate(blocks, s, m, c, "mem_open_entity") for m in ("mem-tm-base", "mem-tm")]),
                     pair([block_rate(blocks, s, m, c, "mem_create_entity") for m in ("mem-tm-base", "mem-tm")])])
    return markdown_table(head, rows)


def libtm_change_table(points, s):
    """Markdown: a change of libtm (mem-tm) against the library before it (mem-tm-base, run
    with --baseline-libtm), beside the mutex and GCC's libitm, by clients: requests/s median
    (min-max) and the paired ratios of the repeats, median [lowest-highest]."""
    def rate(p):
        if not p or not p.rates:
            return "-"
        low, high = p.spread()
        return f"{p.median():.0f} ({low:.0f}-{high:.0f})"
    head = ["clients", "disk", "socache", "mem, lock", "tm, libtm before", "tm, libtm after",
            "tm, GCC libitm", "before/lock", "after/lock", "after/GCC", "after/before"]
    rows = []
    for c in sorted({k[2] for k in points if k[0] == s}):
        p = {m: points.get((s, m, c)) for m in MODE_ORDER}
        after, before = p["mem-tm"], p["mem-tm-base"]
        rows.append([str(c), rate(p["disk"]), rate(p["socache"]), rate(p["mem-lock"]), rate(before),
                     rate(after), rate(p["mem-tm-gcc"]), ratio_text(before, p["mem-lock"])[0],
                     ratio_text(after, p["mem-lock"])[0], ratio_text(after, p["mem-tm-gcc"])[0],
                     ratio_text(after, before)[0]])
    return markdown_table(head, rows)
