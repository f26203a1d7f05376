#!/usr/bin/python3
"""Tables and figures of the Apache cache study from the CSV that scripts/apache-bench writes
(one row per run; each point repeated).

Writes, next to each other in OUTDIR (default: the CSV's folder), for NAME = the CSV's name:
  NAME.txt                medians with the spread (min-max) per point, the ratios tm/lock
                          and mem/disk per point, httpd's CPU time per request, and the
                          study's goals checked
  NAME-s<S>.png           one figure per Zipf exponent: throughput and response time
                          against concurrent clients, per cache mode (median, band = spread)
  NAME-single-process.png httpd with one child in tm mode: throughput, aborts per
                          transaction and the share of serial runs against clients
                          (libtm's per-process statistics)
"""
import argparse
import csv
import os
import statistics
import sys

MODE_ORDER = ["nocache", "disk", "socache", "mem-lock", "mem-tm", "mem-tm-sw", "mem-tm-gcc"]
MODE_LABEL = {
    "nocache": "no cache",
    "disk": "disk cache",
    "socache": "socache (shmcb)",
    "mem-lock": "mem, lock",
    "mem-tm": "mem, tm (libtm)",
    "mem-tm-sw": "mem, tm (libtm, software only)",
    "mem-tm-gcc": "mem, tm (GCC libitm)",
}
MODE_SHORT = {"nocache": "none", "disk": "disk", "socache": "socache", "mem-lock": "lock",
              "mem-tm": "tm", "mem-tm-sw": "tm-sw", "mem-tm-gcc": "tm-gcc"}
MODE_COLOR = dict(zip(MODE_ORDER, ["tab:gray", "tab:orange", "tab:green", "tab:blue", "tab:red",
                                   "tab:purple", "tab:brown"]))
TM_MODES = ["mem-tm", "mem-tm-sw"]


def number(text):
    try:
        return float(text)
    except (TypeError, ValueError):
        return None


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

    def median(self, values=None):
        values = self.rates if values is None else values
        return statistics.median(values) if values else None

    def spread(self, values=None):
        values = self.rates if values is None else values
        return (min(values), max(values)) if values else (None, None)


def load(path):
    header_notes = []
    lines = []
    with open(path) as f:
        for line in f:
            (header_notes if line.startswith("#") else lines).append(line)
    rows = list(csv.DictReader(lines))
    points = {}
    for r in rows:
        points.setdefault((r["s"], r["mode"], int(r["clients"])), []).append(r)
    return [n.lstrip("# ").rstrip() for n in header_notes], rows, {k: Point(v) for k, v in points.items()}


def ratio_text(a, b):
    """Median ratio a/b with the range over the repeats: 1.03 [0.95-1.10]."""
    if not a or not b or not a.rates or not b.rates:
        return "-", None, None
    median = a.median() / b.median()
    low = min(a.rates) / max(b.rates)
    high = max(a.rates) / min(b.rates)
    return f"{median:.2f} [{low:.2f}-{high:.2f}]", median, high


def write_table(path, notes, command, points, exponents, modes, clients_list):
    out = []
    out.append("Apache cache study (man2html through httpd 2.4, Zipf URL lists, siege)")
    out.append(f"command: {command}" if command else "")
    out.extend(notes)
    runs = sorted({len(p.rates) for p in points.values()})
    if runs and runs[0] != runs[-1]:
        out.append(f"runs per point: {runs[0]}-{runs[-1]} (the run was cut short: the later repeats "
                   "cover only some points)")
    out.append("requests/s: median of the repeats (min-max); ratios: median ratio [lowest-highest "
               "over the repeats]; hit = hit ratio of the memory cache (lock); aborts/tx = libtm "
               "aborts per committed transaction")
    out.append("")
    best_mem = [m for m in ("mem-lock", "mem-tm") if m in modes]
    goals_tm, goals_disk = [], []
    for s in exponents:
        out.append(f"== Zipf s = {s}")
        head = f"{'clients':>7} " + " ".join(f"{MODE_SHORT[m]:>20}" for m in modes)
        ratio_cols = []
        if "mem-tm" in modes and "mem-lock" in modes:
            ratio_cols.append(("tm/lock", "mem-tm", "mem-lock"))
        if "mem-tm-sw" in modes and "mem-lock" in modes:
            ratio_cols.append(("tm-sw/lock", "mem-tm-sw", "mem-lock"))
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
            for _, a, b in ratio_cols:
                text, median, high = ratio_text(points.get((s, a, c)), points.get((s, b, c)))
                line += f" {text:>18}"
                if float(s) == 2 and a == "mem-tm" and b == "mem-lock" and c >= 4 and median is not None:
                    goals_tm.append((c, median, high))
                if float(s) == 2 and b == "disk" and median is not None:
                    goals_disk.append((c, MODE_SHORT[a], median))
            if "mem-lock" in modes:
                p = points.get((s, "mem-lock", c))
                line += f" {p.median(p.hits):11.3f}" if p and p.hits else f" {'-':>11}"
            for m in TM_MODES:
                if m in modes:
                    p = points.get((s, m, c))
                    line += f" {p.median(p.aborts_per_tx):11.4f}" if p and p.aborts_per_tx else f" {'-':>11}"
            out.append(line)
        cpu_modes = [m for m in modes if any(points.get((s, m, c)) and points[(s, m, c)].cpu
                                             for c in clients_list)]
        if cpu_modes:
            out.append("httpd CPU per request, microseconds (median; httpd's processes, not the CGI):")
            out.append(f"{'clients':>7} " + " ".join(f"{MODE_SHORT[m]:>8}" for m in cpu_modes))
            for c in clients_list:
                cells = []
                for m in cpu_modes:
                    p = points.get((s, m, c))
                    cells.append(f"{p.median(p.cpu):8.0f}" if p and p.cpu else f"{'-':>8}")
                out.append(f"{c:>7} " + " ".join(cells))
        out.append("")
    if goals_tm or goals_disk:
        out.append("== Goals at s = 2")
    def verdict(met, total):
        missed = [c for c in total if c not in met]
        return (f"met at all {len(total)} points" if not missed else
                f"met at {len(met)} of {len(total)} points, not at {', '.join(map(str, missed))} clients")
    if goals_tm:
        met = [c for c, median, high in goals_tm if median >= 1.0 or high >= 1.0]
        out.append("mem/tm >= 1.0 x mem/lock from 4 clients (median, or the best repeat of tm "
                   f"against the worst of lock): {verdict(met, [c for c, _, _ in goals_tm])}; median ratios "
                   + ", ".join(f"{c}: {median:.3f}" for c, median, _ in goals_tm))
    if goals_disk:
        for kind in sorted({k for _, k, _ in goals_disk}):
            values = [(c, r) for c, k, r in goals_disk if k == kind]
            met = [c for c, r in values if r >= 1.3]
            out.append(f"mem/{kind} >= 1.3 x disk (medians): {verdict(met, [c for c, _ in values])}; "
                       "median ratios " + ", ".join(f"{c}: {r:.3f}" for c, r in values))
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
            median = statistics.median(values)
            used.append(dodge(x, index, count))
            medians.append(median)
            below.append(median - min(values))
            above.append(max(values) - median)
    if not used:
        return
    color = style.pop("color", MODE_COLOR.get(mode))
    ax.errorbar(used, medians, yerr=[below, above], marker="o", markersize=4, capsize=2.5,
                elinewidth=1, color=color, label=label or MODE_LABEL[mode], **style)


def ratio_values(a, b):
    """Median ratio a/b and its range over the repeats (lowest a / highest b .. highest / lowest)."""
    if not a or not b or not a.rates or not b.rates:
        return []
    return [min(a.rates) / max(b.rates), a.median() / b.median(), max(a.rates) / min(b.rates)]


def draw_ratio(ax, xs, s, points, top, bottom, index, count, **style):
    used, medians, below, above = [], [], [], []
    for x in xs:
        values = ratio_values(points.get((s, top, x)), points.get((s, bottom, x)))
        if values:
            low, median, high = values
            used.append(dodge(x, index, count))
            medians.append(median)
            below.append(median - low)
            above.append(high - median)
    if used:
        ax.errorbar(used, medians, yerr=[below, above], marker="o", markersize=4, capsize=2.5,
                    elinewidth=1, label=f"{MODE_LABEL[top]} / {MODE_LABEL[bottom]}", **style)


def ratio_panel(ax, clients_list, s, points, tops, bottom, goal, title):
    """Ratios top/bottom of requests/s per point for each mode in tops, with the goal line."""
    for i, m in enumerate(tops):
        draw_ratio(ax, clients_list, s, points, m, bottom, i, len(tops), color=MODE_COLOR[m])
    if tops:
        ax.axhline(goal, color="black", linewidth=1, linestyle=":")
        ax.legend(fontsize=8, loc="best")
    style_axes(ax, clients_list, "ratio of requests/s")
    ax.set_title(title)
    ax.set_ylim(bottom=0)


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
        rate_ax.legend(fontsize=8, loc="best")
        style_axes(time_ax, clients_list, "ms (clients / throughput)", log_y=True)
        time_ax.set_title("mean response time (log scale; lower is better)")
        # The two questions of the study, as ratios with their goal lines.
        ratio_panel(tm_ax, clients_list, s, points, tm_modes if "mem-lock" in modes else [],
                    "mem-lock", 1.0, "transactions vs lock (goal at s = 2 from 4 clients: >= 1.0)")
        ratio_panel(disk_ax, clients_list, s, points, mem_modes if "disk" in modes else [],
                    "disk", 1.3, "memory cache vs disk cache (goal at s = 2: >= 1.3)")
        fig.suptitle(f"man2html through httpd 2.4, Zipf s = {s}: cache modes against concurrent clients\n"
                     "(ratio bars: lowest-highest over the repeats; dotted: the goal)")
        save(plt, fig, footer, 0.94, os.path.join(outdir, f"{name}-s{s}.png"))

    if not tm_modes:
        print("plot-apache-bench: no tm mode in the CSV; single-process figure skipped")
        return
    fig, axes = plt.subplots(3, len(exponents), figsize=(max(4.6 * len(exponents), 9), 10), squeeze=False)
    shown = [m for m in ["mem-lock"] + tm_modes if m in modes]
    for column, s in enumerate(exponents):
        top, middle, bottom = axes[0][column], axes[1][column], axes[2][column]
        for i, m in enumerate(shown):
            ps = [points.get((s, m, c)) for c in clients_list]
            draw_series(top, clients_list, ps, lambda p: p.rates, m, i, len(shown),
                        linestyle="--" if m == "mem-lock" else "-")
        for i, m in enumerate(tm_modes):
            ps = [points.get((s, m, c)) for c in clients_list]
            draw_series(middle, clients_list, ps, lambda p: p.aborts_per_tx, m, i, len(tm_modes))
            draw_series(bottom, clients_list, ps, lambda p: p.serial_share, m, i, len(tm_modes))
        top.set_title(f"Zipf s = {s}")
        style_axes(top, clients_list, "requests/s")
        top.set_ylim(bottom=0)
        style_axes(middle, clients_list, "aborts per committed transaction")
        middle.set_ylim(bottom=0)
        style_axes(bottom, clients_list, "share of transactions run serially")
        bottom.set_ylim(0, 1.05)
    axes[0][0].legend(fontsize=8, loc="upper left")
    fig.suptitle("httpd with one child (64 threads) and MCacheSync tm: throughput, aborts and serial runs\n"
                 "from libtm's per-process statistics (median, bar: min-max of the repeats; lock dashed "
                 "for reference)")
    save(plt, fig, footer, 0.94, os.path.join(outdir, f"{name}-single-process.png"))


def main():
    parser = argparse.ArgumentParser(usage="%(prog)s [-h] [--command COMMAND] [--no-plots] csv [outdir]",
                                     description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
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
    exponents = sorted({r["s"] for r in rows}, key=float)
    modes = [m for m in MODE_ORDER if any(r["mode"] == m for r in rows)]
    clients_list = sorted({int(r["clients"]) for r in rows})
    write_table(os.path.join(outdir, f"{name}.txt"), notes, args.command, points, exponents, modes, clients_list)
    if not args.no_plots:
        plot(outdir, name, notes, points, exponents, modes, clients_list)
    return 0


if __name__ == "__main__":
    sys.exit(main())
