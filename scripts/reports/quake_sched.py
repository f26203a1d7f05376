"""Report of scripts/quake-bench --sched (results/quake-sched.csv): -sched lpt against -sched
static with each -sync mode.

For each map and thread count, every mode: the server's CPU-milliseconds per 1,000 commands,
the share of the request phase during which every worker was busy, the work balance, the jobs
per frame and their weights (maximum and mean; with -sched static a worker's clients are its
one job), frames/s, messages per frame and per second (medians over the rounds of one run).
Then the goals of scripts/goals.toml (lpt at 2 threads on the large map: CPU per command no
more than the best static mode's, every worker busy most of the request phase) and the
reference design's published figures. The figure: CPU per 1,000 commands, the all-busy share
(with the reference's 55 % and 40 %) and lpt's jobs and weights, by threads, one row per map."""
import os
from collections import defaultdict

from reports.common import field, median, ratio, shown, pyplot, markdown_table
from reports.goals import goals as study_goals

PROG = "plot-quake-sched"

NAMES = {"lpt-none": "lpt, -sync none", "static-lock": "static, lock",
         "static-region": "static, region", "static-stm": "static, stm",
         "static-stmlock": "static, stmlock"}
MARKERS = {"lpt-none": "o", "static-lock": "s", "static-region": "D", "static-stm": "^",
           "static-stmlock": "v"}
REFERENCE = """Reference design (parallel QuakeWorld with dynamic load balancing, 2-way machine; the
issue's figures): 95-350 frames/s, 11-33 messages/frame, 3,135-3,850 messages/s; all workers
busy 55 % of the time with the load balancing vs 40 % for the static server; about 9 jobs of
weight 8 per frame on a 32-player map, about 20 jobs of weight 4 on a custom map."""
COLUMNS = [("commands_per_s", "commands/s", "{:.0f}"),
           ("speedup", "x own 1 thr", "{:.2f}"),
           ("cpu_ms_per_1000_commands", "CPU ms/1000 cmd", "{:.2f}"),
           ("all_busy_share", "all busy", "{:.0%}"),
           ("work_balance", "balance", "{:.0%}"),
           ("start_skew_ms", "start skew ms", "{:.3f}"),
           ("jobs_per_frame", "jobs/frame", "{:.1f}"),
           ("weight_max", "weight max", "{:.1f}"),
           ("weight_mean", "weight mean", "{:.1f}"),
           ("fps", "frames/s", "{:.0f}"),
           ("msgs_per_frame", "msgs/frame", "{:.1f}"),
           ("msgs_per_s", "msgs/s", "{:.0f}"),
           ("deferred_per_frame", "deferred/frame", "{:.2f}"),
           ("rtt_p99_ms", "rtt p99 ms", "{:.2f}")]


def medians(rows):
    """{(map, threads, mode): {column: median}} over the rounds of each point."""
    groups = defaultdict(list)
    for r in rows:
        groups[(r["map"], int(r["threads"]), f"{r['sched']}-{r['sync']}")].append(r)
    out = {}
    for key, rs in groups.items():
        point = {"rounds": len(rs)}
        for r in rs:   # the commands of the window over its seconds
            r["commands_per_s"] = ratio(field(r, "commands"), field(r, "duration_s"))
        for col, _, _ in COLUMNS:
            point[col] = median(field(r, col) for r in rs)
        out[key] = point
    # each mode's commands per second over its own at the fewest threads measured on the map
    for (m, t, mode), point in out.items():
        first = min(k[1] for k in out if k[0] == m)
        base = out.get((m, first, mode), {}).get("commands_per_s")
        point["speedup"] = ratio(point["commands_per_s"], base)
    return out


def mode_order(modes):
    return sorted(modes, key=lambda m: list(NAMES).index(m) if m in NAMES else 99)


def clients(row):
    """Who the run's clients were: qwbot's scripted bots, or (--load replay) virtual clients
    replaying the map's fight trace inside the server."""
    if row.get("load") == "replay":
        return f"{row['bots']} virtual clients replaying a fight trace in the server"
    return f"{row['bots']} scripted bots"


def table(points, rows):
    lines = []
    first = rows[0]
    lines.append(f"quake-bench --sched, run {first['run']}: {clients(first)} at speed "
                 f"{first['speed']} (1 = 77 moves/s each), {first['duration_s']} s measured per "
                 f"point once every bot was in the game; load average at the start of each point "
                 f"{min(field(r, 'load_avg') or 0 for r in rows):.2f}-"
                 f"{max(field(r, 'load_avg') or 0 for r in rows):.2f}")
    lines.append("commands/s = the commands the server ran in the window over its seconds; x own "
                 "1 thr = that over the same mode's at the fewest threads")
    lines.append("CPU = the server process's CPU time per 1,000 commands it ran; all busy = the "
                 "share of the request phase during which every worker was busy; balance = the "
                 "shortest worker's request phase over the longest one's (the all-busy share had "
                 "they all started together); start skew = from the first worker's start of the "
                 "request phase to the last one's, per frame")
    large = study_goals("quake_sched")["map"]
    for m in sorted({k[0] for k in points}, key=lambda x: (x != large, x)):
        lines.append("")
        lines.append(f"== {m}")
        header = f"{'threads':>7} {'mode':<17}" + "".join(f"{name:>16}" for _, name, _ in COLUMNS)
        lines.append(header)
        for t in sorted({k[1] for k in points if k[0] == m}):
            for mode in mode_order({k[2] for k in points if k[0] == m and k[1] == t}):
                p = points[(m, t, mode)]
                cells = "".join(f"{(fmt.format(p[col]) if p[col] is not None else '-'):>16}"
                                for col, _, fmt in COLUMNS)
                lines.append(f"{t:>7} {NAMES.get(mode, mode):<17}{cells}")
    lines.append("")
    lines.extend(goals(points))
    lines.append("")
    lines.append(REFERENCE)
    return "\n".join(lines) + "\n"


def pct(value):
    return f"{value:.0%}" if value is not None else "-"


def judged(points):
    """What the goals judge (scripts/goals.toml: a map and a thread count): lpt's point, the
    static modes' points, the best static mode (its CPU, its name), or None if not measured."""
    g = study_goals("quake_sched")
    lpt = points.get((g["map"], g["threads"], "lpt-none"))
    static = {k[2]: v for k, v in points.items()
              if k[0] == g["map"] and k[1] == g["threads"] and k[2].startswith("static-")}
    measured = [(v["cpu_ms_per_1000_commands"], k) for k, v in static.items()
                if v["cpu_ms_per_1000_commands"] is not None]
    if not lpt or not measured:
        return None
    return lpt, static, min(measured)


def goal_checks(points):
    """[(goal, measured, verdict)]: lpt's CPU per command against the best static mode's,
    and the share of the request phase with every worker busy."""
    g = study_goals("quake_sched")
    found = judged(points)
    if not found:
        return []
    lpt, _, (best_cpu, best) = found
    cpu, share, most = lpt["cpu_ms_per_1000_commands"], lpt["all_busy_share"], g["all_busy_share_min"]
    where = f"{g['map']}, {g['threads']} threads"
    return [(f"-sched lpt's server CPU per command <= the best static mode's ({where})",
             f"{cpu:.2f} vs {best_cpu:.2f} ms ({NAMES.get(best, best)}): {cpu / best_cpu:.2f} x",
             "met" if cpu <= g["lpt_vs_best_static_cpu_max"] * best_cpu else "not met"),
            (f"every worker busy >= {100 * most:.0f} % of the request phase ({where})",
             "-" if share is None else f"{100 * share:.0f} %",
             "met" if share is not None and share >= most else "not met")]


def goals(points):
    g = study_goals("quake_sched")
    out = [f"Goals ({g['map']}, {g['threads']} threads):"]
    found = judged(points)
    if not found:
        return out + [f"  not measured (needs lpt-none and a static mode at {g['threads']} threads on {g['map']})"]
    lpt, static, (best_cpu, best) = found
    (_, _, cpu_verdict), (_, _, busy_verdict) = goal_checks(points)
    cpu = lpt["cpu_ms_per_1000_commands"]
    out.append(f"  CPU per 1,000 commands, lpt {cpu:.2f} ms vs the best static mode "
               f"({NAMES.get(best, best)}) {best_cpu:.2f} ms: {cpu_verdict} ({cpu / best_cpu:.2f} x)")
    out.append(f"  every worker busy {pct(lpt['all_busy_share'])} of the request phase (goal >= "
               f"{100 * g['all_busy_share_min']:.0f} %): {busy_verdict}; the static modes "
               + ", ".join(f"{NAMES.get(k, k)} {pct(v['all_busy_share'])}"
                           for k, v in sorted(static.items())))
    out.append(f"  work balance (as if every worker had started together): lpt "
               f"{pct(lpt['work_balance'])}; the static modes "
               + ", ".join(f"{NAMES.get(k, k)} {pct(v['work_balance'])}"
                           for k, v in sorted(static.items())))
    return out


def readme_table(points, mapkey, picks):
    """Markdown rows of the (threads, mode) picks on one map; at 1 thread the busy share and
    the balance say nothing (one worker) and show '-'."""
    head = ["threads", "mode", "CPU ms / 1,000 cmds", "every worker busy", "balance", "jobs/frame",
            "heaviest / mean job", "frames/s", "msgs/frame"]
    rows = []
    for threads, mode in picks:
        p = points[(mapkey, threads, mode)]
        one = threads == 1
        jobs = p["jobs_per_frame"]
        heaviest, mean = shown(p["weight_max"], ".1f"), shown(p["weight_mean"], ".1f")
        rows.append([str(threads), NAMES.get(mode, mode).replace("-sync none", "`-sync none`"),
                     shown(p["cpu_ms_per_1000_commands"], ".2f"),
                     "-" if one else pct(p["all_busy_share"]).replace("%", " %"),
                     "-" if one else pct(p["work_balance"]).replace("%", " %"),
                     "1" if jobs == 1 else shown(jobs, ".1f"),
                     heaviest if heaviest == mean else f"{heaviest} / {mean}",
                     shown(p["fps"], ".0f"), shown(p["msgs_per_frame"], ".1f")])
    return markdown_table(head, rows)


def plot(points, png, rows):
    plt = pyplot(PROG)
    large = study_goals("quake_sched")["map"]
    maps = sorted({k[0] for k in points}, key=lambda x: (x != large, x))
    fig, axes = plt.subplots(len(maps), 4, figsize=(22, 4.8 * len(maps)), squeeze=False)
    for row, m in zip(axes, maps):
        ax_speedup, ax_cpu, ax_busy, ax_jobs = row
        threads = sorted({k[1] for k in points if k[0] == m})
        for mode in mode_order({k[2] for k in points if k[0] == m}):
            series = [(t, points[(m, t, mode)]) for t in threads if (m, t, mode) in points]
            style = {"marker": MARKERS.get(mode, "o"), "label": NAMES.get(mode, mode)}
            gained = [(t, p["speedup"]) for t, p in series if p["speedup"] is not None]
            ax_speedup.plot([t for t, _ in gained], [v for _, v in gained], **style)
            ax_cpu.plot([t for t, _ in series], [p["cpu_ms_per_1000_commands"] for _, p in series],
                        **style)
            # with one thread every worker is always busy: the share says nothing there
            several = [(t, p) for t, p in series if t > 1]
            line, = ax_busy.plot([t for t, _ in several], [p["all_busy_share"] for _, p in several],
                                 **style)
            ax_busy.plot([t for t, _ in several], [p["work_balance"] for _, p in several],
                         color=line.get_color(), linestyle="--", marker=style["marker"],
                         markerfacecolor="none")
        lpt = [(t, points[(m, t, "lpt-none")]) for t in threads if (m, t, "lpt-none") in points]
        if lpt:
            xs = [t for t, _ in lpt]
            ax_jobs.plot(xs, [p["jobs_per_frame"] for _, p in lpt], marker="o", label="jobs per frame")
            ax_jobs.plot(xs, [p["weight_max"] for _, p in lpt], marker="^", label="heaviest job (clients)")
            ax_jobs.plot(xs, [p["weight_mean"] for _, p in lpt], marker="v", label="mean job (clients)")
        # the reference design's published figures (REFERENCE above), drawn for comparison
        ax_jobs.axhline(9, color="grey", linestyle="--", linewidth=0.8)
        ax_jobs.axhline(8, color="grey", linestyle=":", linewidth=0.8)
        ax_jobs.text(threads[0], 9.3, "reference: ~9 jobs of weight 8 (32 players)", fontsize=8,
                     color="grey")
        ax_busy.axhline(0.55, color="green", linestyle="--", linewidth=0.8)
        ax_busy.axhline(0.40, color="grey", linestyle="--", linewidth=0.8)
        ax_busy.text(threads[0], 0.565, "reference lpt 55 %", fontsize=8, color="green")
        ax_busy.text(threads[0], 0.415, "reference static 40 %", fontsize=8, color="grey")
        cores = os.cpu_count() or 2
        ax_speedup.plot(threads, [min(t / threads[0], cores) for t in threads], "k--", linewidth=1,
                        label=f"IDEAL (linear up to {cores} cores)")
        ax_speedup.set_title(f"{m}: commands per second / the mode's own at {threads[0]} thread")
        ax_cpu.set_title(f"{m}: server CPU-ms per 1,000 commands")
        ax_busy.set_title(f"{m}: every worker busy (solid), balance (dashed)")
        ax_jobs.set_title(f"{m}: -sched lpt's jobs")
        ax_busy.set_ylim(0, 1.05)
        for ax in row:
            ax.set_xlabel("server threads")
            ax.set_xticks(threads)
            ax.set_ylim(bottom=0)
            ax.legend(fontsize=8)
    first = rows[0]
    fig.suptitle(f"qwsv -sched lpt vs static: {clients(first)} at speed {first['speed']} "
                 f"(run {first['run']})")
    fig.tight_layout()
    fig.savefig(png, dpi=90)
    print(f"plot-quake-sched: wrote {png}")


