"""Report of scripts/quake-bench --qc-cost (results/quake-qc.csv): QuakeWorld's own game (id's
qwprogs.dat) on mvdsv -progtype 0 and on qwsv, the same recorded fight replayed in real time.

The server's CPU per 1,000 moves acknowledged to the bots (the same count on both servers: qwsv's
own command count also holds the replays of lost packets), medians over the rounds, of mvdsv and
of qwsv at 1 thread in LOCK and STM; libtm's statistics of qwsv at 2 threads; the QuakeC
functions the fights reached (the file qwsv -qcfunctions wrote); the goals of
scripts/goals.toml. The figure: CPU per 1,000 moves by server (each round a dot), and the abort
rates at 2 threads beside the paper's."""
from reports.common import field, median, ratio, shown, markdown_table, pyplot
from reports.goals import goals as study_goals, paper_abort_pct

PROG = "plot-quake-qc"
ONE_THREAD = [("mvdsv", "none", "mvdsv -progtype 0"), ("qwsv", "lock", "qwsv -sync lock"),
              ("qwsv", "stm", "qwsv -sync stm")]
TWO_THREADS = [("stm", "stm (libtm default)"), ("stm-orec", "stm (LIBTM_ALGO=orec)")]


def pick(rows, server, threads, mode):
    return [r for r in rows if r["server"] == server and r["threads"] == str(threads)
            and r["mode"] == mode]


def cpu_per_move(row):
    """Server CPU ms per 1,000 acknowledged moves of one run, or None."""
    cpu, acked = field(row, "server_cpu_s"), field(row, "acked")
    return ratio(None if cpu is None else cpu * 1e6, acked)


def functions(path):
    """(reached, never): the QuakeC functions of a -qcfunctions file ("NAME CALLS" or
    "NAME never" per line)."""
    reached, never = [], []
    with open(path) as f:
        for line in f:
            name, _, calls = line.strip().rpartition(" ")
            if name:
                (never if calls == "never" else reached).append(name)
    return reached, sorted(never)


class Report:
    def __init__(self, rows, functions_path=None):
        self.rows = rows
        self.run = rows[0]["run"]
        self.first = rows[0]
        self.cpu = {label: median(cpu_per_move(r) for r in pick(rows, server, 1, mode))
                    for server, mode, label in ONE_THREAD}
        self.rounds = len(pick(rows, "qwsv", 1, "lock"))
        self.reached, self.never = functions(functions_path) if functions_path else (None, None)

    def lock_vs_mvdsv(self):
        return ratio(self.cpu["qwsv -sync lock"], self.cpu["mvdsv -progtype 0"])

    def stm_vs_lock(self):
        return ratio(self.cpu["qwsv -sync stm"], self.cpu["qwsv -sync lock"])

    def ratio_notes(self):
        """{label: the ratio its goal names} of the 1-thread rows that have one."""
        return {"qwsv -sync lock": shown(self.lock_vs_mvdsv(), ".2f") + " x mvdsv",
                "qwsv -sync stm": shown(self.stm_vs_lock(), ".2f") + " x lock"}

    def two_threads(self):
        """[(label, row)] of the 2-thread runs with libtm's statistics."""
        return [(label, r) for mode, label in TWO_THREADS for r in pick(self.rows, "qwsv", 2, mode)
                if r.get("commits")]

    def goal_checks(self):
        """[(goal, measured, met)] of scripts/goals.toml's [quake_qc]."""
        g = study_goals("quake_qc")
        paper = paper_abort_pct()[2]
        checks = []
        lock, stm = self.lock_vs_mvdsv(), self.stm_vs_lock()
        checks.append((f"qwsv LOCK CPU per move <= {g['lock_vs_mvdsv_cpu_max']} x mvdsv's, 1 thread",
                       shown(lock, ".2f") + " x",
                       lock is not None and round(lock, 2) <= g["lock_vs_mvdsv_cpu_max"]))
        checks.append((f"STM <= {g['stm_vs_lock_cpu_max']} x LOCK CPU per move, 1 thread",
                       shown(stm, ".2f") + " x",
                       stm is not None and round(stm, 2) <= g["stm_vs_lock_cpu_max"]))
        for label, r in self.two_threads():
            pct = field(r, "abort_pct")
            checks.append((f"aborts at 2 threads <= the paper's {paper} %, {label}",
                           shown(pct, ".2f") + " %", pct is not None and round(pct, 2) <= paper))
        return checks

    def text(self):
        f = self.first
        out = [f"QuakeWorld's own game (id's qwprogs.dat): run {self.run}, map {f['map']}, trace "
               f"{f['trace']}, {f['bots']} bots at speed {f['speed']}, {f['duration_s']} s per run",
               f"machine: {f.get('machine', '?')}", "",
               f"server CPU ms per 1,000 moves acknowledged to the bots (median of {self.rounds} "
               "rounds, 1 thread)"]
        notes = self.ratio_notes()
        for _, _, label in ONE_THREAD:
            out.append(f"  {label:<22} {shown(self.cpu[label], '8.1f'):>8}   {notes.get(label, '')}".rstrip())
        out += ["", "qwsv 2 threads, libtm's statistics"]
        for label, r in self.two_threads():
            out.append(f"  {label:<24} commits {r['commits']:>8}  aborts {r['aborts']:>6} "
                       f"({r['abort_pct']} %)  serial {r['serial']}  irrevocable {r['irrevocable']}")
        out += ["", "goals (scripts/goals.toml)"]
        out += [f"  {goal}: {measured} ({'met' if met else 'not met'})"
                for goal, measured, met in self.goal_checks()]
        if self.reached is not None:
            out += ["", f"QuakeC functions reached: {len(self.reached)} of "
                        f"{len(self.reached) + len(self.never)} (builtins not counted); never "
                        f"reached ({len(self.never)}):"]
            line = " "
            for name in self.never:
                if len(line) + len(name) > 96:
                    out.append(line)
                    line = " "
                line += " " + name
            if line.strip():
                out.append(line)
        return "\n".join(out) + "\n"

    def readme_table(self):
        notes = self.ratio_notes()
        rows = [[label, shown(self.cpu[label], ".1f"), notes.get(label, "")]
                for _, _, label in ONE_THREAD]
        for label, r in self.two_threads():
            rows.append([f"qwsv 2 threads, {label}", "", f"aborts {r['abort_pct']} %"])
        return markdown_table(["server (id's qwprogs.dat)", "CPU ms / 1,000 moves", ""], rows)

    def plot(self, png):
        plt = pyplot(PROG)
        fig, (ax_cpu, ax_abort) = plt.subplots(1, 2, figsize=(11, 4.5),
                                               gridspec_kw={"width_ratios": [3, 2]})
        for i, (server, mode, label) in enumerate(ONE_THREAD):
            values = [v for v in (cpu_per_move(r) for r in pick(self.rows, server, 1, mode)) if v]
            ax_cpu.bar(i, self.cpu[label] or 0, color="#9db4d8" if server == "qwsv" else "#c9c9c9")
            ax_cpu.plot([i] * len(values), values, "k.", label="a round" if i == 0 else None)
        ax_cpu.set_xticks(range(len(ONE_THREAD)), [label for _, _, label in ONE_THREAD])
        ax_cpu.set_ylabel("server CPU ms per 1,000 moves")
        ax_cpu.set_title("1 thread, id's game, same fight")
        ax_cpu.legend()
        two = self.two_threads()
        ax_abort.bar(range(len(two)), [field(r, "abort_pct") or 0 for _, r in two], color="#d8a09d")
        ax_abort.axhline(paper_abort_pct()[2], color="k", ls="--", label="Atomic Quake, 2 threads")
        ax_abort.set_xticks(range(len(two)), [label for label, _ in two])
        ax_abort.set_ylabel("aborts per transaction (%)")
        ax_abort.set_title("qwsv 2 threads")
        ax_abort.legend()
        fig.suptitle(f"quake-bench --qc-cost, run {self.run}, {self.first['map']}, "
                     f"{self.first['bots']} bots ({self.first.get('machine', '?')})", fontsize=9)
        fig.tight_layout()
        fig.savefig(png, dpi=100)
        print(f"{PROG}: wrote {png}")
