"""Report of scripts/memcache-soak (results/memcache-soak.csv): the worker's memory over a long
run of one sync mode, sampled over time while keep-alive clients check every body.

Per run and mode: requests, wrong bodies and errors, hit ratio, the cache's bytes against
MCacheSize, and the worker's RSS: at the start, at the end of the warm-up (the first share of
the requests, scripts/goals.toml), its growth after the warm-up (the peak of the last tenth of
the run minus the peak of the tenth that follows the warm-up, so that a passing high never
decides), the trend after the warm-up (least squares, MB per million requests) and where the
memory is at the end (malloc's heaps, other anonymous memory: APR's allocator and mapped
bodies, thread stacks, files). Then the goals: every body right, RSS flat after the warm-up.
The figure: RSS and its parts against requests, one panel per run and mode."""
import re
import statistics
from collections import defaultdict

from reports.common import number, ratio, read_csv, markdown_table, pyplot
from reports.goals import goals

PROG = "plot-memcache-soak"
MODES = ["lock", "tm"]
PARTS = [("malloc", ("heap_kb", "arenas_kb")), ("other anonymous (APR, mapped bodies)", ("other_anon_kb",)),
         ("stacks", ("stacks_kb",)), ("files", ("file_kb",))]


def mb(kb):
    return None if kb is None else kb / 1024


class Run:
    """The samples of one mode in one run, in time order."""

    def __init__(self, run, mode, rows, note):
        self.run, self.mode, self.note = run, mode, note
        found = re.search(r"(\d+) threads, MCacheSize (\d+)", note)
        self.threads, self.cache_kb = (int(found[1]), int(found[2])) if found else (None, None)
        self.rows = sorted(rows, key=lambda r: number(r["seconds"]))
        self.label = self.rows[0]["label"]
        last = self.rows[-1]
        self.requests = int(number(last["requests"]) or 0)
        self.bad = int(number(last["bad_bodies"]) or 0)
        self.errors = int(number(last["errors"]) or 0)
        hits, misses = number(last["hits"]) or 0, number(last["misses"]) or 0
        self.hit_ratio = ratio(hits, hits + misses)
        self.cache_max = max((number(r["cache_bytes"]) or 0 for r in self.rows), default=0)
        self.evictions = int(number(last["evictions"]) or 0)
        self.seconds = number(last["seconds"])
        share = goals("memcache_soak")["warmup_share"]
        running = [r for r in self.rows if (number(r["requests"]) or 0) < self.requests] or self.rows
        self.warmup_end = share * self.requests
        after = [r for r in running if number(r["requests"]) >= self.warmup_end]
        self.rss_start = mb(number(self.rows[0]["rss_kb"]))
        self.rss_warm = mb(number(after[0]["rss_kb"])) if after else None
        self.rss_peak = mb(max(number(r["rss_kb"]) for r in running))
        self.growth = self.slope = None
        if len(after) >= 4:
            span = self.requests - self.warmup_end
            early = [r for r in after if number(r["requests"]) < self.warmup_end + 0.1 * span] or after[:1]
            late = [r for r in after if number(r["requests"]) >= self.requests - 0.1 * span] or after[-1:]
            self.growth = mb(max(number(r["rss_kb"]) for r in late) - max(number(r["rss_kb"]) for r in early))
            xs = [number(r["requests"]) / 1e6 for r in after]
            ys = [mb(number(r["rss_kb"])) for r in after]
            mean_x, mean_y = statistics.fmean(xs), statistics.fmean(ys)
            var = sum((x - mean_x) ** 2 for x in xs)
            self.slope = ratio(sum((x - mean_x) * (y - mean_y) for x, y in zip(xs, ys)), var)
        end = running[-1]
        self.parts = {name: mb(sum(number(end[c]) or 0 for c in columns)) for name, columns in PARTS}
        self.rss_end = mb(number(end["rss_kb"]))

    def flat(self):
        return self.growth is not None and self.growth <= goals("memcache_soak")["rss_growth_max_mb"]


def load(path):
    """(notes, [Run]) of a memcache-soak CSV, runs in the file's order, modes lock then tm."""
    notes, rows = read_csv(path)
    run_notes = {}
    for n in notes:
        if n.startswith("run "):
            run_id = n.split()[1].rstrip(":")
            run_notes[run_id] = n.split(": ", 1)[1] if ": " in n else n
    groups = defaultdict(list)
    order = []
    for r in rows:
        key = (r["run"], r["mode"])
        if key not in groups:
            order.append(key)
        groups[key].append(r)
    runs_in_order = list(dict.fromkeys(run for run, _ in order))
    order.sort(key=lambda k: (runs_in_order.index(k[0]), MODES.index(k[1]) if k[1] in MODES else 9))
    return notes, [Run(run, mode, groups[(run, mode)], run_notes.get(run, "")) for run, mode in order]


def shown(value, fmt):
    return "-" if value is None else format(value, fmt)


def table(notes, runs):
    g = goals("memcache_soak")
    lines = [f"memcache-soak: {notes[0].split(': ', 1)[-1] if notes else ''}",
             f"warm-up: the first {g['warmup_share']:.0%} of each mode's requests; growth = the RSS peak of "
             "the last tenth of the run after the warm-up minus the peak of its first tenth; trend = "
             "least squares over the samples after the warm-up",
             ""]
    for run in sorted({r.run for r in runs}, key=[r.run for r in runs].index):
        these = [r for r in runs if r.run == run]
        lines.append(f"== run {run}: {these[0].note}")
        head = ["mode", "requests", "bad", "errors", "hit ratio", "cache MB (max)", "evictions",
                "RSS MB start", "after warm-up", "peak", "end", "growth", "trend MB/1M",
                "malloc", "other anon", "stacks", "files"]
        rows = []
        for r in these:
            rows.append([r.mode, str(r.requests), str(r.bad), str(r.errors), shown(r.hit_ratio, ".3f"),
                         shown(r.cache_max / 1048576, ".2f"), str(r.evictions), shown(r.rss_start, ".1f"),
                         shown(r.rss_warm, ".1f"), shown(r.rss_peak, ".1f"), shown(r.rss_end, ".1f"),
                         shown(r.growth, "+.1f"), shown(r.slope, "+.2f")] +
                        [shown(r.parts[name], ".1f") for name, _ in PARTS])
        widths = [max(len(x) for x in col) for col in zip(head, *rows)]
        lines.append("  ".join(h.rjust(w) for h, w in zip(head, widths)))
        lines.extend("  ".join(c.rjust(w) for c, w in zip(row, widths)) for row in rows)
        lines.append("")
    lines.append("Goals (scripts/goals.toml):")
    lines.extend(f"  {goal}: {measured} ({verdict})" for goal, measured, verdict in goal_checks(runs))
    return "\n".join(lines) + "\n"


def judged(runs):
    """What the goals judge: each mode's latest run (a soak may measure its modes in separate
    runs, appended to one CSV)."""
    latest = {}
    for r in runs:
        latest[r.mode] = r
    return sorted(latest.values(), key=lambda r: MODES.index(r.mode) if r.mode in MODES else 9)


def goal_checks(runs):
    g = goals("memcache_soak")
    out = []
    for r in judged(runs):
        out.append((f"{r.mode}: every body the origin's",
                    f"{r.bad} wrong, {r.errors} errors in {r.requests} requests",
                    "met" if r.bad <= g["bad_bodies_max"] and r.errors == 0 else "not met"))
        out.append((f"{r.mode}: RSS grows at most {g['rss_growth_max_mb']} MB after the warm-up",
                    f"{shown(r.growth, '+.1f')} MB ({shown(r.rss_warm, '.1f')} -> {shown(r.rss_end, '.1f')} MB, "
                    f"trend {shown(r.slope, '+.2f')} MB per million requests)",
                    "met" if r.flat() else "not met"))
    return out


def readme_table(runs):
    head = ["mode", "requests", "wrong bodies", "hit ratio", "RSS after warm-up", "peak", "growth after warm-up",
            "trend per 1M requests", "malloc / other anon / stacks / files at the end"]
    rows = [[r.mode, f"{r.requests:,}", str(r.bad), shown(r.hit_ratio, ".3f"), f"{shown(r.rss_warm, '.1f')} MB",
             f"{shown(r.rss_peak, '.1f')} MB", f"{shown(r.growth, '+.1f')} MB", f"{shown(r.slope, '+.2f')} MB",
             " / ".join(shown(r.parts[name], ".1f") for name, _ in PARTS) + " MB"]
            for r in judged(runs)]
    return markdown_table(head, rows)


def sizes_table(runs):
    """Markdown rows of runs with different settings: what the worker holds beside the cache."""
    head = ["MCacheSize", "threads", "environment, httpd.conf", "mode", "cached (max)", "RSS after warm-up",
            "peak", "peak - cached", "growth after warm-up"]
    rows = [[f"{r.cache_kb // 1024} MB" if r.cache_kb else "-", str(r.threads or "-"), r.label, r.mode,
             f"{r.cache_max / 1048576:.1f} MB", f"{shown(r.rss_warm, '.1f')} MB", f"{shown(r.rss_peak, '.1f')} MB",
             f"{shown(r.rss_peak - r.cache_max / 1048576 if r.rss_peak is not None else None, '.1f')} MB",
             f"{shown(r.growth, '+.1f')} MB"] for r in runs]
    return markdown_table(head, rows)


def plot(runs, png):
    plt = pyplot(PROG)
    fig, axes = plt.subplots(len(runs), 1, figsize=(11, 3.6 * len(runs)), squeeze=False)
    for ax, r in zip(axes[:, 0], runs):
        xs = [number(row["requests"]) / 1e3 for row in r.rows]
        parts = [[mb(sum(number(row[c]) or 0 for c in columns)) for row in r.rows] for _, columns in PARTS]
        ax.stackplot(xs, parts, labels=[name for name, _ in PARTS], alpha=0.45)
        ax.plot(xs, [mb(number(row["rss_kb"])) for row in r.rows], color="black", label="RSS")
        ax.plot(xs, [(number(row["cache_bytes"]) or 0) / 1048576 for row in r.rows], color="tab:red",
                linestyle="--", label="cached bytes")
        ax.axvline(r.warmup_end / 1e3, color="grey", linestyle=":", linewidth=1)
        ax.set_title(f"run {r.run}, MCacheSync {r.mode} ({r.label}): growth after warm-up "
                     f"{shown(r.growth, '+.1f')} MB", fontsize=9)
        ax.set_xlabel("requests (thousands)")
        ax.set_ylabel("MB")
        ax.set_ylim(bottom=0)
        ax.legend(fontsize=7, loc="lower right")
    fig.tight_layout()
    fig.savefig(png, dpi=80)
    print(f"{PROG}: wrote {png}")


def load_and_report(path):
    notes, runs = load(path)
    return notes, runs, table(notes, runs)
