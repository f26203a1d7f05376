#!/usr/bin/python3
"""Unit tests of the report arithmetic (scripts/reports/): medians, ratios and goal verdicts on
small fixture CSVs of this folder, whose tables must equal expected/*.txt, the conflict tables
on two libtm-stats --conflicts --json files (conflicts/), and the extractor scripts/tm-stats-csv
on two statistics files. The fixtures' numbers are chosen so that each
median, ratio and verdict can be checked by hand; the assertions below name the cases.

  test_reports.py [-v]            (unittest's options)
  test_reports.py --update        rewrite expected/*.txt from the reports (then read the diff)"""
import contextlib
import io
import os
import subprocess
import sys
import tempfile
import unittest

sys.dont_write_bytecode = True  # no __pycache__ beside the scripts
HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPTS = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, SCRIPTS)
from reports import common, goals, libtm_bench, libtm_cm_bench, atomic_quake, quake_sched, quake_qc, apache_bench  # noqa: E402
from reports import conflicts, memcache_soak  # noqa: E402

UPDATE = "--update" in sys.argv


def fixture(name):
    return os.path.join(HERE, name)


def expect_text(test, name, text):
    """text must equal expected/NAME (with --update: becomes it)."""
    path = os.path.join(HERE, "expected", name)
    if UPDATE:
        with open(path, "w") as f:
            f.write(text)
    with open(path) as f:
        test.maxDiff = None
        test.assertEqual(text, f.read(), f"the report differs from expected/{name}")


def quietly(function, *args):
    with contextlib.redirect_stdout(io.StringIO()):
        return function(*args)


class Arithmetic(unittest.TestCase):
    def test_median(self):
        self.assertEqual(common.median([3, 1, 2]), 2)
        self.assertEqual(common.median([4, 1, 3, 2]), 2.5)          # even: the mean of the middle two
        self.assertEqual(common.median([None, 5, None]), 5)         # missing values do not count
        self.assertIsNone(common.median([None]))

    def test_ratio(self):
        self.assertEqual(common.ratio(3, 2), 1.5)
        self.assertIsNone(common.ratio(None, 2))
        self.assertIsNone(common.ratio(3, None))
        self.assertIsNone(common.ratio(3, 0))

    def test_reaches_judges_the_printed_value(self):
        self.assertTrue(common.reaches(0.89995, 0.9, 3))    # printed 0.900
        self.assertFalse(common.reaches(0.8994, 0.9, 3))    # printed 0.899
        self.assertFalse(common.reaches(None, 0.9, 3))

    def test_notes_and_rows(self):
        notes, rows = common.read_csv(fixture("libtm-bench.csv"))
        self.assertEqual(common.note(notes, "rounds"), "3")
        self.assertEqual(common.note(notes, "machine"), "Test CPU, 2 cores, RTM: no")
        self.assertIsNone(common.note(notes, "nothing"))
        self.assertEqual(rows[0]["structure"], "rbtree")

    def test_goals_file(self):
        self.assertEqual(goals.paper_abort_pct(), {2: 0.42, 4: 1.58, 8: 25.5})
        for section in ("libtm_bench", "libtm_cm_bench", "atomic_quake", "quake_sched", "quake_qc", "apache_bench",
                        "memcache_soak"):
            self.assertTrue(goals.goals(section), section)


class LibtmBench(unittest.TestCase):
    def setUp(self):
        self.study = libtm_bench.Study(fixture("libtm-bench.csv"))

    def config(self, structure, update, threads):
        return self.study.configs[(structure, update, threads)]

    def test_table(self):
        expect_text(self, "libtm-bench.txt", self.study.report())

    def test_medians_skip_failed_runs(self):
        c = self.config("rbtree", "20", 1)
        self.assertEqual(c.median("libtm"), 2e6)                       # of 1, 3 and 2 M
        self.assertEqual(self.config("rbtree", "20", 4).median("libitm"), 5e5)   # round 2 failed
        bank = self.config("bank", "99", 1)                            # the failed run says no update
        self.assertEqual(bank.median("mutex"), 10e6)                   # of 12 and 8 M
        self.assertEqual(len(self.study.configs), 5)

    def test_ratios_and_verdicts(self):
        c = self.config("rbtree", "20", 1)
        self.assertEqual(c.tm_vs_libitm(), 1.25)
        self.assertEqual(c.tm_vs_best(), 1.0)
        self.assertEqual(c.verdict(), "ok")                            # 1.0 at 1 thread
        four = self.config("rbtree", "20", 4)
        self.assertAlmostEqual(four.tm_vs_best(), 0.89995)
        self.assertEqual(four.verdict(), "ok")                         # printed 0.900, goal 0.9 above 2

    def test_cpu_time_and_share(self):
        c = self.config("rbtree", "20", 1)
        self.assertEqual(c.cost("libtm-orec"), 2.5)                    # seq 2 M per CPU-s, orec 0.8 M
        self.assertAlmostEqual(c.least_share(), 0.9)                   # mutex: 0.9, 0.9, 0.8
        self.assertIsNone(self.config("rbtree", "20", 4).cost("libtm-orec"))

    def test_modes(self):
        self.assertEqual(libtm_bench.main_mode("htm:0.0 orec:93.1 norec:6.9 serial:0.0"), "orec:93")
        self.assertEqual(libtm_bench.main_mode("htm:0.0 orec:0.0"), "")
        self.assertEqual(self.config("rbtree", "20", 4).chosen_mode(), "orec:80")   # of 90, 80, serial 60

    def test_older_csv_of_medians(self):
        """A CSV of medians (one row per configuration and runtime) gives the same row."""
        with tempfile.NamedTemporaryFile("w", suffix=".csv") as f:
            f.write("# rounds: 3\n# duration_s: 0.5\n# machine: Test CPU, 2 cores, RTM: no\n"
                    "# runtimes: libtm,libtm-orec,libitm,mutex,seq\n"
                    "structure,update,size,threads,runtime,ops_per_s,ops_per_cpu_s,runs,failures,"
                    "vs_libitm,vs_best_libitm_mutex,time_vs_seq,cpu_share,aborts_per_commit,libtm_mode\n"
                    "rbtree,20,4096,1,libtm,2000000,2000000,3,0,,,,1.00,,serial:100;serial:100;serial:100\n"
                    "rbtree,20,4096,1,libtm-orec,800000,800000,3,0,,,,1.00,,orec:100;orec:100;orec:100\n"
                    "rbtree,20,4096,1,libitm,1600000,1600000,3,0,,,,1.00,,\n"
                    "rbtree,20,4096,1,mutex,2000000,4444444,3,0,,,,0.90,,\n"
                    "rbtree,20,4096,1,seq,2000000,2000000,3,0,,,,1.00,,\n")
            f.flush()
            older = libtm_bench.Study(f.name).table()
        self.assertEqual(older[3], self.study.table()[3])

    def test_goals_over_the_rows(self):
        checks = {goal.split(" (")[0]: (measured, met) for goal, measured, met in self.study.goal_checks()}
        self.assertEqual(checks["libtm >= max(libitm, mutex)"],
                         ("2 of 2 rows at 1 thread; 1 of 1 rows at 4 threads", True))
        measured, met = checks["travel scales: libtm-orec at 2 threads / 1 thread >= 1.6"]
        self.assertTrue(measured.startswith("1.70 (0.100 -> 0.170 M/s)") and met)


class LibtmBenchPolicy(unittest.TestCase):
    def setUp(self):
        self.study = libtm_bench.Study(fixture("libtm-bench-policy.csv"))
        self.rows = {(r["structure"], r["runtime"]): r for r in self.study.policy_rows()}

    def test_table(self):
        self.assertTrue(self.study.is_policy())
        expect_text(self, "libtm-bench-policy.txt", self.study.report())

    def test_time_ratios(self):
        travel = self.rows[("travel", "libtm")]
        self.assertEqual((travel["one"], travel["two"]), (100000, 125000))   # medians
        self.assertAlmostEqual(travel["time_ratio"], 0.8)                     # 100 k / 125 k
        self.assertEqual(len(travel["rounds"]), 3)                           # 0.67, 1.00, 0.80
        self.assertEqual(travel["mode"], "orec:85")
        self.assertEqual(self.study.policy_verdict(travel), "met")            # goal 0.8 on travel
        self.assertEqual(len(self.rows[("travel", "libitm")]["rounds"]), 2)  # round 3 failed at 2

    def test_verdicts(self):
        graph = self.rows[("graph", "libtm")]
        self.assertAlmostEqual(graph["time_ratio"], 2e6 / 1.85e6)             # 1.08
        self.assertEqual(self.study.policy_verdict(graph), "not met")         # though round 2: 0.95
        self.assertEqual(self.study.policy_verdict(dict(graph, time_ratio=1.05)), "within noise")
        self.assertEqual(self.study.policy_verdict(dict(graph, time_ratio=1.0)), "met")
        libitm = self.rows[("graph", "libitm")]
        self.assertEqual(self.study.policy_verdict(libitm), "not met")        # 4.0 in every round

    def test_readme_table(self):
        table = self.study.policy_readme_table()
        self.assertIn("| travel | 0.10 | 0.12 | 0.80 (0.67-1.00) |", table[2])


class LibtmCmBench(unittest.TestCase):
    def setUp(self):
        self.study = libtm_cm_bench.Study(fixture("libtm-cm-bench.csv"))

    def test_table(self):
        expect_text(self, "libtm-cm-bench.txt", self.study.report())

    def test_medians(self):
        self.assertEqual(self.study.rate("bank", "cm-backoff", 1), 10e6)       # of 9, 11, 10 M
        self.assertEqual(self.study.rate("bank", "cm-backoff", 8), 8e6)        # round 2 failed
        self.assertAlmostEqual(self.study.aborts("bank", "cm-immediate", 8), 0.1)   # median of ratios
        self.assertIsNone(self.study.aborts("bank", "mutex", 8))

    def test_goals_at_the_highest_thread_count(self):
        bank = self.study.goal_check("bank")
        self.assertEqual((bank["top"], bank["best"]), (8, "cm-backoff"))
        self.assertAlmostEqual(bank["keep"], 0.8)
        self.assertAlmostEqual(bank["drop"], 10.0)
        self.assertTrue(bank["met"])
        travel = self.study.goal_check("travel")
        self.assertEqual(travel["drop"], float("inf"))                       # handoff: no abort
        self.assertFalse(travel["met"])                                       # keeps 70 % only
        self.assertIsNone(self.study.goal_check("list1k"))                    # 2 threads: not judged


class AtomicQuake(unittest.TestCase):
    def setUp(self):
        self.report = atomic_quake.Report(fixture("atomic-quake.csv"), fixture("atomic-quake-blocks.csv"), None)

    def test_report(self):
        with tempfile.TemporaryDirectory() as tmp:
            quietly(self.report.write, os.path.join(tmp, "aq"), False)
            with open(os.path.join(tmp, "aq.txt")) as f:
                expect_text(self, "atomic-quake.txt", f.read())

    def test_run_and_machine(self):
        self.assertEqual(self.report.run, "R1")                                # the latest run id
        self.assertEqual(self.report.machine, "Test CPU, 2 cores, RTM no, Linux test")
        self.assertEqual(self.report.cores, 2)

    def test_medians_of_complete_rounds(self):
        self.assertEqual(self.report.timing("oneroom", "lock", 1, 0, "commands_per_s"), 1000)
        self.assertEqual(self.report.timing("oneroom", "stm", 2, 0, "commands_per_s"), 1900)   # died run left out
        self.assertEqual(self.report.timing("oneroom", "stm", 1, 0, "cpu_ms_per_1000_commands"), 11.0)


class AtomicQuakeGames(unittest.TestCase):
    """Two games' studies side by side: a column per map and game, the maps' columns together,
    the game and the clients read off the rows (traces recorded on id's game: qc-*)."""
    def setUp(self):
        self.c_game = atomic_quake.Report(fixture("atomic-quake.csv"), fixture("atomic-quake-blocks.csv"), None)
        self.loads = atomic_quake.Report(fixture("atomic-quake-loads.csv"),
                                         fixture("atomic-quake-loads-blocks.csv"), None)

    def test_columns(self):
        table = atomic_quake.games_table([("A", self.c_game), ("B", self.loads)])
        head = table[0]
        maps = [m for m in atomic_quake.MAP_SHORT if m in self.c_game.maps or m in self.loads.maps]
        want = [f"{atomic_quake.MAP_SHORT[m]}, {g}" for m in maps
                for g, r in (("A", self.c_game), ("B", self.loads)) if m in r.maps]
        self.assertEqual([c.strip() for c in head.strip("|").split("|")][1:], want)
        names, _ = self.c_game.readme_cells()
        self.assertEqual(len(table), 2 + len(names))                          # head, rule, rows

    def test_game_and_clients(self):
        self.assertEqual(self.c_game.game, "the C deathmatch")
        self.assertEqual(self.c_game.clients, "24")


class AtomicQuakeLoads(unittest.TestCase):
    """Both loads of one run: the replayed clients make Figure 3, the bots are beside them,
    with the game-work check and the socket share."""
    def setUp(self):
        self.report = atomic_quake.Report(fixture("atomic-quake-loads.csv"),
                                          fixture("atomic-quake-loads-blocks.csv"), None)

    def test_report(self):
        with tempfile.TemporaryDirectory() as tmp:
            quietly(self.report.write, os.path.join(tmp, "aq"), False)
            with open(os.path.join(tmp, "aq.txt")) as f:
                expect_text(self, "atomic-quake-loads.txt", f.read())

    def test_loads(self):
        self.assertEqual(self.report.loads, ["replay", "bots"])               # replay first
        self.assertEqual(self.report.waits("replay"), [1])                    # closed loop only
        self.assertEqual(self.report.waits("bots"), [0, 1])

    def test_speedup_over_the_own_rate(self):
        # lqdm6: LOCK 100000 and 102000 at 1 thread, 1.65 times that at 2
        self.assertAlmostEqual(self.report.speedup("lqdm6", "lock", 2, "replay"), 1.65)
        self.assertAlmostEqual(self.report.speedup("lqdm6", "stm", 2, "replay"), 1.55)
        self.assertAlmostEqual(self.report.speedup("lqdm6", "lock", 2, "bots"), 0.75)

    def test_readme_table1_puts_the_paper_beside_stm(self):
        table = self.report.readme_table1()
        rows = [[c.strip() for c in line.strip("|").split("|")] for line in table[2:]]
        self.assertIn("paper abort % (8 cores)", table[0])
        # the paper gives 2 threads (0.42 %), not 1; aborts are software + hardware ones
        self.assertEqual(rows[1], ["one-room", "STM", "2", "1,000", "5", "0.50", "0.42", "0", "1 %"])
        self.assertEqual(rows[0][6], "-")
        self.assertEqual([r[0] for r in rows], ["one-room", "one-room", "lqdm6", "lqdm6"])

    def test_readme_figure3_is_the_first_load(self):
        table = self.report.readme_figure3()
        rows = {(r[0], r[1]): r[2:] for r in
                ([c.strip() for c in line.strip("|").split("|")] for line in table[2:])}
        # the replayed load's medians and speed-up (the bots' 0.75 on lqdm6 is not Figure 3's)
        self.assertEqual(rows[("lqdm6", "LOCK")][:3], ["101,000", "166,650", "1.65"])
        self.assertEqual(rows[("lqdm6", "STM")][2], "1.55")
        self.assertEqual(len(table), 2 + 4)                                   # 2 maps x 2 modes

    def test_cpu_against_the_bots_without_sockets(self):
        replay, bots, share, without, diff, clients = self.report.cpu_against_network("lqdm6")
        # the CPU of the runs perf sampled (replayed 4.1 there, 4.0 in the timing runs)
        self.assertEqual((replay, bots, share, clients), (4.1, 5.0, 0.21, 0.06))
        self.assertAlmostEqual(without, 3.95)                # the bots as packets come
        self.assertAlmostEqual(diff, 4.1 / 3.95 - 1)

    def test_time_split(self):
        # 4 s at 100,000 commands/s: 400,000 commands, so 400 ms of a column is 1 ms / 1,000
        row = {"commands_per_s": "100000", "duration_s": "4", "cmd_ms": "2000",
               "cmd_entry_ms": "600", "lock_wait_ms": "400", "cmd_aborted_ms": "40",
               "rp_ms": "3000", "s_ms": "1600", "replay_ms": "400", "u_ms": "800",
               "wait_serial_spin_ms": "200", "wait_rp_spin_ms": "200",
               "wait_serial_sleep_ms": "400", "wait_rp_sleep_ms": "0"}
        split = dict(zip([name for name, _ in atomic_quake.Report.SPLIT],
                         self.report.split_of(row)))
        # a row of an older CSV (before total_ms): its lock wait was the commands'
        self.assertEqual(split["commands"], 5.0)
        self.assertEqual(split["begin"], 0.5)          # the entry less the lock's wait
        self.assertEqual(split["lock wait"], 1.0)
        self.assertEqual(split["aborted"], 0.1)
        self.assertAlmostEqual(split["RP rest"], 0.9)  # 3000 - 2000 - 600 - 40
        self.assertEqual(split["replies"], 3.0)
        self.assertEqual(split["virtual clients"], 1.0)
        self.assertEqual(split["U"], 2.0)
        self.assertEqual((split["wait spin"], split["wait asleep"]), (1.0, 1.0))
        self.assertEqual((split["wait rest"], split["other"], split["receive"]), (0, 0, 0))
        # a row with every part of the threads' time line: the split adds up to total_ms
        new = dict(row, cmd_lock_wait_ms="300", idle_ms="120", idle_replay_ms="40",
                   jobs_ms="40", serial_ms="0", wait_serial_ms="640", wait_rp_ms="240",
                   other_ms="20", s_ms="1560")
        new["total_ms"] = str(sum(float(new[k]) for k in (
            "idle_ms", "u_ms", "jobs_ms", "serial_ms", "rp_ms", "s_ms", "wait_serial_ms",
            "wait_rp_ms", "other_ms")))
        split = dict(zip([name for name, _ in atomic_quake.Report.SPLIT],
                         self.report.split_of(new)))
        self.assertAlmostEqual(sum(split.values()), float(new["total_ms"]) / 400)
        self.assertEqual((split["lock wait"], split["begin"]), (0.75, 0.75))
        self.assertEqual((split["receive"], split["U"]), (0.2, 2.1))
        self.assertAlmostEqual(split["replies"], 3.0)      # 1560 - (400 - 40)
        self.assertAlmostEqual(split["wait rest"], 0.2)    # 880 - 800
        self.assertEqual(split["other"], 0.05)
        self.assertIsNone(self.report.split_of({"commands_per_s": "100000", "duration_s": "4"}))
        # the report prints the table only for rows that have the columns
        self.report.out = []
        self.report.time_split("lqdm6")
        self.assertEqual(self.report.out, [])
        for r in self.report.rows:
            if r["map"] == "lqdm6" and r["load"] == "replay":
                r.update(row)
        self.report.time_split("lqdm6")
        self.assertTrue(any(line.startswith("Where the threads' time went")
                            for line in self.report.out))
        self.assertTrue(any(line.startswith("LOCK ") and " 5.00 " in line
                            for line in self.report.out))

    def test_cores_used(self):
        self.assertEqual(atomic_quake.num({"server_cpu_s": "2.0", "duration_s": "4.0"},
                                          "cores_used"), 0.5)
        self.assertIsNone(atomic_quake.num({"server_cpu_s": "", "duration_s": "4.0"}, "cores_used"))
        self.assertIsNone(atomic_quake.num({"server_cpu_s": "2.0", "duration_s": "0"}, "cores_used"))

    def test_game_work(self):
        work = {what: (a, b, z) for what, a, b, z in self.report.game_work("lqdm6")}
        a, b, z = work["kills"]                       # 274 / 99400 against 260 / 96000
        self.assertAlmostEqual(a, 1000 * 274 / 99400)
        self.assertAlmostEqual(b, 1000 * 260 / 96000)
        self.assertLess(z, 2)
        self.assertGreater(self.report.game_work("oneroom")[0][3], 2)         # 600 kills: apart

    def test_goal_verdicts(self):
        lqdm6 = {goal.split(",")[0]: verdict for goal, _, verdict in
                 self.report.load_goal_checks("lqdm6")}
        self.assertEqual(lqdm6["LOCK"], "met")                               # 1.65
        self.assertEqual(lqdm6["STM"], "not met")                            # 1.55
        verdicts = [v for _, _, v in self.report.load_goal_checks("oneroom")]
        self.assertEqual(verdicts[:2], ["shown", "shown"])                   # judged on lqdm6 only
        self.assertEqual(verdicts[-1], "not met")                            # oneroom's kills


class QuakeSched(unittest.TestCase):
    def setUp(self):
        _, rows = common.read_csv(fixture("quake-sched.csv"))
        self.rows = [r for r in rows if r["status"] == "ok"]
        self.points = quake_sched.medians(self.rows)

    def test_table(self):
        expect_text(self, "quake-sched.txt", quake_sched.table(self.points, self.rows))

    def test_goals_on_medians(self):
        self.assertEqual(self.points[("lqdm6", 2, "lpt-none")]["cpu_ms_per_1000_commands"], 10.0)
        lines = quake_sched.goals(self.points)
        self.assertIn("lpt 10.00 ms vs the best static mode (static, lock) 9.50 ms: not met (1.05 x)", lines[1])
        self.assertIn("busy 60% of the request phase (goal >= 55 %): met", lines[2])

    def test_speedup_over_the_own_rate(self):
        rows = [dict(r) for r in self.rows]
        for r in rows:   # lpt at 2 threads runs twice the commands in the same window
            if r["map"] == "lqdm6" and r["threads"] == "2" and r["sched"] == "lpt":
                r["commands"] = str(2 * float(r["commands"]))
        points = quake_sched.medians(rows)
        one = points[("lqdm6", 1, "lpt-none")]
        self.assertAlmostEqual(one["commands_per_s"], 90000 / 7.0)
        self.assertAlmostEqual(points[("lqdm6", 2, "lpt-none")]["speedup"], 2.0)
        self.assertIsNone(points[("lqdm6", 2, "static-lock")]["speedup"])   # no 1-thread point


class QuakeQc(unittest.TestCase):
    def setUp(self):
        _, rows = common.read_csv(fixture("quake-qc.csv"))
        self.report = quake_qc.Report([r for r in rows if r["status"] == "ok"],
                                      fixture("quake-qc-functions.txt"))

    def test_table(self):
        expect_text(self, "quake-qc.txt", self.report.text())

    def test_cpu_per_acknowledged_move(self):
        # mvdsv 30, 25, 25 ms; lock 24, 22, 23; stm 29, 25, 26 (the died run left out)
        self.assertEqual(self.report.cpu["mvdsv -progtype 0"], 25)
        self.assertEqual(self.report.cpu["qwsv -sync lock"], 23)
        self.assertEqual(self.report.cpu["qwsv -sync stm"], 26)

    def test_goals(self):
        verdicts = [met for _, _, met in self.report.goal_checks()]
        # lock 0.92 x mvdsv, stm 1.13 x lock, aborts 0.40 % met; orec 0.497 prints 0.50 > 0.42
        self.assertEqual(verdicts, [True, True, True, False])

    def test_functions(self):
        self.assertEqual(len(self.report.reached), 3)
        self.assertEqual(self.report.never, ["ClientKill", "W_FireAxe"])


class ApacheBench(unittest.TestCase):
    def setUp(self):
        self.notes, self.rows, self.points = apache_bench.load(fixture("apache-bench.csv"))

    def test_table(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "apache-bench.txt")
            quietly(apache_bench.write_table, path, self.notes, "a fixture", self.points, ["2"],
                    ["nocache", "disk", "mem-lock", "mem-tm"], [1, 4])
            with open(path) as f:
                expect_text(self, "apache-bench.txt", f.read())

    def test_paired_ratios(self):
        tm, lock = self.points[("2", "mem-tm", 1)], self.points[("2", "mem-lock", 1)]
        ratios = apache_bench.paired_ratios(tm, lock)
        self.assertEqual([round(r, 4) for r in ratios], [1.0, 1.0714, 0.9167])   # repeat by repeat
        self.assertEqual(apache_bench.ratio_summary(tm, lock)[0], 1.0)

    def test_judge(self):
        text = apache_bench.judge([(1, (1.3, 1.27, 1.33)), (4, (1.25, 1.2, 1.31)), (8, (1.2, 1.1, 1.25))], 1.3)
        self.assertEqual(text, "median >= 1.3 at 1 of 3 points (1 clients); within the spread (best repeat "
                               ">= 1.3) at 4 clients; not met (every repeat below) at 8 clients")


class ApacheBaseline(unittest.TestCase):
    """A change of the module (mem-tm) against its baseline build (mem-tm-base)."""

    def setUp(self):
        _, _, self.points = apache_bench.load(fixture("apache-open.csv"))
        self.blocks = apache_bench.load_blocks(fixture("apache-open-blocks.csv"))

    def test_block_rates(self):
        # "s2" and "2" name the same exponent; medians of the repeats' aborts per commit
        self.assertEqual(apache_bench.block_rate(self.blocks, "2", "mem-tm-base", 2, "mem_open_entity"), 5.5)
        self.assertEqual(apache_bench.block_rate(self.blocks, "2", "mem-tm", 2, "mem_open_entity"), 2.0)
        self.assertEqual(apache_bench.block_rate(self.blocks, "2", "mem-tm", 2, "mem_create_entity"), None)
        # one function at two places (two blocks): their counts add up, 2 aborts in 1,000 commits
        self.assertEqual(apache_bench.block_rate(self.blocks, "2", "mem-tm", 2, "next_use_tick"), 2.0)

    def test_table(self):
        table = apache_bench.baseline_table(self.points, self.blocks, "2")
        # after/before paired by repeat: 1000/800 and 900/1000; aborts per 1,000 requests:
        # medians of 40/4000, 60/5000 and of 10/5000, 40/4500
        self.assertEqual(table[-1], "| 2 | 1050 (1000-1100) | 900 (800-1000) | 950 (900-1000) | 1.07 [0.90-1.25] "
                                    "| 11.00 / 5.44 | 5.50 / 2.00 | 10.00 / - |")


class MemcacheSoak(unittest.TestCase):
    """Two runs appended to one CSV: lock flat after its warm-up, tm growing by 1 MB per 100
    requests with a wrong body from request 500 on."""
    def setUp(self):
        self.notes, self.runs = memcache_soak.load(fixture("memcache-soak.csv"))
        self.lock, self.tm = self.runs

    def test_table(self):
        expect_text(self, "memcache-soak.txt", memcache_soak.table(self.notes, self.runs))

    def test_warm_up_and_growth(self):
        self.assertEqual(self.lock.warmup_end, 200)                   # 20 % of 1000 requests
        self.assertEqual(self.lock.rss_warm, 25.0)                    # 25600 KB at request 200
        self.assertEqual(self.lock.rss_peak, 26.0)                    # a passing high at 400
        self.assertEqual(self.lock.rss_end, 25.5)                     # the last sample while running
        self.assertEqual(self.lock.growth, 0.5)                       # peak of [900] - peak of [200]
        self.assertTrue(self.lock.flat())
        self.assertEqual(self.tm.growth, 7.0)
        self.assertAlmostEqual(self.tm.slope, 10000.0)                # 1 MB per 100 requests
        self.assertFalse(self.tm.flat())
        self.assertEqual(self.lock.parts["malloc"], 7.375)            # heap + arenas at request 900

    def test_goals_judge_each_modes_latest_run(self):
        verdicts = [verdict for _, _, verdict in memcache_soak.goal_checks(self.runs)]
        self.assertEqual(verdicts, ["met", "met", "not met", "not met"])
        self.assertEqual([r.mode for r in memcache_soak.judged(self.runs)], ["lock", "tm"])


class Conflicts(unittest.TestCase):
    """conflicts/run.json: 10 rows, 200 recorded of 210 conflict aborts, in reverse order of
    count; conflicts/bare.json: 3 of its rows and no totals."""
    def setUp(self):
        self.study = conflicts.Study(fixture("conflicts/run.json"))

    def test_rows_by_count_then_location(self):
        counts = [r["count"] for r in self.study.rows]
        self.assertEqual(counts, [60, 40, 30, 20, 14, 10, 10, 6, 6, 4])
        # a tie is broken by the location's text: "sv+16" < "sv+8"
        self.assertEqual([r["location"] for r in self.study.rows[5:7]], ["sv+16", "sv+8"])

    def test_classes_and_summary(self):
        self.assertEqual(self.study.by_class(), {"true": 114, "false_stripe": 50, "false_alias": 30,
                                                 "unknown": 6})
        self.assertEqual(self.study.summary(),
                         "conflict aborts 210, recorded 200: true 114 (57.0 %), false_stripe 50 "
                         "(25.0 %), false_alias 30 (15.0 %), unknown 6 (3.0 %)")

    def test_totals_default_to_the_rows(self):
        bare = conflicts.Study(fixture("conflicts/bare.json"))
        self.assertEqual((bare.aborts, bare.recorded), (130, 130))
        # classes that no row has are left out of the summary
        self.assertEqual(bare.summary(), "conflict aborts 130, recorded 130: true 60 (46.2 %), "
                                         "false_stripe 40 (30.8 %), false_alias 30 (23.1 %)")

    def test_tables(self):
        reasons = self.study.reason_class_table()
        # validate: 60 + 14 true, 6 false_stripe, 30 false_alias, 6 unknown, shares of 200
        self.assertIn("| validate | 74 (37.0 %) | 6 (3.0 %) | 30 (15.0 %) | 6 (3.0 %) |", reasons)
        top = self.study.readme_table()
        # the 8 most frequent rows, then the other two (6 + 4) in one
        self.assertEqual(top[-1], "| (the other rows) |  |  |  |  | 10 | 5.0 % |")
        self.assertEqual(len(top), 2 + 8 + 1)
        expect_text(self, "conflicts.txt", "\n".join(reasons + [""] + top) + "\n")
        self.assertEqual(conflicts.percent(1, 0), "-")  # nothing recorded: no share


class TmStatsCsv(unittest.TestCase):
    def run_it(self, *args):
        files = [fixture("tm-stats/a.json"), fixture("tm-stats/b.json")]
        return subprocess.run([os.path.join(SCRIPTS, "tm-stats-csv"), *args, *files], capture_output=True,
                              text=True, check=True).stdout

    def test_totals_add_processes_up(self):
        # aborts 10+5+5+3, hardware aborts 5+15; abort % = 43 / (4000 + 23 + 20)
        self.assertEqual(self.run_it("totals"), "4000,23,20,1.064,1,100,3200\n")
        self.assertEqual(self.run_it("totals", "--fields", "commits,conflict_aborts,files"), "4000,20,2\n")

    def test_blocks_merged(self):
        # block 0x10: 600 software commits read 60,000 bytes: 100 on average; b.json's
        # hardware-only record has no minimum
        self.assertEqual(self.run_it("blocks", "--run", "R", "--threads", "2"),
                         "R,,2,,,0x10,?,3800,15,1,80,3200,3,80000,8,100,900,0,10,90\n"
                         "R,,2,,,0x20,?,200,5,0,20,0,1,20000,16,50,64,8,8,8\n")


if __name__ == "__main__":
    if UPDATE:
        sys.argv.remove("--update")
    unittest.main()
