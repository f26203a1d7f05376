#!/usr/bin/python3
"""Unit tests of the report arithmetic (scripts/reports/): medians, ratios and goal verdicts on
small fixture CSVs of this folder, whose tables must equal expected/*.txt, and the extractor
scripts/tm-stats-csv on two statistics files. The fixtures' numbers are chosen so that each
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
from reports import common, goals, libtm_bench, libtm_cm_bench, atomic_quake, quake_sched, apache_bench  # noqa: E402

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
        for section in ("libtm_bench", "libtm_cm_bench", "atomic_quake", "quake_sched", "apache_bench"):
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
