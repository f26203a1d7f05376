"""Report of scripts/quake-bench --paper: the Atomic Quake study's tables and figure on this
server (Zyulkyarov et al., Atomic Quake, PPoPP 2009).

From the run CSV (one row per server run) and the blocks CSV (one row per atomic block of each
statistics run), for one run id (default: the latest): Table 1 (transactions, aborts,
irrevocable and serial runs by threads), Table 2 (read and write sets), Table 3 (per atomic
block), Figure 3 (commands per second by threads, medians of the rounds, and each mode's
speed-up over its own 1-thread rate), the server's CPU time per 1,000 commands, the check
that the two loads do the same game work and cost the same but for the sockets, and the goals
of scripts/goals.toml, with the paper's values beside ours.

Two loads (the CSV's `load` column; rows without one are the bots'): `replay`, qwsv's virtual
clients replaying the trace inside the server, which makes the tables and Figure 3 when it was
measured, and `bots`, qwbot over the network, reported beside it."""
import math
import os

from reports.common import number, read_csv, fail as common_fail, markdown_table, median, ratio, shown
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
LOAD_NAMES = {"replay": "the replayed load (qwsv -replay: {n} virtual clients inside the server)",
              "bots": "the bots' load (qwbot: {n} bots over the network, on the same cores)"}
LOAD_SHORT = {"replay": "replayed clients", "bots": "bots"}
# the game's work compared between the loads: (column, what it counts)
GAME_WORK = [("server_kills", "kills"), ("server_deaths", "deaths"), ("pickups", "pickups"),
             ("cs_client_message", "sections: client messages"),
             ("cs_broadcast", "sections: broadcasts"), ("cs_spawn_player", "sections: spawns")]


def fail(msg, status=1):
    common_fail(PROG, msg, status)


def num(row, key):
    if key == "cores_used":   # the server's CPU time over the run's wall time
        return ratio(number(row.get("server_cpu_s")), number(row.get("duration_s")))
    return number(row.get(key))


class Report:
    def __init__(self, csv_path, blocks_path, run):
        _, rows = read_csv(csv_path)
        if not rows:
            fail(f"{csv_path}: no rows (run scripts/quake-bench --paper)")
        self.run = run or max(r["run"] for r in rows)
        mine = [r for r in rows if r["run"] == self.run and r["status"] == "ok"
                and r["server"] == "qwsv"]
        for r in mine:
            r["load"] = r.get("load") or "bots"  # rows from before the replayed load
        self.rows = [r for r in mine if r["task"] not in ("equivalence", "socketshare")]
        self.equivalence_rows = [r for r in mine if r["task"] == "equivalence"]
        self.share_rows = [r for r in mine if r["task"] == "socketshare"]
        if not self.rows:
            fail(f"{csv_path}: no complete rows for run {self.run}")
        self.loads = [ld for ld in ("replay", "bots") if any(r["load"] == ld for r in self.rows)]
        self.load = self.loads[0]
        self.blocks = []
        if os.path.exists(blocks_path):
            self.blocks = [b for b in read_csv(blocks_path)[1] if b["run"] == self.run]
        self.maps = [m for m in ("oneroom", "lqdm6") if any(r["map"] == m for r in self.rows)]
        self.threads = sorted({int(r["threads"]) for r in self.rows})
        present = {r["mode"] for r in self.rows}
        self.modes = [m for m in MODE_NAMES if m in present]
        self.out = []

    @property
    def game(self):
        """The game qwsv ran: id's qwprogs.dat when the traces were recorded on it (qc-*)."""
        if all(os.path.basename(r["trace"]).startswith("qc-") for r in self.rows):
            return "id's qwprogs.dat (QuakeC, quake-bench --qc)"
        return "the C deathmatch"

    @property
    def clients(self):
        """How many clients played, as "24" or "24 (one-room), 16 (lqdm6)" when maps differ."""
        per_map = {m: {r["bots"] for r in self.rows if r["map"] == m} for m in self.maps}
        counts = {"/".join(sorted(v)) for v in per_map.values()}
        if len(counts) == 1:
            return counts.pop()
        return ", ".join(f"{'/'.join(sorted(v))} ({MAP_SHORT.get(m, m)})" for m, v in per_map.items())

    def load_name(self, load):
        return LOAD_NAMES[load].format(n=self.clients)

    @property
    def machine(self):
        """The machine the run measured on, as its rows recorded it."""
        recorded = [r["machine"] for r in self.rows if r.get("machine")]
        return recorded[0] if recorded else "machine not recorded"

    @property
    def cores(self):
        recorded = [int(r["cores"]) for r in self.rows if r.get("cores")]
        return recorded[0] if recorded else os.cpu_count() or 2

    def timing(self, mapkey, mode, threads, waitall, key, load=None):
        """Median over the rounds of a timing run's value; waitall None: the variant the load
        was measured with (the replayed clients: -waitall only)."""
        load = load or self.load
        if waitall is None:
            waitall = self.main_waitall(load)
        vals = [num(r, key) for r in self.rows if r["map"] == mapkey and r["mode"] == mode
                and int(r["threads"]) == threads and r["waitall"] == str(waitall)
                and r["tm_stats"] == "0" and r["load"] == load and num(r, key) is not None]
        return median(vals)

    def waits(self, load):
        """The -waitall variants measured with a load: 0, 1 or both."""
        return [w for w in (0, 1) if any(r["waitall"] == str(w) and r["load"] == load
                                         for r in self.rows)]

    def main_waitall(self, load):
        """The variant Figure 3 shows: -waitall (the paper's method) when measured."""
        waits = self.waits(load)
        return 1 if 1 in waits else (waits[0] if waits else 0)

    def stats_row(self, mapkey, mode, threads):
        for r in self.rows:
            if (r["map"] == mapkey and r["mode"] == mode and int(r["threads"]) == threads
                    and r["tm_stats"] == "1" and r["load"] == self.load):
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
                and int(b["threads"]) == threads]

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

    def speedup(self, mapkey, mode, threads, load=None, waitall=None):
        """A mode's commands per second at `threads` over its own at the fewest threads."""
        t1 = self.threads[0]
        return ratio(self.timing(mapkey, mode, threads, waitall, "commands_per_s", load),
                     self.timing(mapkey, mode, t1, waitall, "commands_per_s", load))

    def throughput(self, mapkey):
        self.p("Figure 3 data. Commands the server ran per second (median of the rounds), and "
               "each mode's speed-up\nover its own rate at 1 thread")
        for load in self.loads:
            for waitall in sorted(self.waits(load), reverse=True):
                head = ["mode"] + [f"{t} thr" for t in self.threads] + \
                       [f"x{t}" for t in self.threads]
                rows = []
                for mode in self.modes:
                    vals = [self.timing(mapkey, mode, t, waitall, "commands_per_s", load)
                            for t in self.threads]
                    if not any(vals):
                        continue
                    rows.append([MODE_NAMES[mode]] + [shown(v, ".0f") for v in vals] +
                                [shown(self.speedup(mapkey, mode, t, load, waitall), ".2f")
                                 for t in self.threads])
                if not rows:
                    continue
                how = ("-waitall (every worker waits for a packet from each of its clients: the "
                       "paper's method)" if waitall else "as packets come (qwsv's default)")
                if load == "replay":
                    how = ("closed loop: every frame holds one move of each virtual client "
                           "(what -waitall asks)")
                self.p(f"{self.load_name(load)}; {how}")
                self.table(head, rows)

    # where each thread's time went: the qwsv-stats split of the measured window
    # (every part of a thread's time line, so that they add up to "threads"; rows of an older
    # CSV without total_ms show the parts they have)
    SPLIT = [("commands", lambda r: r["cmd_ms"]),
             ("lock wait", lambda r: r["cmd_lock_wait_ms"]),
             ("begin", lambda r: r["cmd_entry_ms"] - r["cmd_lock_wait_ms"]),
             ("aborted", lambda r: r["cmd_aborted_ms"]),
             ("RP rest", lambda r: r["rp_ms"] - r["cmd_ms"] - r["cmd_entry_ms"] - r["cmd_aborted_ms"]),
             ("replies", lambda r: r["s_ms"] - (r["replay_ms"] - r["idle_replay_ms"])),
             ("virtual clients", lambda r: r["replay_ms"]),
             ("receive", lambda r: r["idle_ms"] - r["idle_replay_ms"]),
             ("U", lambda r: r["u_ms"] + r["jobs_ms"] + r["serial_ms"]),
             ("wait spin", lambda r: r["wait_serial_spin_ms"] + r["wait_rp_spin_ms"]),
             ("wait asleep", lambda r: r["wait_serial_sleep_ms"] + r["wait_rp_sleep_ms"]),
             ("wait rest", lambda r: r["wait_serial_ms"] + r["wait_rp_ms"] - r["wait_serial_spin_ms"]
              - r["wait_rp_spin_ms"] - r["wait_serial_sleep_ms"] - r["wait_rp_sleep_ms"]),
             ("other", lambda r: r["other_ms"])]
    SPLIT_KEYS = ("cmd_ms", "cmd_entry_ms", "cmd_lock_wait_ms", "cmd_aborted_ms", "rp_ms",
                  "s_ms", "replay_ms", "idle_replay_ms", "idle_ms", "u_ms", "jobs_ms",
                  "serial_ms", "wait_serial_ms", "wait_rp_ms", "wait_serial_spin_ms",
                  "wait_rp_spin_ms", "wait_serial_sleep_ms", "wait_rp_sleep_ms", "other_ms")

    def split_of(self, row):
        """The row's time split in ms per 1,000 commands, or None for rows without it."""
        vals = {k: num(row, k) for k in self.SPLIT_KEYS}
        if vals["other_ms"] is None and vals["cmd_ms"] is not None:
            # a row from before total_ms: its lock wait was the commands', its waits only
            # spinning and asleep, the rest not counted
            vals.update(cmd_lock_wait_ms=num(row, "lock_wait_ms"), idle_replay_ms=0.0,
                        jobs_ms=0.0, serial_ms=0.0, other_ms=0.0,
                        idle_ms=vals["idle_ms"] or 0.0)
            for b in ("serial", "rp"):
                spin, sleep = vals[f"wait_{b}_spin_ms"], vals[f"wait_{b}_sleep_ms"]
                vals[f"wait_{b}_ms"] = None if spin is None or sleep is None else spin + sleep
        cmds = num(row, "commands_per_s")
        secs = num(row, "duration_s")
        if any(v is None for v in vals.values()) or not cmds or not secs:
            return None
        per = 1000 / (cmds * secs)
        return [f(vals) * per for _, f in self.SPLIT]

    def off_cpu_of(self, row):
        """The threads' time off a core (their time lines less their CPU time), ms per 1,000
        commands, or None for rows without it."""
        total, cpu = num(row, "total_ms"), num(row, "thread_cpu_ms")
        cmds, secs = num(row, "commands_per_s"), num(row, "duration_s")
        if total is None or cpu is None or not cmds or not secs:
            return None
        return (total - cpu) * 1000 / (cmds * secs)

    def time_split(self, mapkey):
        """Per mode and threads: every thread's time of the window, in ms per 1,000 commands
        (medians of the rounds), beside the CPU time."""
        for load in self.loads:
            rows = []
            for mode in self.modes:
                for t in self.threads:
                    splits = [self.split_of(r) for r in self.rows
                              if r["map"] == mapkey and r["mode"] == mode
                              and int(r["threads"]) == t and r["load"] == load
                              and r["tm_stats"] == "0"
                              and r["waitall"] == str(self.main_waitall(load))]
                    splits = [x for x in splits if x]
                    if not splits:
                        continue
                    med = [median(col) for col in zip(*splits)]
                    cpu = self.timing(mapkey, mode, t, None, "cpu_ms_per_1000_commands", load)
                    # the threads' time off a core: asleep, or waiting for one
                    offs = [self.off_cpu_of(r) for r in self.rows
                            if r["map"] == mapkey and r["mode"] == mode
                            and int(r["threads"]) == t and r["load"] == load
                            and r["tm_stats"] == "0"
                            and r["waitall"] == str(self.main_waitall(load))]
                    offs = [x for x in offs if x is not None]
                    rows.append([MODE_NAMES[mode], str(t), shown(cpu, ".2f"),
                                 shown(sum(med), ".2f")] + [shown(v, ".2f") for v in med] +
                                [shown(median(offs), ".2f") if offs else "-"])
            if not rows:
                continue
            self.p("Where the threads' time went (qwsv-stats, summed over threads, ms per 1,000 "
                   f"commands; {self.load_name(load)}):\ncommands = the move commands' "
                   "finished attempts; lock wait = theirs for the lock; begin = the rest of "
                   "their entry (stm: libtm's begin, serial turns included);\nRP rest = "
                   "netchan, parsing, string commands; replies = S less the virtual clients' "
                   "side (theirs in S and receive); receive = the master's wait for packets;\n"
                   "U = the master's serial phase; the waits at the two barriers, spinning, "
                   "asleep and the barrier's own code; other = between the phases; off a core = of "
                   "all these, the time the threads were asleep or waited for a core.\n"
                   "'threads' = their sum; CPU is the process's (a wait asleep costs none)")
            self.table(["mode", "thr", "CPU", "threads"] + [name for name, _ in self.SPLIT] +
                       ["off a core"], rows)

    def cpu(self, mapkey):
        self.p("CPU-milliseconds of the server per 1,000 commands (its user + system time; "
               "median of the rounds)")
        self.mode_table(mapkey, "cpu_ms_per_1000_commands")
        # what the machine gave: a speed-up needs a core per thread; other programs on the
        # cores (or the bots) show here as a server that gets less than its threads
        self.p("Cores the server got: its CPU time over the run's wall time (median of the "
               f"rounds; {self.cores} cores on the machine)")
        self.mode_table(mapkey, "cores_used")

    def mode_table(self, mapkey, key):
        """A table per load: key's median by mode (rows) and threads (columns)."""
        head = ["mode"] + [f"{t} thr" for t in self.threads]
        for load in self.loads:
            rows = []
            for mode in self.modes:
                vals = [self.timing(mapkey, mode, t, None, key, load) for t in self.threads]
                if any(vals):
                    rows.append([MODE_NAMES[mode]] + [shown(v, ".2f") for v in vals])
            if rows:
                self.p(self.load_name(load))
                self.table(head, rows)

    # ---- the replayed load against the bots --------------------------------------------------
    def load_share(self, mapkey, load, key="load_share"):
        """The share of the server's CPU samples (perf) spent on the load itself: the bots' in
        the kernel and socket calls, the virtual clients' side of the packets (replay); with
        another key, that value of the runs perf sampled."""
        vals = [num(r, key) for r in self.share_rows if r["map"] == mapkey and r["load"] == load]
        vals = [v for v in vals if v is not None]
        return median(vals)

    def cpu_against_network(self, mapkey):
        """(replayed CPU per 1,000 commands, the bots' figure, their socket share, the bots'
        minus the sockets, replayed / that - 1, the virtual clients' share) at the fewest
        threads, lock, the bots as packets come (-waitall polls the socket meanwhile); None
        when not measured. A share is a fraction of its own run's CPU, so the CPU figures are
        those of the runs perf sampled (the bots' CPU per command moves by +-30 % from run to
        run with how many commands a frame gets); the timing runs' medians without them."""
        t1 = self.threads[0]
        if "replay" not in self.loads or "bots" not in self.loads:
            return None
        key = "cpu_ms_per_1000_commands"
        replay = self.load_share(mapkey, "replay", key)
        if replay is None:
            replay = self.timing(mapkey, "lock", t1, None, key, "replay")
        bots = self.load_share(mapkey, "bots", key)
        if bots is None:
            bots = self.timing(mapkey, "lock", t1, 0 if 0 in self.waits("bots") else 1, key, "bots")
        share = self.load_share(mapkey, "bots")
        if replay is None or bots is None or share is None:
            return None
        without = bots * (1 - share)
        return replay, bots, share, without, replay / without - 1, self.load_share(mapkey, "replay")

    def game_work(self, mapkey):
        """[(what, replayed per 1,000 commands, bots' per 1,000, z)] over the game-work check's
        rounds (counts and commands summed per load; z: the difference over its Poisson
        standard error)."""
        rows = [r for r in self.equivalence_rows if r["map"] == mapkey]
        if not rows:
            return []
        out = []
        for key, what in GAME_WORK:
            per = {}
            for load in ("replay", "bots"):
                mine = [r for r in rows if r["load"] == load and num(r, key) is not None
                        and num(r, "work_commands")]
                count = sum(num(r, key) for r in mine)
                commands = sum(num(r, "work_commands") for r in mine)
                per[load] = (count, commands)
            (a, na), (b, nb) = per["replay"], per["bots"]  # counts, commands while all played
            if not na or not nb:
                continue
            err = math.sqrt(a / na ** 2 + b / nb ** 2)
            z = abs(a / na - b / nb) / err if err else 0.0
            out.append((what, 1000 * a / na, 1000 * b / nb, z))
        return out

    def loads_compared(self, mapkey):
        cpu = self.cpu_against_network(mapkey)
        work = self.game_work(mapkey)
        if not cpu and not work:
            return
        self.p("The replayed load against the bots")
        if cpu:
            replay, bots, share, without, diff, clients = cpu
            self.p(f"  server CPU per 1,000 commands at {self.threads[0]} thread, LOCK, in the runs "
                   f"perf sampled: replayed {replay:.2f} ms; bots (as packets come) {bots:.2f} ms, of which "
                   f"{100 * share:.1f} % in the kernel and socket calls (perf), {without:.2f} ms "
                   f"without: replayed / that = {1 + diff:.3f}")
            if clients is not None:
                self.p(f"  of the replayed figure, {100 * clients:.1f} % is the virtual clients' side "
                       f"of the packets (perf): the server's own work {replay * (1 - clients):.2f} "
                       f"ms, / the bots' without sockets = {replay * (1 - clients) / without:.3f}")
        if work:
            n = sum(r["map"] == mapkey and r["load"] == "replay" for r in self.equivalence_rows)
            self.p(f"  the game's work per 1,000 commands while every client played, at the "
                   f"trace's pace, 1 thread, LOCK ({n} round(s) of each load):")
            self.table(["", "replayed", "bots", "z"],
                       [[what, f"{a:.3f}", f"{b:.3f}", f"{z:.2f}"] for what, a, b, z in work])
            self.p("  z: the difference over its standard error (counts taken as Poisson); "
                   "within noise: z <= "
                   f"{goals('atomic_quake')['equivalence_z_max']}")
        self.p()

    def scaling_checks(self, mapkey):
        """[(goal, measured, verdict)] of issue 29 on the replayed load: STM against LOCK at
        speedup_threads (on speedup_map), the CPU per command's growth from 1 thread (LOCK,
        STM), STM's speed-up (every map), STM / LOCK CPU at 1 thread (the strict bound)."""
        g, checks = goals("atomic_quake"), []
        t = g["speedup_threads"]
        if "replay" not in self.loads or t not in self.threads or 1 not in self.threads:
            return checks
        verdict = lambda ok: "met" if ok else "NOT met"
        rate = lambda m, n: self.timing(mapkey, m, n, None, "commands_per_s", "replay")
        cpu = lambda m, n: self.timing(mapkey, m, n, None, "cpu_ms_per_1000_commands", "replay")
        if mapkey == g["speedup_map"] and rate("stm", t) and rate("lock", t):
            v = rate("stm", t) / rate("lock", t)
            checks.append((f"STM / LOCK commands/s at {t} threads (goal >= "
                           f"{g['stm_vs_lock_rate_min']})", f"{v:.2f}",
                           verdict(v >= g["stm_vs_lock_rate_min"])))
        for mode in g["speedup_modes"]:
            if cpu(mode, t) and cpu(mode, 1):
                v = cpu(mode, t) / cpu(mode, 1)
                checks.append((f"{MODE_NAMES[mode]} CPU per command, {t} threads / 1 (goal <= "
                               f"{g['cpu_growth_max']})", f"{v:.2f}",
                               verdict(v <= g["cpu_growth_max"])))
        v = self.speedup(mapkey, "stm", t, "replay")
        if v:
            checks.append((f"STM speed-up at {t} threads, every map (goal >= "
                           f"{g['scaling_map_min']})", f"{v:.2f}", verdict(v >= g["scaling_map_min"])))
        if cpu("stm", 1) and cpu("lock", 1):
            v = cpu("stm", 1) / cpu("lock", 1)
            checks.append((f"STM / LOCK CPU per command at 1 thread (goal <= "
                           f"{g['stm_vs_lock_cpu_strict_max']})", f"{v:.2f}",
                           verdict(v <= g["stm_vs_lock_cpu_strict_max"])))
        return checks

    def goal_lines(self, mapkey):
        self.p("Goals")
        for goal, measured, verdict in self.load_goal_checks(mapkey) + self.scaling_checks(mapkey):
            self.p(f"  {goal}: {measured} ({'not judged on this map' if verdict == 'shown' else verdict})")
        most, paper = goals("atomic_quake")["stm_vs_lock_cpu_max"], paper_abort_pct()
        t1 = self.threads[0]
        lock = self.timing(mapkey, "lock", t1, None, "cpu_ms_per_1000_commands")
        for mode in ("stm", "stm-htm0"):
            v = self.timing(mapkey, mode, t1, None, "cpu_ms_per_1000_commands")
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
            reg = self.timing(mapkey, "region", t, None, "commands_per_s")
            stm = self.timing(mapkey, "stm", t, None, "commands_per_s")
            htm0 = self.timing(mapkey, "stm-htm0", t, None, "commands_per_s")
            if reg and stm:
                self.p(f"  REGION / STM throughput at {t} thread(s): {reg / stm:.2f}" +
                       (f" (REGION / STM with LIBTM_HTM=0: {reg / htm0:.2f})" if htm0 else ""))
        self.p()

    # ---- the goals as data, and what the READMEs show --------------------------------------
    def load_goal_checks(self, mapkey):
        """[(goal, measured, verdict)] of the replayed load: the speed-up at 2 threads (judged
        on the map goals.toml names), its CPU against the bots' without sockets, the same game
        work."""
        g, checks = goals("atomic_quake"), []
        t = g["speedup_threads"]
        if "replay" in self.loads and t in self.threads:
            for mode in g["speedup_modes"]:
                v = self.speedup(mapkey, mode, t, "replay")
                judged = mapkey == g["speedup_map"]
                checks.append((f"{MODE_NAMES[mode]}, replayed load: commands per second at {t} "
                               f"threads / at 1 thread >= {g['speedup_min']} on "
                               f"{g['speedup_map']}", shown(v, ".2f"),
                               ("met" if v is not None and round(v, 2) >= g["speedup_min"]
                                else "not met") if judged else "shown"))
        cpu = self.cpu_against_network(mapkey)
        if cpu:
            diff = cpu[4]
            checks.append((f"replayed CPU per command within {100 * g['cpu_vs_network_max']:.0f} % "
                           "of the bots' minus the socket share, 1 thread, LOCK",
                           f"{100 * diff:+.1f} %",
                           "met" if abs(diff) <= g["cpu_vs_network_max"] else "not met"))
        work = self.game_work(mapkey)
        if work:
            zmax = max(z for *_, z in work)
            checks.append(("the same game work per 1,000 commands (kills, deaths, pickups, "
                           f"sections), z <= {g['equivalence_z_max']}", f"largest z {zmax:.2f}",
                           "met" if zmax <= g["equivalence_z_max"] else "not met"))
        return checks

    def cpu_ratio(self, mapkey, mode="stm"):
        """mode / LOCK, the server's CPU time per command at the fewest threads."""
        t1 = self.threads[0]
        lock = self.timing(mapkey, "lock", t1, None, "cpu_ms_per_1000_commands")
        v = self.timing(mapkey, mode, t1, None, "cpu_ms_per_1000_commands")
        return v / lock if v and lock else None

    def abort_pcts(self, mapkey, mode):
        """{threads: abort %} of mode's statistics runs at the thread counts the paper gives."""
        rows = {t: self.stats_row(mapkey, mode, t) for t in self.threads if t in paper_abort_pct()}
        return {t: float(r["abort_pct"]) for t, r in rows.items() if r}

    def irrevocable(self, mapkey):
        """Irrevocable transactions in request processing over every transactional mode and
        thread count (None without statistics)."""
        blocks = [b for b in self.blocks if b["map"] == mapkey and b["mode"].startswith("stm")]
        return sum(int(b["irrevocable"]) for b in blocks) if blocks else None

    def goal_checks(self, mapkey):
        """[(goal, measured, verdict)] for one map."""
        most, paper = goals("atomic_quake")["stm_vs_lock_cpu_max"], paper_abort_pct()
        checks = self.load_goal_checks(mapkey)  # "shown": measured here, judged on another map
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
        return ratio(move, total)

    def readme_table(self):
        """Markdown: the goals and the transactions' extent, a column per map."""
        names, cells = self.readme_cells()
        return markdown_table([""] + [MAP_SHORT.get(m, m) for m in self.maps],
                              [[name] + [cells[m][i] for m in self.maps] for i, name in enumerate(names)])

    def readme_cells(self):
        """The rows of readme_table: their names, and a column of cells per map."""
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
            cells[m].append(" / ".join(shown(ratio(self.timing(m, "region", t, None, "commands_per_s"),
                                                   self.timing(m, "stm", t, None, "commands_per_s")), ".2f")
                                       for t in self.threads))
            serial = [self.stats_row(m, "stm", t) for t in self.threads]
            cells[m].append(" / ".join(f"{100 * int(r['serial']) / int(r['commits']):.0f}" if r and int(r["commits"])
                                       else "-" for r in serial) + " %")
            g = goals("atomic_quake")
            cells[m].append(" / ".join(shown(self.speedup(m, mode, g["speedup_threads"], "replay"),
                                             ".2f") for mode in g["speedup_modes"]))
            cpu_net = self.cpu_against_network(m)
            cells[m].append("-" if not cpu_net else
                            f"{cpu_net[0]:.2f} / {cpu_net[1]:.2f} x (1 - {cpu_net[2]:.3f}) = "
                            f"{1 + cpu_net[4]:.3f}")
            work = self.game_work(m)
            cells[m].append("-" if not work else f"{max(z for *_, z in work):.2f}")
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
                 f"replayed load: speed-up at {goals('atomic_quake')['speedup_threads']} threads, "
                 f"{' / '.join(MODE_NAMES[x] for x in goals('atomic_quake')['speedup_modes'])} "
                 f"(goal ≥ {goals('atomic_quake')['speedup_min']} on "
                 f"{goals('atomic_quake')['speedup_map']})",
                 f"replayed CPU / (bots' x (1 - socket share)) per command, {t1} thread, LOCK "
                 f"(goal within {100 * goals('atomic_quake')['cpu_vs_network_max']:.0f} %)",
                 "same game work, largest z of kills, deaths, pickups, sections (goal ≤ "
                 f"{goals('atomic_quake')['equivalence_z_max']})",
                 f"the move command's share of the time in transactions, {t1} thread, {MODE_NAMES[software]}",
                 f"bytes read per transaction, average / largest, {t1} thread, {MODE_NAMES[software]}",
                 "bytes written per transaction, average / largest"]
        return names, cells

    def readme_table1(self):
        """Markdown: Table 1 (the statistics runs of the first load), a row per map, transactional
        mode and thread count, the paper's abort rate beside STM's where the paper gives one."""
        rows = []
        for m in self.maps:
            for mode in [x for x in self.modes if x.startswith("stm")]:
                for t in self.threads:
                    r = self.stats_row(m, mode, t)
                    if not r:
                        continue
                    paper = paper_abort_pct().get(t, "-") if mode == "stm" else ""
                    rows.append([MAP_SHORT.get(m, m), MODE_NAMES[mode], t, f"{int(r['commits']):,}",
                                 f"{int(r['aborts']) + int(r['htm_aborts']):,}",
                                 f"{float(r['abort_pct']):.2f}", paper, r["irrevocable"],
                                 f"{100 * int(r['serial']) / int(r['commits']):.0f} %" if int(r["commits"]) else "-"])
        return markdown_table(["map", "mode", "threads", "transactions", "aborts", "abort %",
                               "paper abort % (8 cores)", "irrevocable", "serial runs"], rows)

    def readme_figure3(self):
        """Markdown: Figure 3's data of the first load (medians of the rounds): commands per second
        by threads, each mode's speed-up over its own rate at the fewest threads, CPU per command,
        and the cores the server got at the most threads."""
        most = self.threads[-1]
        head = (["map", "mode"] + [f"cmds/s, {t} thr" for t in self.threads] +
                [f"x{t}" for t in self.threads[1:]] + [f"CPU ms / 1,000, {t} thr" for t in self.threads] +
                [f"cores used, {most} thr"])
        rows = []
        for m in self.maps:
            for mode in self.modes:
                rates = [self.timing(m, mode, t, None, "commands_per_s") for t in self.threads]
                if not any(rates):
                    continue
                rows.append([MAP_SHORT.get(m, m), MODE_NAMES[mode]] +
                            [shown(v, ",.0f") for v in rates] +
                            [shown(self.speedup(m, mode, t), ".2f") for t in self.threads[1:]] +
                            [shown(self.timing(m, mode, t, None, "cpu_ms_per_1000_commands"), ".2f")
                             for t in self.threads] +
                            [shown(self.timing(m, mode, most, None, "cores_used"), ".2f")])
        return markdown_table(head, rows)

    def write(self, prefix, plot):
        self.p(f"Atomic Quake on this machine: qwsv running {self.game} under {self.clients} "
               "fighting clients replaying the shipped traces in closed loop")
        self.p("loads: " + "; ".join(self.load_name(ld) for ld in self.loads) +
               ("\n(the first makes Tables 1-3 and Figure 3)" if len(self.loads) > 1 else ""))
        self.p(f"run {self.run}; {self.machine}")
        self.p("made by: scripts/quake-bench --paper (this file: scripts/atomic-quake-report.py "
               "report)")
        self.p("paper: Zyulkyarov et al., Atomic Quake, PPoPP 2009 (8 cores; abort rates from "
               "its Table 1,\nthe extents from its abstract); '-' where it gives no number.")
        self.p(f"On {self.cores} cores, more than {self.cores} threads share the cores with each "
               "other (and the bots with the server):\nspeed-ups are bounded by the machine, "
               "which is why CPU time per command is given too.")
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
            self.time_split(mapkey)
            self.loads_compared(mapkey)
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
        # per map: the first load's commands per second and speed-ups, then the other load's
        # speed-ups (Figure 3's second panel)
        panels = [(self.load, "absolute"), (self.load, "speedup")] + \
                 [(ld, "speedup") for ld in self.loads[1:]]
        fig, axes = plt.subplots(len(self.maps), len(panels),
                                 figsize=(5.7 * len(panels), 4.8 * len(self.maps)), squeeze=False)
        markers = {"lock": "o", "region": "D", "stm": "s", "stm-htm0": "v", "stm-orec": "P",
                   "stm-norec": "X", "stmlock": "^",
                   "stmlock-htm0": "<", "stm-gcc": ">"}
        for row, mapkey in enumerate(self.maps):
            for (load, kind), ax in zip(panels, axes[row]):
                wa = self.main_waitall(load)
                how = "closed loop" if load == "replay" else \
                    ("-waitall" if wa else "as packets come")
                for mode in self.modes:
                    if kind == "absolute":
                        pts = [(t, v) for t in self.threads if (v := self.timing(
                            mapkey, mode, t, wa, "commands_per_s", load))]
                    else:
                        pts = [(t, v) for t in self.threads
                               if (v := self.speedup(mapkey, mode, t, load, wa))]
                    if pts:
                        ax.plot([t for t, _ in pts], [v for _, v in pts],
                                marker=markers.get(mode, "o"), label=MODE_NAMES[mode])
                if kind == "absolute":
                    ax.set_title(f"{mapkey}, {LOAD_SHORT[load]} ({how}): commands per second")
                    ax.set_ylabel("commands the server ran per second")
                else:
                    ax.plot(self.threads, [min(t, cores) for t in self.threads], "k--",
                            linewidth=1, label=f"IDEAL (linear up to the {cores} cores)")
                    ax.set_title(f"{mapkey}, {LOAD_SHORT[load]} ({how}): speed-up")
                    ax.set_ylabel("commands per second / the mode's own at 1 thread")
                ax.set_xlabel("server threads")
                ax.set_ylim(bottom=0)
                ax.grid(True, alpha=0.3)
                ax.set_xticks(self.threads)
                if ax.get_legend_handles_labels()[0]:
                    ax.legend(fontsize=7)
        loads = " and ".join(LOAD_SHORT[ld] for ld in self.loads)
        fig.suptitle(f"Atomic Quake on {cores} cores (run {self.run}), Figure 3 from the "
                     f"{LOAD_SHORT[self.load]}" + (f" (24 virtual clients in the server, no "
                     "sockets); the bots' load on the right" if len(self.loads) > 1 else "")
                     + f"; beyond {cores} threads the cores are shared")
        fig.tight_layout()
        fig.savefig(png, dpi=90)
        print(f"atomic-quake-report: wrote {png}")


def games_table(games):
    """Markdown: readme_table's rows for several games side by side, a column per map and
    game (the maps' columns together); games is [(name, Report)], rows named by the first.
    A row the first names by its instrumented mode (Table 2's bytes) says another game's
    mode in its cells when that differs (STM runs 1 thread serially, orec instruments it)."""
    cells = {game: report.readme_cells() for game, report in games}
    names = cells[games[0][0]][0]
    first_mode = MODE_NAMES[games[0][1].software_mode()]
    head, columns = [""], []
    for m in MAP_SHORT:
        for game, report in games:
            if m not in report.maps:
                continue
            head.append(f"{MAP_SHORT[m]}, {game}")
            mode = MODE_NAMES[report.software_mode()]
            columns.append([f"{cell} ({mode})" if mode != first_mode and names[i].endswith(f", {first_mode}")
                            else cell for i, cell in enumerate(cells[game][1][m])])
    return markdown_table(head, [[name] + [col[i] for col in columns] for i, name in enumerate(names)])
