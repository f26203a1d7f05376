"""Report of scripts/quake-bench --paper: the Atomic Quake study's tables and figure on this
server (Zyulkyarov et al., Atomic Quake, PPoPP 2009).

From the run CSV (one row per server run) and the blocks CSV (one row per atomic block of each
statistics run), for one run id (default: the latest): Table 1 (transactions, aborts,
irrevocable and serial runs by threads), Table 2 (read and write sets), Table 3 (per atomic
block), the throughput of Figure 3 (medians of the rounds, relative to LOCK at 1 thread),
the server's CPU time per 1,000 commands, and the goals of scripts/goals.toml, with the
paper's values beside ours."""
import os
import statistics

from reports.common import number as num_value, read_csv, fail as common_fail, markdown_table, ratio, shown
from reports.goals import goals, paper_abort_pct

PROG = "atomic-quake-report"
# what the paper's abstract reports of the transactions' extent (Tables 2 and 3)
PAPER_SETS = "a few bytes to 1.5 MB read and written per transaction"
PAPER_LENGTH = "200 to 1.3 million cycles per transaction"
PAPER_DEPTH = "nested up to 9 levels"
MODE_NAMES = {"lock": "LOCK", "region": "REGION", "stm": "STM", "stm-htm0": "STM (LIBTM_HTM=0)",
              "stm-orec": "STM (LIBTM_ALGO=orec)", "stm-norec": "STM (LIBTM_ALGO=norec)",
              "stmlock": "STM_LOCK",
              "stmlock-htm0": "STM_LOCK (LIBTM_HTM=0)", "stm-gcc": "STM (GCC libitm)"}
MAP_SHORT = {"oneroom": "one-room", "lqdm6": "lqdm6"}
MAP_NAMES = {"oneroom": "one-room map (qwmapgen 1536 x 1536, high conflict)",
             "lqdm6": "lqdm6 (LibreQuake, large, low conflict)"}


def fail(msg, status=1):
    common_fail(PROG, msg, status)


def num(row, key):
    return num_value(row.get(key))


class Report:
    def __init__(self, csv_path, blocks_path, run):
        _, rows = read_csv(csv_path)
        if not rows:
            fail(f"{csv_path}: no rows (run scripts/quake-bench --paper)")
        self.run = run or max(r["run"] for r in rows)
        self.rows = [r for r in rows if r["run"] == self.run and r["status"] == "ok"
                     and r["server"] == "qwsv"]
        if not self.rows:
            fail(f"{csv_path}: no complete rows for run {self.run}")
        self.blocks = []
        if os.path.exists(blocks_path):
            self.blocks = [b for b in read_csv(blocks_path)[1] if b["run"] == self.run]
        self.maps = [m for m in ("oneroom", "lqdm6") if any(r["map"] == m for r in self.rows)]
        self.threads = sorted({int(r["threads"]) for r in self.rows})
        present = {r["mode"] for r in self.rows}
        self.modes = [m for m in MODE_NAMES if m in present]
        self.out = []

    @property
    def machine(self):
        """The machine the run measured on, as its rows recorded it."""
        recorded = [r["machine"] for r in self.rows if r.get("machine")]
        return recorded[0] if recorded else "machine not recorded"

    @property
    def cores(self):
        recorded = [int(r["cores"]) for r in self.rows if r.get("cores")]
        return recorded[0] if recorded else os.cpu_count() or 2

    def timing(self, mapkey, mode, threads, waitall, key):
        vals = [num(r, key) for r in self.rows if r["map"] == mapkey and r["mode"] == mode
                and int(r["threads"]) == threads and r["waitall"] == str(waitall)
                and r["tm_stats"] == "0" and num(r, key) is not None]
        return statistics.median(vals) if vals else None

    def stats_row(self, mapkey, mode, threads):
        for r in self.rows:
            if (r["map"] == mapkey and r["mode"] == mode and int(r["threads"]) == threads
                    and r["tm_stats"] == "1" and r["waitall"] == "0"):
                return r
        return None

    def p(self, line=""):
        self.out.append(line)

    def table(self, head, rows):
        widths = [max(len(str(x)) for x in col) for col in zip(head, *rows)]
        fmt = lambda cells: "  ".join(str(c).rjust(w) if i else str(c).ljust(w)
                                      for i, (c, w) in enumerate(zip(cells, widths)))
        self.p(fmt(head))
        self.p("  ".join("-" * w for w in widths))
        for r in rows:
            self.p(fmt(r))
        self.p()

    def table1(self, mapkey):
        self.p("Table 1. Transactions, aborts and irrevocable transactions by threads "
               "(all atomic blocks)")
        head = ["mode", "threads", "transactions", "aborts", "hw aborts", "abort %",
                "paper abort %", "irrevocable", "serial runs", "in hardware"]
        rows = []
        for mode in [m for m in self.modes if m.startswith("stm")]:
            for t in self.threads:
                r = self.stats_row(mapkey, mode, t)
                if not r:
                    continue
                rows.append([MODE_NAMES[mode], t, r["commits"], r["aborts"], r["htm_aborts"],
                             f"{float(r['abort_pct']):.2f}",
                             paper_abort_pct().get(t, "-") if mode == "stm" else "",
                             r["irrevocable"], r["serial"], r["htm_commits"]])
        self.table(head, rows)
        self.p("abort %: software and hardware aborts over all attempts. irrevocable: what the "
               "code made\nirrevocable (an unsafe call, a change of mode): the server's atomic "
               "blocks call transaction-safe\ncode only (GCC refuses anything else). serial runs: "
               "what libtm ran alone -- its adaptive\npolicy choosing serial runs (one thread, "
               "threads outnumbering cores, high abort rates),\nhardware transactions falling "
               "back, transactions restarted too often -- and the irrevocable\nones. "
               "LIBTM_ALGO=orec or norec runs that STM of libtm alone.")
        self.p()

    def blocks_of(self, mapkey, mode, threads):
        return [b for b in self.blocks if b["map"] == mapkey and b["mode"] == mode
                and int(b["threads"]) == threads and b["waitall"] == "0"]

    def software_mode(self):
        """The mode whose transactions are all instrumented (byte counts, cycles): libtm's STM
        alone if it was measured, else the software path of the adaptive runtime."""
        for mode in ("stm-orec", "stm-norec", "stm-htm0", "stm"):
            if any(b["mode"] == mode for b in self.blocks):
                return mode
        return "stm"

    def table2_rows(self, mapkey):
        """[threads, read min, read avg, read max, write min, write avg, write max, read share]
        of the software mode's transactions, averages weighted by each block's commits."""
        rows = []
        for t in self.threads:
            bl = self.blocks_of(mapkey, self.software_mode(), t)
            sw = [b for b in bl if int(b["commits"]) - int(b["htm_commits"]) > 0]
            if not sw:
                continue
            n = sum(int(b["commits"]) - int(b["htm_commits"]) for b in sw)
            rtot = sum(float(b["read_avg"]) * (int(b["commits"]) - int(b["htm_commits"])) for b in sw)
            wtot = sum(float(b["write_avg"]) * (int(b["commits"]) - int(b["htm_commits"])) for b in sw)
            rows.append([t, min(int(b["read_min"]) for b in sw), f"{rtot / n:.0f}",
                         max(int(b["read_max"]) for b in sw),
                         min(int(b["write_min"]) for b in sw), f"{wtot / n:.0f}",
                         max(int(b["write_max"]) for b in sw),
                         f"{100 * rtot / (rtot + wtot):.0f} %" if rtot + wtot else "-"])
        return rows

    def table2(self, mapkey):
        mode = self.software_mode()
        self.p(f"Table 2. Read and write sets, bytes per transaction ({MODE_NAMES[mode]}: "
               "every transaction instrumented)")
        head = ["threads", "read min", "read avg", "read max", "write min", "write avg",
                "write max", "read share"]
        self.table(head, self.table2_rows(mapkey))
        self.p(f"paper: {PAPER_SETS}.")
        self.p()

    def table3(self, mapkey):
        t = self.threads[0]
        mode = self.software_mode()
        bl = self.blocks_of(mapkey, mode, t)
        self.p(f"Table 3. Atomic blocks at {t} thread{'s' if t > 1 else ''} "
               f"({MODE_NAMES[mode]})")
        total = sum(int(b["cycles"]) for b in bl) or 1
        head = ["atomic block", "executions", "time share", "read avg", "read max",
                "write avg", "write max", "depth", "aborts", "irrevocable"]
        rows = [[f"{b['block']} {b['function']}", b["commits"],
                 f"{100 * int(b['cycles']) / total:.1f} %", b["read_avg"], b["read_max"],
                 b["write_avg"], b["write_max"], b["max_depth"], b["aborts"], b["irrevocable"]]
                for b in bl]
        self.table(head, rows)
        cyc = [int(b["cycles"]) / int(b["commits"]) for b in bl if int(b["commits"])]
        if cyc:
            self.p(f"cycles per transaction: {min(cyc):.0f} to {max(cyc):.0f} (block averages); "
                   f"paper: {PAPER_LENGTH}, {PAPER_DEPTH}.")
        self.p()

    def throughput(self, mapkey):
        self.p("Figure 3 data. Commands the server ran per second (median of the rounds), and "
               "relative to LOCK at 1 thread")
        for waitall in (0, 1):
            base = self.timing(mapkey, "lock", self.threads[0], waitall, "commands_per_s")
            if not base:
                continue
            head = ["mode"] + [f"{t} thr" for t in self.threads] + \
                   [f"x{t}" for t in self.threads]
            rows = []
            for mode in self.modes:
                vals = [self.timing(mapkey, mode, t, waitall, "commands_per_s")
                        for t in self.threads]
                rows.append([MODE_NAMES[mode]] + [f"{v:.0f}" if v else "-" for v in vals] +
                            [f"{v / base:.2f}" if v and base else "-" for v in vals])
            self.p("-waitall (every worker waits for a packet from each of its clients: the "
                   "paper's method)" if waitall else "as packets come (qwsv's default)")
            self.table(head, rows)

    def cpu(self, mapkey):
        self.p("CPU-milliseconds of the server per 1,000 commands (its user + system time; "
               "median of the rounds)")
        head = ["mode"] + [f"{t} thr" for t in self.threads]
        rows = []
        for mode in self.modes:
            rows.append([MODE_NAMES[mode]] + [
                f"{v:.2f}" if (v := self.timing(mapkey, mode, t, 0, "cpu_ms_per_1000_commands"))
                else "-" for t in self.threads])
        self.table(head, rows)

    def goal_lines(self, mapkey):
        self.p("Goals")
        most, paper = goals("atomic_quake")["stm_vs_lock_cpu_max"], paper_abort_pct()
        t1 = self.threads[0]
        lock = self.timing(mapkey, "lock", t1, 0, "cpu_ms_per_1000_commands")
        for mode in ("stm", "stm-htm0"):
            v = self.timing(mapkey, mode, t1, 0, "cpu_ms_per_1000_commands")
            if v and lock:
                self.p(f"  {MODE_NAMES[mode]} / LOCK, server CPU time per command at {t1} "
                       f"thread: {v / lock:.3f} (goal <= {most}: "
                       f"{'met' if v / lock <= most else 'NOT met'})")
        for mode in ("stm", "stm-htm0", "stm-orec", "stm-norec"):
            for t in self.threads:
                r = self.stats_row(mapkey, mode, t)
                if r and t in paper:
                    a = float(r["abort_pct"])
                    self.p(f"  {MODE_NAMES[mode]} abort rate at {t} threads: {a:.2f} % "
                           f"(paper {paper[t]} %: "
                           f"{'below' if a < paper[t] else 'NOT below'})")
        for mode in ("stm", "stm-htm0", "stm-orec", "stm-norec"):
            cells = []
            for t in self.threads:
                bl = self.blocks_of(mapkey, mode, t)
                if bl:
                    cells.append(f"{t}: {sum(int(b['irrevocable']) for b in bl)} of "
                                 f"{sum(int(b['commits']) for b in bl)}")
            if cells:
                self.p(f"  irrevocable transactions in request processing, {MODE_NAMES[mode]} "
                       f"(threads: count of all): {'; '.join(cells)}")
        for t in self.threads:
            reg = self.timing(mapkey, "region", t, 0, "commands_per_s")
            stm = self.timing(mapkey, "stm", t, 0, "commands_per_s")
            htm0 = self.timing(mapkey, "stm-htm0", t, 0, "commands_per_s")
            if reg and stm:
                self.p(f"  REGION / STM throughput at {t} thread(s): {reg / stm:.2f}" +
                       (f" (REGION / STM with LIBTM_HTM=0: {reg / htm0:.2f})" if htm0 else ""))
        self.p()

    # ---- the goals as data, and what the READMEs show --------------------------------------
    def cpu_ratio(self, mapkey, mode="stm"):
        """mode / LOCK, the server's CPU time per command at the fewest threads."""
        t1 = self.threads[0]
        lock = self.timing(mapkey, "lock", t1, 0, "cpu_ms_per_1000_commands")
        v = self.timing(mapkey, mode, t1, 0, "cpu_ms_per_1000_commands")
        return v / lock if v and lock else None

    def abort_pcts(self, mapkey, mode):
        """{threads: abort %} of mode's statistics runs at the thread counts the paper gives."""
        rows = {t: self.stats_row(mapkey, mode, t) for t in self.threads if t in paper_abort_pct()}
        return {t: float(r["abort_pct"]) for t, r in rows.items() if r}

    def irrevocable(self, mapkey):
        """Irrevocable transactions in request processing over every transactional mode and
        thread count (None without statistics)."""
        blocks = [b for b in self.blocks if b["map"] == mapkey and b["mode"].startswith("stm")
                  and b["waitall"] == "0"]
        return sum(int(b["irrevocable"]) for b in blocks) if blocks else None

    def goal_checks(self, mapkey):
        """[(goal, measured, verdict)] for one map."""
        most, paper = goals("atomic_quake")["stm_vs_lock_cpu_max"], paper_abort_pct()
        checks = []
        ratio = self.cpu_ratio(mapkey)
        if ratio is not None:
            checks.append((f"STM / LOCK server CPU per command, {self.threads[0]} thread, <= {most}",
                           f"{ratio:.2f}", "met" if ratio <= most else "not met"))
        pcts = self.abort_pcts(mapkey, "stm")
        if pcts:
            threads = " / ".join(str(t) for t in pcts)
            checks.append((f"STM abort % at {threads} threads below the paper's "
                           f"{' / '.join(str(paper[t]) for t in pcts)}",
                           " / ".join(f"{v:.2f}" for v in pcts.values()),
                           "met" if all(v < paper[t] for t, v in pcts.items()) else "not met"))
        irrevocable = self.irrevocable(mapkey)
        if irrevocable is not None:
            checks.append(("no irrevocable transaction in request processing", str(irrevocable),
                           "met" if irrevocable == 0 else "not met"))
        return checks

    def move_command_share(self, mapkey):
        """The move command's share of the cycles in transactions at the fewest threads."""
        blocks = self.blocks_of(mapkey, self.software_mode(), self.threads[0])
        total = sum(int(b["cycles"]) for b in blocks)
        move = sum(int(b["cycles"]) for b in blocks if b["function"] == "run_command")
        return move / total if total else None

    def readme_table(self):
        """Markdown: the goals and the transactions' extent, a column per map."""
        paper, most = paper_abort_pct(), goals("atomic_quake")["stm_vs_lock_cpu_max"]
        t1, software = self.threads[0], self.software_mode()
        cells = {m: [] for m in self.maps}
        for m in self.maps:
            cpu = self.cpu_ratio(m)
            cells[m].append("-" if cpu is None else f"{cpu:.2f} ({'met' if cpu <= most else 'not met'})")
            for mode in ("stm", "stm-orec", "stm-norec"):
                pcts = self.abort_pcts(m, mode)
                text = " / ".join(f"{v:.2f}" for v in pcts.values()) or "-"
                if mode == "stm" and pcts:
                    below = all(v < paper[t] for t, v in pcts.items())
                    text += " (below: met)" if below else " (not below: not met)"
                cells[m].append(text)
            irrevocable = self.irrevocable(m)
            cells[m].append("-" if irrevocable is None else f"{irrevocable} ({'met' if irrevocable == 0 else 'not met'})")
            cells[m].append(" / ".join(shown(ratio(self.timing(m, "region", t, 0, "commands_per_s"),
                                                   self.timing(m, "stm", t, 0, "commands_per_s")), ".2f")
                                       for t in self.threads))
            serial = [self.stats_row(m, "stm", t) for t in self.threads]
            cells[m].append(" / ".join(f"{100 * int(r['serial']) / int(r['commits']):.0f}" if r and int(r["commits"])
                                       else "-" for r in serial) + " %")
            share = self.move_command_share(m)
            cells[m].append("-" if share is None else f"{100 * share:.1f} %")
            table2 = {row[0]: row for row in self.table2_rows(m)}
            row = table2.get(t1)
            cells[m].append(f"{row[2]} / {row[3]:,}" if row else "-")
            cells[m].append(f"{row[5]} / {row[6]:,}" if row else "-")
        threads = " / ".join(str(t) for t in self.threads)
        pt = [t for t in self.threads if t in paper]
        names = [f"STM / LOCK server CPU per command, {t1} thread (goal ≤ {most})",
                 f"abort % at {' / '.join(map(str, pt))} threads, STM (paper "
                 f"{' / '.join(str(paper[t]) for t in pt)})",
                 "the same, `LIBTM_ALGO=orec`", "the same, `LIBTM_ALGO=norec`",
                 "irrevocable transactions in request processing, every mode and thread count",
                 f"REGION / STM throughput at {threads} threads",
                 f"STM's serial runs at {threads} threads (share of its transactions)",
                 f"the move command's share of the time in transactions, {t1} thread, {MODE_NAMES[software]}",
                 f"bytes read per transaction, average / largest, {t1} thread, {MODE_NAMES[software]}",
                 "bytes written per transaction, average / largest"]
        return markdown_table([""] + [MAP_SHORT.get(m, m) for m in self.maps],
                              [[name] + [cells[m][i] for m in self.maps] for i, name in enumerate(names)])

    def write(self, prefix, plot):
        self.p("Atomic Quake on this machine: qwsv under 24 fighting bots (qwbot, shipped "
               "traces, closed loop)")
        self.p(f"run {self.run}; {self.machine}")
        self.p("made by: scripts/quake-bench --paper (this file: scripts/atomic-quake-report.py "
               "report)")
        self.p("paper: Zyulkyarov et al., Atomic Quake, PPoPP 2009 (8 cores; abort rates from "
               "its Table 1,\nthe extents from its abstract); '-' where it gives no number.")
        self.p("On 2 cores, more than 2 threads share the cores with each other and with the "
               "bots: speed-ups are\nbounded by the machine, which is why CPU time per "
               "command is given too.")
        self.p()
        for mapkey in self.maps:
            self.p("=" * 100)
            self.p(f"{MAP_NAMES.get(mapkey, mapkey)}")
            self.p("=" * 100)
            self.table1(mapkey)
            self.table2(mapkey)
            self.table3(mapkey)
            self.throughput(mapkey)
            self.cpu(mapkey)
            self.goal_lines(mapkey)
        with open(prefix + ".txt", "w") as f:
            f.write("\n".join(self.out) + "\n")
        print(f"atomic-quake-report: wrote {prefix}.txt")
        if plot:
            self.plot(prefix + ".png")

    def plot(self, png):
        try:
            import matplotlib
            matplotlib.use("Agg")
            import matplotlib.pyplot as plt
        except ImportError:
            print("atomic-quake-report: no plot: python3-matplotlib is missing")
            return
        cores = self.cores
        # the third column only when -waitall was measured (--quick does without)
        waits = [w for w in (0, 1) if any(r["waitall"] == str(w) for r in self.rows)]
        fig, axes = plt.subplots(len(self.maps), 1 + len(waits),
                                 figsize=(5.7 * (1 + len(waits)), 4.8 * len(self.maps)),
                                 squeeze=False)
        markers = {"lock": "o", "region": "D", "stm": "s", "stm-htm0": "v", "stm-orec": "P",
                   "stm-norec": "X", "stmlock": "^",
                   "stmlock-htm0": "<", "stm-gcc": ">"}
        for row, mapkey in enumerate(self.maps):
            ax_abs, panels = axes[row][0], list(zip(waits, axes[row][1:]))
            for waitall, ax in panels:
                base = self.timing(mapkey, "lock", self.threads[0], waitall, "commands_per_s")
                if not base:
                    continue
                for mode in self.modes:
                    pts = [(t, v) for t in self.threads
                           if (v := self.timing(mapkey, mode, t, waitall, "commands_per_s"))]
                    if not pts:
                        continue
                    if waitall == 0:
                        ax_abs.plot([t for t, _ in pts], [v for _, v in pts],
                                    marker=markers.get(mode, "o"), label=MODE_NAMES[mode])
                    ax.plot([t for t, _ in pts], [v / base for _, v in pts],
                            marker=markers.get(mode, "o"), label=MODE_NAMES[mode])
                ax.plot(self.threads, [min(t, cores) for t in self.threads], "k--",
                        linewidth=1, label=f"IDEAL (linear up to the {cores} cores)")
                ax.set_title(("with -waitall (the paper's method)" if waitall else
                              "as packets come") + f": relative to LOCK at {self.threads[0]} thread")
                ax.set_xlabel("server threads")
                ax.set_ylabel("throughput / LOCK's at 1 thread")
                ax.set_ylim(bottom=0)
            ax_abs.set_title(f"{mapkey}: commands per second (absolute)")
            ax_abs.set_xlabel("server threads")
            ax_abs.set_ylabel("commands the server ran per second")
            ax_abs.set_ylim(bottom=0)
            for ax in axes[row]:
                ax.grid(True, alpha=0.3)
                ax.set_xticks(self.threads)
                if ax.get_legend_handles_labels()[0]:
                    ax.legend(fontsize=7)
        fig.suptitle(f"Atomic Quake on {cores} cores: 24 fighting bots in closed loop "
                     f"(run {self.run}); beyond {cores} threads the cores are shared, "
                     "speed-ups are bounded")
        fig.tight_layout()
        fig.savefig(png, dpi=90)
        print(f"atomic-quake-report: wrote {png}")


