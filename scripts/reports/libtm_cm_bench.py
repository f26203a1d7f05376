"""Report of scripts/libtm-cm-bench: libtm's contention managers (with one speculative
algorithm forced), its adaptive default and a mutex, at 1-64 threads.

From the CSV (one row per run), per workload: the median commits per second and aborts per
commit of every runtime by thread count, and at the highest thread count the goals of
scripts/goals.toml (the best manager keeps its share of its own peak; aborts per commit fall
from immediate to the serialising managers). One plot per workload: commits per second and
aborts per commit against threads, a line per runtime.

CSVs written before the collector kept every run (one row per point with medians and a `runs`
column) are read as they are."""
import os

from reports.common import field, median, note, ordered, read_csv, pyplot, markdown_table
from reports.goals import goals

PROG = "plot-libtm-cm-bench"
REFERENCES = ("adaptive", "mutex")   # the lines the managers are compared with


class Point:
    """One runtime at one workload and thread count: the median commit rate and aborts per
    commit of its runs (aborts None where libtm did not run)."""

    def __init__(self, rows):
        if rows and "runs" in rows[0]:   # the older CSV: medians already
            self.commits_per_s = field(rows[0], "commits_per_s")
            self.aborts_per_commit = field(rows[0], "aborts_per_commit")
            return
        ok = [r for r in rows if r.get("status") == "ok"]
        self.commits_per_s = median(field(r, "ops_per_s") for r in ok)
        self.aborts_per_commit = median(field(r, "aborts") / field(r, "commits")
                                        for r in ok if field(r, "commits"))


class Study:
    def __init__(self, path):
        self.notes, rows = read_csv(path)
        listed = note(self.notes, "runtimes")
        self.runtimes = listed.split(",") if listed else ordered(r["runtime"] for r in rows)
        self.workloads = ordered(r["workload"] for r in rows)
        groups = {}
        for r in rows:
            groups.setdefault((r["workload"], r["runtime"], int(r["threads"])), []).append(r)
        # workload -> runtime -> threads -> Point
        self.data = {}
        for (w, rt, t), rs in groups.items():
            self.data.setdefault(w, {}).setdefault(rt, {})[t] = Point(rs)

    @property
    def managers(self):
        return [rt for rt in self.runtimes if rt.startswith("cm-")]

    def threads(self, workload):
        return sorted({t for points in self.data[workload].values() for t in points})

    def point(self, workload, runtime, threads):
        return self.data.get(workload, {}).get(runtime, {}).get(threads)

    def rate(self, workload, runtime, threads):
        p = self.point(workload, runtime, threads)
        return p.commits_per_s if p else None

    def aborts(self, workload, runtime, threads):
        p = self.point(workload, runtime, threads)
        return p.aborts_per_commit if p else None

    # ---- the goals at the highest thread count -------------------------------------------
    def goal_check(self, workload):
        """None when not judged (too few threads), else a dict: top (threads), best (manager),
        keep (best's share of its peak), immediate (immediate's share), drop (aborts per commit
        of immediate / the fewest of the serialising managers), met."""
        g = goals("libtm_cm_bench")
        threads = self.threads(workload)
        top = threads[-1]
        if top < g["at_threads_min"]:
            return None
        keep = {}
        for rt in self.managers:
            peak = max((self.rate(workload, rt, t) or 0) for t in threads)
            if peak > 0 and self.rate(workload, rt, top) is not None:
                keep[rt] = self.rate(workload, rt, top) / peak
        if not keep:
            return None
        best = max(keep, key=lambda rt: self.rate(workload, rt, top))
        serial = [rt for rt in ("cm-" + m for m in g["serialising_managers"])
                  if self.aborts(workload, rt, top) is not None]
        immediate = self.aborts(workload, "cm-immediate", top)
        drop = None
        if immediate and serial:
            lowest = min(self.aborts(workload, rt, top) for rt in serial)
            drop = immediate / lowest if lowest > 0 else float("inf")
        met = keep[best] >= g["keep_of_peak_min"] and (drop is None or drop >= g["abort_drop_min"])
        return {"top": top, "best": best, "keep": keep[best], "immediate": keep.get("cm-immediate"),
                "drop": drop, "met": met}

    def goal_summary(self):
        """(goal, measured, verdict) over the workloads judged, or None."""
        g = goals("libtm_cm_bench")
        checks = [(w, c) for w, c in ((w, self.goal_check(w)) for w in self.workloads) if c]
        if not checks:
            return None
        met = [w for w, c in checks if c["met"]]
        keeps = [c["keep"] for _, c in checks]
        drops = [c["drop"] for _, c in checks if c["drop"] is not None]
        finite = [d for d in drops if d != float("inf")]
        top = sorted({c["top"] for _, c in checks})
        measured = (f"{len(met)} of {len(checks)} workloads; the best manager keeps "
                    f"{100 * min(keeps):.0f}-{100 * max(keeps):.0f} % of its peak")
        if finite:
            measured += f"; aborts fall {min(finite):.1f}-{max(finite):.1f} x"
        return (f"at {'/'.join(map(str, top))} threads the best manager keeps >= "
                f"{100 * g['keep_of_peak_min']:.0f} % of its peak, and aborts per commit fall >= "
                f"{g['abort_drop_min']:g} x from immediate to {', '.join(g['serialising_managers'])}",
                measured, "met" if len(met) == len(checks) else "not met")

    def table(self):
        out = ["libtm-cm-bench: median commits per second (millions) / aborts per commit"]
        ok_all = True
        for w in self.workloads:
            threads = self.threads(w)
            out += ["", "== %s" % w, "%-10s" % "threads" + "".join("%16s" % t for t in threads)]
            for rt in self.runtimes:
                if rt not in self.data[w]:
                    continue
                cells = []
                for t in threads:
                    c, a = self.rate(w, rt, t), self.aborts(w, rt, t)
                    cells.append("%16s" % (("%.3f" % (c / 1e6) if c is not None else "-") +
                                           (" /%6.3f" % a if a is not None else " /     -")))
                out.append("%-10s" % rt.replace("cm-", "") + "".join(cells))
            check = self.goal_check(w)
            if not check:
                continue
            ok_all &= check["met"]
            out.append("at %d threads: best manager %s keeps %.0f %% of its peak; immediate keeps %s; "
                       "aborts/commit immediate / serialising = %s  [%s]" % (
                           check["top"], check["best"].replace("cm-", ""), 100 * check["keep"],
                           "%.0f %%" % (100 * check["immediate"]) if check["immediate"] is not None else "-",
                           "%.1fx" % check["drop"] if check["drop"] is not None else "-",
                           "ok" if check["met"] else "MISS"))
        out += ["", "all goals met" if ok_all else "some goals missed (MISS above)"]
        return out

    def report(self):
        return "\n".join(self.table()) + "\n"

    # ---- what the READMEs show -----------------------------------------------------------
    def readme_table(self, picks, labels, managers):
        """Markdown rows for the (workload, threads) picks: commits per second (millions) /
        aborts per commit of the managers, then the adaptive default and the mutex."""
        def rate(v):
            return "-" if v is None else f"{v / 1e6:.3f}" if v < 1e6 else f"{v / 1e6:.2f}"

        def aborts(v):
            return "-" if v is None else "0" if round(v, 3) == 0 else f"{v:.3f}".lstrip("0")
        head = ["workload, threads"] + managers + ["adaptive default", "mutex"]
        rows = []
        for w, t in picks:
            rows.append([f"{labels.get(w, w)}, {t}"]
                        + [f"{rate(self.rate(w, 'cm-' + m, t))} / {aborts(self.aborts(w, 'cm-' + m, t))}"
                           for m in managers]
                        + [rate(self.rate(w, rt, t)) for rt in REFERENCES])
        return markdown_table(head, rows)

    # ---- the plots -----------------------------------------------------------------------
    def plot(self, outdir):
        plt = pyplot(PROG)
        from matplotlib.ticker import FuncFormatter
        cores = int(note(self.notes, "cores") or os.cpu_count() or 2)
        algorithm = note(self.notes, "algorithm") or "orec"
        # One colour per manager; gray and black are the reference lines' (adaptive, mutex).
        palette = [c for i, c in enumerate(plt.get_cmap("tab10").colors) if i != 7]
        managers = [rt for rt in self.runtimes if rt not in REFERENCES]
        colour = {rt: palette[i % len(palette)] for i, rt in enumerate(managers)}
        written = []
        for w in self.workloads:
            fig, (top, bottom) = plt.subplots(2, 1, figsize=(9, 8), sharex=True)
            for rt in self.runtimes:
                points = sorted(self.data[w].get(rt, {}).items())
                xs = [t for t, p in points if p.commits_per_s]
                ys = [p.commits_per_s / 1e6 for t, p in points if p.commits_per_s]
                style = dict(marker="o", linewidth=1.4, color=colour.get(rt))
                if rt in REFERENCES:
                    style.update(linestyle="--", linewidth=2.2, color="black" if rt == "mutex" else "tab:gray")
                label = rt.replace("cm-", "")
                if xs:
                    top.plot(xs, ys, label=label, **style)
                ax = [t for t, p in points if p.aborts_per_commit is not None]
                ay = [max(p.aborts_per_commit, 1e-4) for t, p in points if p.aborts_per_commit is not None]
                if ax and rt != "mutex":
                    bottom.plot(ax, ay, label=label, **style)
            top.set_xscale("log", base=2)
            threads = self.threads(w)
            top.set_xticks(threads)
            top.set_xticklabels([str(t) for t in threads])
            top.set_yscale("log")  # the managers sit far below the mutex and the default
            top.set_ylabel("million commits per second (log)")
            plain = FuncFormatter(lambda v, _: "%g" % v)
            top.yaxis.set_major_formatter(plain)
            top.yaxis.set_minor_formatter(plain)
            top.set_title("%s: contention managers, threads on %d cores (managers with LIBTM_ALGO=%s)" %
                          (w, cores, algorithm))
            top.legend(fontsize=8, ncol=3)
            top.grid(True, alpha=0.3)
            bottom.set_yscale("log")
            bottom.set_xlabel("threads")
            bottom.set_ylabel("aborts per commit (none: drawn at 1e-4)")
            bottom.grid(True, alpha=0.3)
            fig.tight_layout()
            path = os.path.join(outdir, "libtm-cm-bench-%s.png" % w)
            fig.savefig(path, dpi=100)
            plt.close(fig)
            written.append(path)
        return written
