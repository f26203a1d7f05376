"""Report of scripts/libtm-bench: throughput of libtm, GCC's libitm, a mutex and the
uninstrumented builds on the intset, bank and travel benchmarks.

From the CSV (one row per run: a configuration, a runtime, a round), for every configuration:
the median ops/s of each runtime, the ratios libtm/libitm and libtm/max(libitm, mutex) with
the goal verdict, the mode libtm's adaptive default ran most, the CPU time per operation of
each forced algorithm relative to the sequential build at 1 thread, and the least CPU share a
runtime got; then the goals over all rows (scripts/goals.toml). The plot: throughput against
threads, a panel per structure and update rate, a line per runtime. Runtimes named R+MODE
(--size-counter: intset's shared size kept flat, in a closed nested or in an open transaction)
add a table of closed/flat and open/flat and aborts per operation. A --policy run (the note
'study: policy') is judged on time at 2 threads / time at 1 per workload and runtime instead,
with a bar plot of it.

CSVs written before the collector kept every run (one row per configuration and runtime, with
medians and a `runs` column) are read as they are."""
import os

from reports.common import (field, median, ordered, ratio, reaches, shown, note, read_csv,
                            pyplot, markdown_table)
from reports.goals import goals

PROG = "plot-libtm-bench"
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
# RUNTIME+MODE (--size-counter): the runtime's colour, a marker and line style per mode.
SIZE_COUNTER_STYLE = {"flat": ("o", "-"), "closed": ("s", "--"), "open": ("^", ":")}


def style(runtime):
    """(colour, marker, line style) of a runtime's line in the plot."""
    base, _, mode = runtime.partition("+")
    colour, marker, line = STYLE.get(base, ("tab:purple", "x", "-"))
    return (colour,) + SIZE_COUNTER_STYLE[mode] if mode in SIZE_COUNTER_STYLE else (colour, marker, line)


def main_mode(commits_by_mode):
    """From libtm's 'htm:0.0 orec:93.1 norec:6.9 serial:0.0' (share of commits per mode),
    the mode with the most commits and its share: 'orec:93' ('' when none committed)."""
    best, mode = 0.0, ""
    for item in (commits_by_mode or "").split():
        name, _, share = item.partition(":")
        value = float(share or 0)
        if value > best:
            best, mode = value, name
    return f"{mode}:{best:.0f}" if mode else ""


def median_mode(modes):
    """The middle one of a runtime's per-round modes, ordered by their share."""
    modes = sorted((m for m in modes if m), key=lambda m: (float(m.partition(":")[2] or 0), m))
    return modes[(len(modes) + 1) // 2 - 1] if modes else None


def mops(ops_per_s):
    """Millions of operations per second, as the tables print them."""
    return shown(ops_per_s if ops_per_s is None else ops_per_s / 1e6, ".2f")


def span(values):
    low, high = f"{min(values):.2f}", f"{max(values):.2f}"
    return low if low == high else f"{low}-{high}"


def thread_span(configs):
    threads = sorted({c.threads for c in configs})
    if len(threads) == 1:
        return f"{threads[0]} thread{'s' if threads[0] > 1 else ''}"
    return f"{threads[0]}-{threads[-1]} threads"


class Cell:
    """One runtime at one configuration: its runs."""

    def __init__(self):
        self.ops_per_s, self.cpu_rates, self.shares, self.modes = [], [], [], []
        self.aborts_per_commit = []
        self.by_round = {}  # round -> ops/s

    def add_run(self, row, threads, cores):
        if row.get("status") != "ok" or field(row, "ops_per_s") is None:
            return   # a failed run (the collector said FAIL) measured nothing
        self.ops_per_s.append(field(row, "ops_per_s"))
        if row.get("round"):
            self.by_round[row["round"]] = field(row, "ops_per_s")
        cpu_s, seconds, ops = field(row, "cpu_s"), field(row, "seconds"), field(row, "ops")
        if cpu_s:
            self.cpu_rates.append(ops / cpu_s)
        if cpu_s is not None and seconds:
            self.shares.append(cpu_s / (seconds * min(threads, cores)))
        if row.get("commits_by_mode"):
            self.modes.append(main_mode(row["commits_by_mode"]))
        if field(row, "commits"):
            self.aborts_per_commit.append((field(row, "aborts") or 0) / field(row, "commits"))

    def add_summary(self, row):
        """A row of the older CSV: the medians of its runs."""
        for values, key in ((self.ops_per_s, "ops_per_s"), (self.cpu_rates, "ops_per_cpu_s"),
                            (self.shares, "cpu_share"), (self.aborts_per_commit, "aborts_per_commit")):
            if field(row, key) is not None:
                values.append(field(row, key))
        self.modes = [m for m in row.get("libtm_mode", "").split(";") if m]

    @property
    def ops(self):
        return median(self.ops_per_s)

    @property
    def cpu_rate(self):
        return median(self.cpu_rates)

    @property
    def share(self):
        return median(self.shares)

    @property
    def aborts(self):
        return median(self.aborts_per_commit)


class Configuration:
    """A structure x update rate x thread count, with every runtime's cell and the values of
    its table row."""

    def __init__(self, structure, update, threads):
        self.structure, self.update, self.threads = structure, update, threads
        self.size = ""
        self.cells = {}

    def median(self, runtime):
        cell = self.cells.get(runtime)
        return cell.ops if cell else None

    def cpu_rate(self, runtime):
        cell = self.cells.get(runtime)
        return cell.cpu_rate if cell else None

    def best_base(self):
        """max(libitm, mutex) of the medians."""
        present = [v for v in (self.median("libitm"), self.median("mutex")) if v is not None]
        return max(present) if present else None

    def tm_vs_libitm(self):
        return ratio(self.median("libtm"), self.median("libitm"))

    def tm_vs_best(self):
        return ratio(self.median("libtm"), self.best_base())

    def best_goal(self):
        g = goals("libtm_bench")
        few = self.threads <= g["tm_vs_best_min_up_to_threads"]
        return g["tm_vs_best_min_few_threads"] if few else g["tm_vs_best_min_many_threads"]

    def verdict(self):
        """'ok', 'MISS', or 'n/a' without libtm or a base to compare with."""
        tm_best = self.tm_vs_best()
        if self.median("libtm") is None or tm_best is None:
            return "n/a"
        return "ok" if reaches(tm_best, self.best_goal(), 3) else "MISS"

    def chosen_mode(self):
        cell = self.cells.get("libtm")
        return median_mode(cell.modes) if cell else None

    def cost(self, runtime):
        """CPU time per operation of runtime relative to seq, at 1 thread."""
        if self.threads != 1:
            return None
        return ratio(self.cpu_rate("seq"), self.cpu_rate(runtime))

    def least_share(self):
        """At 1 thread, the least CPU share any runtime got (a busy machine shows here)."""
        if self.threads != 1:
            return None
        shares = [c.share for c in self.cells.values() if c.share is not None]
        return min(shares) if shares else None


class Study:
    """A libtm-bench CSV: its notes, runtimes in their order, configurations in theirs."""

    def __init__(self, path):
        self.notes, rows = read_csv(path)
        listed = note(self.notes, "runtimes")
        self.runtimes = listed.split(",") if listed else ordered(r["runtime"] for r in rows)
        cores = int(note(self.notes, "cores") or os.cpu_count() or 1)
        self.configs = {}
        for r in rows:
            config = self.configuration(r)
            cell = config.cells.setdefault(r["runtime"], Cell())
            if "runs" in r:
                cell.add_summary(r)
            else:
                cell.add_run(r, config.threads, cores)
            if r.get("size"):
                config.size = r["size"]

    def configuration(self, row):
        """The row's configuration. A failed run of bank or travel, which reports no update
        rate, joins the one of its structure and threads."""
        structure, update, threads = row["structure"], row["update"], int(row["threads"])
        key = (structure, update, threads)
        if key not in self.configs and not update.isdigit():
            for (s, _, t), config in self.configs.items():
                if (s, t) == (structure, threads):
                    return config
        return self.configs.setdefault(key, Configuration(structure, update, threads))

    @property
    def algorithms(self):
        """libtm's speculative algorithms that ran (libtm-ALGO runtimes)."""
        return [r[len("libtm-"):] for r in self.runtimes if r.startswith("libtm-")]

    def cost_runtimes(self):
        return [(f"{a}/seq", f"libtm-{a}") for a in self.algorithms] + [("mlwt/seq", "libitm-mlwt")]

    def has_libtm(self):
        return any(r.startswith("libtm") for r in self.runtimes)

    # ---- the table -----------------------------------------------------------------------
    def table(self):
        out = [f"libtm-bench: median ops/s in millions ({note(self.notes, 'rounds')} round(s) of "
               f"{note(self.notes, 'duration_s')} s, interleaved)",
               f"machine: {note(self.notes, 'machine')}"]
        head = "%-8s %4s %4s" % ("structure", "upd", "thr")
        head += "".join(" %11s" % r for r in self.runtimes)
        cost_head = "".join(" %8s" % name for name, _ in self.cost_runtimes())
        head += " | %6s %7s %4s | %-10s |%s | %4s" % ("tm/itm", "tm/best", "goal", "mode", cost_head, "cpu")
        out.append(head)
        for c in self.configs.values():
            line = "%-8s %4s %4s" % (c.structure, c.update, c.threads)
            line += "".join(" %11s" % mops(c.median(r)) for r in self.runtimes)
            costs = "".join(" %8s" % shown(c.cost(r), ".3f") for _, r in self.cost_runtimes())
            line += " | %6s %7s %4s | %-10s |%s | %4s" % (
                shown(c.tm_vs_libitm(), ".3f"), shown(c.tm_vs_best(), ".3f"), c.verdict(),
                c.chosen_mode() or "-", costs, shown(c.least_share(), ".2f"))
            out.append(line)
        g = goals("libtm_bench")
        few = g["tm_vs_best_min_up_to_threads"]
        above = sorted(c.threads for c in self.configs.values() if c.threads > few)
        many = f"at {above[0]}+" if above else f"above {few}"
        out += [
            "tm/itm = libtm / libitm default; tm/best = libtm / max(libitm, mutex) (goal >= "
            f"{g['tm_vs_best_min_few_threads']:.2f} at 1-{few}",
            f"threads, >= {g['tm_vs_best_min_many_threads']:.2f} {many}); mode = what libtm's "
            "adaptive default ran most (share of commits, %);",
            "ALGO/seq = CPU time per operation of libtm-ALGO (mlwt: GCC's ml_wt) relative to the seq",
            f"build at 1 thread (goal: <= {g['instrumentation_max']} on {g['instrumentation_structure']}; "
            "CPU time, not wall time, so that a busy"]
        out += [
            "machine does not skew it). floor = the -tm build on a runtime that does nothing: what GCC's",
            "code generation alone costs a transaction, which no runtime beats. cpu = at 1 thread, the",
            "least CPU share of any runtime (1.00 = it had its core); well below 1 means a busy machine",
            "and a noisy row."] if "floor" in self.runtimes else [
            "machine does not skew it). cpu = at 1 thread, the least CPU share of any runtime (1.00 = it had",
            "its core); well below 1 means a busy machine and a noisy row."]
        if not self.has_libtm():
            out.append("libtm is not built: no libtm columns, goal = n/a.")
        return out

    # ---- the goals over all rows ---------------------------------------------------------
    def goal_rows(self):
        """The configurations the row goals count (scripts/goals.toml: intset and bank)."""
        judged = goals("libtm_bench")["row_goal_structures"]
        return [c for c in self.configs.values() if c.structure in judged]

    def goal_checks(self):
        """[(goal, measured, met)] over the rows (met: True or False)."""
        g = goals("libtm_bench")
        few = g["tm_vs_best_min_up_to_threads"]
        rows = self.goal_rows()
        if not rows or not self.has_libtm():
            return []
        groups = [[c for c in rows if c.threads <= few], [c for c in rows if c.threads > few]]
        checks = []

        parts, all_met = [], True
        for configs in groups:
            values = [v for v in (c.tm_vs_libitm() for c in configs) if v is not None]
            if values:
                met = [v for v in values if reaches(v, g["tm_vs_libitm_min"], 3)]
                parts.append(f"{len(met)} of {len(values)} rows at {thread_span(configs)} ({span(values)} x)")
                all_met &= len(met) == len(values)
        checks.append((f"libtm >= GCC's libitm (tm/itm >= {g['tm_vs_libitm_min']:.2f})",
                       ", ".join(parts), all_met))

        parts, all_met = [], True
        for configs in groups:
            judged = [c for c in configs if c.verdict() != "n/a"]
            if judged:
                met = [c for c in judged if c.verdict() == "ok"]
                parts.append(f"{len(met)} of {len(judged)} rows at {thread_span(judged)}")
                all_met &= len(met) == len(judged)
        one = [c for c in rows if c.threads == 1 and c.verdict() != "n/a"]
        missed = [c.tm_vs_best() for c in one if c.verdict() == "MISS"]
        if missed:
            parts.append(f"not met at 1 thread in {len(missed)} of {len(one)} rows ({span(missed)} x)")
        checks.append((f"libtm >= max(libitm, mutex) (tm/best >= {g['tm_vs_best_min_few_threads']:.2f} "
                       f"at 1-{few} threads, >= {g['tm_vs_best_min_many_threads']:.2f} above)",
                       "; ".join(parts), all_met))

        goal = g["adaptive_vs_best_algorithm_min"]
        values = [v for v in (self.adaptive_vs_best_algorithm(c) for c in rows) if v is not None]
        if values:
            misses = [v for v in values if not reaches(v, goal, 3)]
            checks.append((f"the adaptive default >= {goal:.2f} x the faster of "
                           f"{' and '.join(self.algorithms)} forced, from 2 threads",
                           f"{len(values) - len(misses)} of {len(values)} rows"
                           + (f" (misses {span(misses)} x)" if misses else ""), not misses))

        structure, most = g["instrumentation_structure"], g["instrumentation_max"]
        ones = [c for c in self.configs.values() if c.structure == structure and c.threads == 1]
        costs = {a: [c.cost(f"libtm-{a}") for c in ones] for a in self.algorithms}
        costs = {a: v for a, v in costs.items() if None not in v}
        if costs and ones:
            values = [v for vs in costs.values() for v in vs]
            met = [v for v in values if round(v, 3) <= most]
            per_algorithm = ", ".join(f"{a} " + " / ".join(f"{v:.2f}" for v in vs) for a, vs in costs.items())
            checks.append((f"instrumentation: CPU time per operation / seq, {structure}, 1 thread (<= {most})",
                           f"{per_algorithm} at {' / '.join(c.update for c in ones)} % updates: "
                           f"{len(met)} of {len(values)}", len(met) == len(values)))

        runtime, goal = g["travel_scaling_runtime"], g["travel_scaling_min"]
        travel = {c.threads: c for c in self.configs.values() if c.structure == "travel"}
        if 1 in travel and 2 in travel:
            scale = {r: ratio(travel[2].median(r), travel[1].median(r)) for r in self.runtimes}
            scale = {r: v for r, v in scale.items() if v is not None}
            if runtime in scale:
                one, two = travel[1].median(runtime) / 1e6, travel[2].median(runtime) / 1e6
                others = "; ".join(f"{r} {v:.2f}" for r, v in scale.items() if r != runtime)
                checks.append((f"travel scales: {runtime} at 2 threads / 1 thread >= {goal}",
                               f"{scale[runtime]:.2f} ({one:.3f} -> {two:.3f} M/s); {others}",
                               reaches(scale[runtime], goal, 3)))
        return checks

    def adaptive_vs_best_algorithm(self, c):
        """libtm's default / the faster of its forced algorithms, from 2 threads on."""
        forced = [v for v in (c.median(f"libtm-{a}") for a in self.algorithms) if v is not None]
        return ratio(c.median("libtm"), max(forced)) if c.threads > 1 and forced else None

    def goals_section(self):
        checks = self.goal_checks()
        if not checks:
            return []
        judged = ", ".join(goals("libtm_bench")["row_goal_structures"])
        out = ["", f"Goals (scripts/goals.toml; the row goals count the {judged} rows):"]
        for goal, measured, met in checks:
            out.append(f"  {goal}: {measured} [{'met' if met else 'NOT met'}]")
        return out

    # ---- the size counter (R+MODE runtimes) ----------------------------------------------
    def size_counter_section(self):
        """closed/flat and open/flat per runtime and configuration, and aborts per commit."""
        bases = ordered(r.partition("+")[0] for r in self.runtimes if r.endswith("+flat"))
        if not bases:
            return []
        out = ["", "size counter: throughput ratios to flat and aborts per commit",
               "%-9s %3s %3s %-12s %9s %11s %9s %10s %8s %8s" % (
                   "structure", "upd", "thr", "runtime", "flat M/s", "closed/flat", "open/flat",
                   "ab/c flat", "closed", "open")]
        for c in self.configs.values():
            for base in bases:
                flat = c.median(base + "+flat")
                if flat is None:
                    continue
                cells = {m: c.cells.get(f"{base}+{m}") for m in ("flat", "closed", "open")}
                rel = {m: shown(ratio(c.median(f"{base}+{m}"), flat), ".2f") for m in ("closed", "open")}
                ab = {m: shown(cell.aborts if cell else None, ".4f") for m, cell in cells.items()}
                out.append("%-9s %3s %3s %-12s %9s %11s %9s %10s %8s %8s" % (
                    c.structure, c.update, c.threads, base, mops(flat), rel["closed"], rel["open"],
                    ab["flat"], ab["closed"], ab["open"]))
        return out

    # ---- the policy: 2 threads against 1 (--policy) -------------------------------------
    def is_policy(self):
        return note(self.notes, "study") == "policy"

    def policy_goal(self, structure):
        g = goals("libtm_bench")
        return g["policy_travel_time_ratio_max"] if structure == "travel" else g["policy_time_ratio_max"]

    def policy_rows(self):
        """Per structure and runtime measured at 1 and 2 threads: a dict with the medians
        (ops/s), the time ratio 2 threads / 1 thread of the medians (the same work, so the
        inverse of the throughput ratio), the ratios of each round's pair, and the mode the
        adaptive default ran most at 2 threads."""
        rows = []
        structures = ordered(c.structure for c in self.configs.values())
        for structure in [s for s in STRUCTURE_ORDER if s in structures]:
            by_threads = {c.threads: c for c in self.configs.values() if c.structure == structure}
            if 1 not in by_threads or 2 not in by_threads:
                continue
            one, two = by_threads[1], by_threads[2]
            for runtime in self.runtimes:
                a, b = one.cells.get(runtime), two.cells.get(runtime)
                if not a or not b or a.ops is None or b.ops is None:
                    continue
                rounds = [ratio(a.by_round[r], b.by_round[r]) for r in a.by_round if r in b.by_round]
                rows.append({"structure": structure, "runtime": runtime, "one": a.ops, "two": b.ops,
                             "time_ratio": ratio(a.ops, b.ops),
                             "rounds": [v for v in rounds if v is not None],
                             "mode": two.chosen_mode() if runtime == "libtm" else None})
        return rows

    def policy_verdict(self, row):
        """'met' (the medians' ratio within the goal), 'within noise' (at most
        policy_noise above it) or 'not met'."""
        goal = self.policy_goal(row["structure"])
        if round(row["time_ratio"], 2) <= goal:
            return "met"
        if round(row["time_ratio"], 2) <= goal + goals("libtm_bench")["policy_noise"]:
            return "within noise"
        return "not met"

    def policy_section(self):
        rows = self.policy_rows()
        out = ["", "Time at 2 threads / time at 1 thread (the same work; medians of the rounds; range =",
               "the ratios of each round's pair, which ran back to back). Goal for libtm's adaptive",
               "default (scripts/goals.toml): at most %.2f, on travel %.2f; up to %.2f above is" % (
                   goals("libtm_bench")["policy_time_ratio_max"],
                   goals("libtm_bench")["policy_travel_time_ratio_max"],
                   goals("libtm_bench")["policy_noise"]),
               "within noise.",
               "%-9s %-10s %10s %10s %9s %-11s %-10s %s" % (
                   "structure", "runtime", "1 thr M/s", "2 thr M/s", "time 2/1", "range", "mode @2", "goal")]
        for r in rows:
            out.append(("%-9s %-10s %10s %10s %9s %-11s %-10s %s" % (
                r["structure"], r["runtime"], mops(r["one"]), mops(r["two"]), shown(r["time_ratio"], ".2f"),
                span(r["rounds"]) if r["rounds"] else "-", r["mode"] or "-",
                self.policy_verdict(r) if r["runtime"] == "libtm" else "")).rstrip())
        return out

    def policy_readme_table(self):
        """Markdown: per workload, libtm's default and GCC's libitm at 1 and 2 threads."""
        rows = self.policy_rows()
        runtimes = [r for r in ("libtm", "libitm") if any(x["runtime"] == r for x in rows)]
        head = ["workload"]
        for runtime in runtimes:
            head += [f"{runtime} 1 thr", f"{runtime} 2 thr", f"{runtime} time 2/1"]
        head += ["libtm mode @2", "goal (libtm)"]
        out = []
        for structure in ordered(r["structure"] for r in rows):
            cells = {r["runtime"]: r for r in rows if r["structure"] == structure}
            line = [structure]
            for runtime in runtimes:
                r = cells.get(runtime)
                if r:
                    line += [mops(r["one"]), mops(r["two"]), f"{r['time_ratio']:.2f} ({span(r['rounds'])})"]
                else:
                    line += ["-"] * 3
            tm = cells.get("libtm")
            if tm:
                line += [tm["mode"] or "-", f"<= {self.policy_goal(structure):.2f}: {self.policy_verdict(tm)}"]
            else:
                line += ["-", "-"]
            out.append(line)
        return markdown_table(head, out)

    def policy_plot(self, png_path):
        plt = pyplot(PROG)
        rows = self.policy_rows()
        structures = ordered(r["structure"] for r in rows)
        runtimes = ordered(r["runtime"] for r in rows)
        fig, ax = plt.subplots(figsize=(max(5.0, 1.9 * len(structures) + 1.5), 3.8))
        width = 0.8 / max(len(runtimes), 1)
        for k, runtime in enumerate(runtimes):
            xs, ys, low, high = [], [], [], []
            for i, structure in enumerate(structures):
                r = next((x for x in rows if x["structure"] == structure and x["runtime"] == runtime), None)
                if r is None:
                    continue
                xs.append(i + (k - (len(runtimes) - 1) / 2) * width)
                ys.append(r["time_ratio"])
                rounds = r["rounds"] or [r["time_ratio"]]
                low.append(max(r["time_ratio"] - min(rounds), 0))
                high.append(max(max(rounds) - r["time_ratio"], 0))
            ax.bar(xs, ys, width, yerr=[low, high], capsize=3, color=style(runtime)[0], label=runtime)
        for i, structure in enumerate(structures):
            goal = self.policy_goal(structure)
            ax.plot([i - 0.45, i + 0.45], [goal, goal], color="black", linestyle="--", linewidth=0.9)
        ax.axhline(1.0, color="gray", linewidth=0.6)
        ax.set_xticks(range(len(structures)))
        ax.set_xticklabels(structures)
        ax.set_ylabel("time at 2 threads / at 1")
        ax.set_ylim(bottom=0)
        ax.grid(True, axis="y", alpha=0.3)
        ax.legend(fontsize=8, loc="best")
        ax.set_title("libtm-bench --policy: a second thread against the 1-thread run\n"
                     "(medians; bars span the rounds; dashed: libtm's goal)", fontsize=10)
        fig.tight_layout()
        fig.savefig(png_path, dpi=100)

    def report(self):
        if self.is_policy():
            return "\n".join(self.table() + self.policy_section()) + "\n"
        if self.runtimes and all("+" in r for r in self.runtimes):
            # --size-counter: the ratios are the study; the goals are libtm-bench's own rows'.
            head = self.table()[:2]
            return "\n".join(head + self.size_counter_section()[1:]) + "\n"
        return "\n".join(self.table() + self.goals_section() + self.size_counter_section()) + "\n"

    # ---- what the READMEs show -----------------------------------------------------------
    def readme_table(self, picks):
        """Markdown rows of the configurations picked as (structure, update, threads)."""
        names = {"list": "sorted list"}
        shown_runtimes = [r for r in self.runtimes if r.startswith("libtm-")]
        shown_runtimes += [r for r in ("libitm", "mutex", "floor") if r in self.runtimes]
        head = (["structure, updates", "threads", "libtm"] + [r.replace("libtm-", "") for r in shown_runtimes]
                + ["tm/best", "mode"])
        rows = []
        for structure, update, threads in picks:
            c = self.configs[(structure, str(update), threads)]
            size = int(c.size)
            size = f"{size // 1024}k" if size % 1024 == 0 else str(size)
            label = structure if structure in ("bank", "travel", "genome", "graph") else \
                f"{names.get(structure, structure)} {size} {c.update} %"
            rows.append([label, str(threads), f"**{mops(c.median('libtm'))}**"]
                        + [mops(c.median(r)) for r in shown_runtimes]
                        + [shown(c.tm_vs_best(), ".2f"), c.chosen_mode() or "-"])
        return markdown_table(head, rows)

    # ---- the plot ------------------------------------------------------------------------
    def plot(self, png_path):
        plt = pyplot(PROG)
        series = {}  # (structure, update) -> runtime -> [(threads, ops/s)]
        for c in self.configs.values():
            for runtime, cell in c.cells.items():
                if cell.ops is not None:
                    series.setdefault((c.structure, int(c.update)), {}).setdefault(runtime, []).append(
                        (c.threads, cell.ops))
        structures = [s for s in STRUCTURE_ORDER if any(k[0] == s for k in series)]
        columns = max(len([k for k in series if k[0] == s]) for s in structures)
        fig, axes = plt.subplots(len(structures), columns, squeeze=False,
                                 figsize=(max(4.2 * columns, 6.0), 3.2 * len(structures) + 0.4))
        runtimes_seen = []
        for r, structure in enumerate(structures):
            keys = sorted(k for k in series if k[0] == structure)
            for col in range(columns):
                ax = axes[r][col]
                if col >= len(keys):
                    ax.set_visible(False)
                    continue
                _, update = keys[col]
                threads_all = set()
                for runtime, points in series[keys[col]].items():
                    points.sort()
                    xs = [p[0] for p in points]
                    ys = [p[1] / 1e6 for p in points]
                    threads_all.update(xs)
                    colour, marker, line = style(runtime)
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
        # One legend, in the first panel: a figure-level one collides with the title on narrow plots.
        handles = []
        for runtime in runtimes_seen:
            colour, marker, line = style(runtime)
            handles.append(plt.Line2D([], [], color=colour, marker=marker, linestyle=line or "None",
                                      label=runtime))
        axes[0][0].legend(handles=handles, fontsize=7, loc="best", framealpha=0.8)
        fig.suptitle("libtm-bench: median throughput (seq = uninstrumented build, floor = the tm build "
                     "on a runtime that does nothing; both 1 thread)", fontsize=10)
        fig.tight_layout(rect=(0, 0, 1, 1 - 0.35 / fig.get_figheight()))  # room for the title
        fig.savefig(png_path, dpi=100)
