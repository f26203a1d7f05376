"""The READMEs' measured tables, made from results/ by the report modules.

A README holds a table between two markers:
    <!-- results: NAME (scripts/readme-tables writes this part) -->
    ...
    <!-- end of results: NAME -->
and BLOCKS below says how NAME is made. Which rows a table picks is chosen here; what a cell
says is the report module's arithmetic, the same as in results/*.txt."""
import difflib
import os
import re

from reports import apache_bench, atomic_quake, begin_commit, conflicts, libtm_bench, libtm_cm_bench, memcache_soak, quake_qc, quake_sched, \
    quake_sweep
from reports.common import markdown_table, note, rows_of_run

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MARKED = re.compile(r"(<!-- results: ([\w-]+) [^\n]*-->\n)(.*?)(<!-- end of results: \2 -->)", re.S)


def results(name):
    path = os.path.join(TOP, "results", name)
    if not os.path.exists(path):
        raise SystemExit(f"readme-tables: {path} is missing (the benchmark that writes it: results/README.md)")
    return path


def caption(text):
    return [f"*{text}*", ""]


# ---- libtm against GCC's libitm and a mutex ----------------------------------------------------
LIBTM_PICKS = [("rbtree", 20, 1), ("rbtree", 20, 2), ("rbtree", 20, 8), ("rbtree", 20, 16),
               ("rbtree", 0, 16), ("skiplist", 20, 4), ("list", 20, 2), ("list", 20, 8),
               ("hashset", 0, 2), ("hashset", 20, 1), ("hashset", 20, 4), ("hashset", 50, 2),
               ("bank", 99, 1), ("bank", 99, 2), ("bank", 99, 16), ("travel", 10, 1), ("travel", 10, 2)]


def libtm_study():
    return libtm_bench.Study(results("libtm-bench-nohtm.csv"))


def libtm_nohtm():
    study = libtm_study()
    n = note
    return caption(f"`{n(study.notes, 'command')}`: {n(study.notes, 'machine')}; median of "
                   f"{n(study.notes, 'rounds')} rounds of {n(study.notes, 'duration_s')} s; millions of "
                   "operations per second") + study.readme_table(LIBTM_PICKS)


def libtm_nohtm_goals():
    return [f"* {goal}: **{measured}** ({'met' if met else 'not met'})"
            for goal, measured, met in libtm_study().goal_checks()]


def libtm_policy():
    study = libtm_bench.Study(results("libtm-bench-policy.csv"))
    n = note
    return caption(f"`{n(study.notes, 'command')}`: {n(study.notes, 'machine')}; median of "
                   f"{n(study.notes, 'rounds')} rounds, 1 and 2 threads and both runtimes alternating "
                   "within a round; millions of atomic blocks per second (travel: transactions); "
                   "time 2/1 = time at 2 threads / time at 1 for the same work, the rounds' range "
                   "in brackets") + study.policy_readme_table()


def libtm_begin_commit():
    study = begin_commit.Study(results("libtm-begin-commit.csv"))
    n = note
    return caption(f"`{n(study.notes, 'command')}`: {n(study.notes, 'machine')}; median of "
                   f"{n(study.notes, 'rounds')} rounds; instructions per operation, the runtime's "
                   "two functions inclusive") + study.readme_table()


# ---- contention managers ------------------------------------------------------------------------
def libtm_cm():
    study = libtm_cm_bench.Study(results("libtm-cm-bench.csv"))
    picks = [("rbtree", 2), ("rbtree", 64), ("list1k", 64), ("bank", 2), ("bank", 8), ("bank", 64),
             ("travel", 2), ("travel", 64)]
    labels = {"rbtree": "rbtree 16k", "list1k": "list 1k"}
    return study.readme_table(picks, labels, ["backoff", "immediate", "handoff", "softprio", "slice", "yield"])


# ---- Quake --------------------------------------------------------------------------------------
def atomic_quake_report():
    return atomic_quake.Report(results("atomic-quake.csv"), results("atomic-quake-blocks.csv"), None)


def atomic_quake_goals():
    report = atomic_quake_report()
    return caption(f"run {report.run}: {report.machine}") + report.readme_table()


def atomic_quake_games():
    """The C deathmatch's study and id's game's (quake-bench --paper --qc) side by side."""
    c_game = atomic_quake_report()
    qc_game = atomic_quake.Report(results("atomic-quake-qc.csv"), results("atomic-quake-qc-blocks.csv"), None)
    return caption(f"C deathmatch: run {c_game.run}, {c_game.clients} clients; id's qwprogs.dat: run "
                   f"{qc_game.run}, {qc_game.clients} clients; {qc_game.machine}") + \
        atomic_quake.games_table([("C", c_game), ("id's", qc_game)])


def atomic_quake_qc_report():
    return atomic_quake.Report(results("atomic-quake-qc.csv"), results("atomic-quake-qc-blocks.csv"), None)


def atomic_quake_qc_caption(report, what):
    return caption(f"{what}: `scripts/quake-bench --paper --qc`, run {report.run}, "
                   f"{report.load_name(report.load)}; {report.machine}")


def atomic_quake_qc_table1():
    """The server README's Table 1 on id's game, the paper's abort rates beside STM's."""
    report = atomic_quake_qc_report()
    return atomic_quake_qc_caption(report, "Table 1") + report.readme_table1()


def atomic_quake_qc_figure3():
    """The server README's Figure 3 data on id's game (medians of the rounds)."""
    report = atomic_quake_qc_report()
    return atomic_quake_qc_caption(report, "Figure 3") + report.readme_figure3()


def quake_sweep_table():
    run, rows = rows_of_run("readme-tables", results("quake-bench.csv"), "commands_per_s", "quake-bench --sweep")
    labels = {"lock": "lock", "region": "region", "stm": "stm (libtm)", "stmlock": "stmlock (libtm)",
              "stm-gcc": "stm (GCC libitm)"}
    return caption(f"run {run}; commands the server ran per second") + \
        quake_sweep.readme_table(rows, labels, [1, 2, 4, 8])


def quake_sched_points():
    run, rows = rows_of_run("readme-tables", results("quake-sched.csv"), "all_busy_share", "quake-bench --sched")
    return run, quake_sched.medians(rows)


def quake_sched_table():
    run, points = quake_sched_points()
    picks = [(1, "lpt-none"), (1, "static-lock"), (2, "lpt-none"), (2, "static-lock"), (2, "static-region"),
             (2, "static-stm"), (2, "static-stmlock"), (4, "lpt-none"), (8, "lpt-none")]
    return caption(f"run {run}, lqdm6, medians of the rounds") + quake_sched.readme_table(points, "lqdm6", picks)


def quake_qc_report():
    _, rows = rows_of_run("readme-tables", results("quake-qc.csv"), "acked", "quake-bench --qc-cost")
    return quake_qc.Report(rows, results("quake-qc-functions.txt"))


def quake_qc_table():
    report = quake_qc_report()
    return caption(f"run {report.run}: {report.first['machine']}; {report.first['map']}, "
                   f"{report.first['bots']} bots in real time; medians of {report.rounds} rounds; "
                   f"QuakeC functions reached {len(report.reached)} of "
                   f"{len(report.reached) + len(report.never)}") + report.readme_table()


# ---- Apache -------------------------------------------------------------------------------------
def apache_study():
    notes, rows, points = apache_bench.load(results("apache-bench.csv"))
    exponents = sorted({r["s"] for r in rows}, key=float)
    modes = [m for m in apache_bench.MODE_ORDER if any(r["mode"] == m for r in rows)]
    clients = sorted({int(r["clients"]) for r in rows})
    return notes, points, exponents, modes, clients


def apache_s2():
    _, points, _, _, _ = apache_study()
    return apache_bench.readme_table(points, "2")


def apache_open_lru():
    """LRU's use counter in open transactions against the module before (mem-tm-base)."""
    notes, _, points = apache_bench.load(results("apache-open-lru.csv"))
    blocks = apache_bench.load_blocks(results("apache-open-lru-blocks.csv"))
    run = notes[0].split(": ", 1)[-1] if notes else ""
    return caption(f"{run}; requests/s median (min-max); after/before: median of the per-repeat "
                   "ratios [lowest-highest]; aborts: median of the repeats") + \
        apache_bench.baseline_table(points, blocks, "2")


def apache_libtm_turns():
    """libtm's serial mode without turns for sparse transactions, against the libtm before."""
    notes, _, points = apache_bench.load(results("apache-libtm-turns.csv"))
    run = notes[0].split(": ", 1)[-1] if notes else ""
    return caption(f"`{APACHE_LIBTM_TURNS}`; {run}; requests/s median (min-max); ratios: median "
                   "of the per-repeat ratios [lowest-highest]") + \
        apache_bench.libtm_change_table(points, "2")


APACHE_LIBTM_TURNS = ("scripts/apache-bench --s 2 --clients \"4 16\" --modes \"disk socache mem-lock "
                      "mem-tm-base mem-tm mem-tm-gcc\" --baseline-libtm build/libtm-before --repeats 3 "
                      "--time 4 --name apache-libtm-turns")


# ---- Apache: mod_mem_cache's memory over time -------------------------------------------------
def soak_caption(notes, runs):
    """The runs' settings (each once, without the commands, which the README gives) and the machine."""
    machine = notes[0].split(": ", 1)[-1] if notes else ""
    settings = "; ".join(dict.fromkeys(r.note.split("; ", 1)[-1] for r in runs))
    return caption(f"{settings}; {machine}")


def memcache_soak_table(name):
    notes, runs = memcache_soak.load(results(f"{name}.csv"))
    judged = memcache_soak.judged(runs)
    return soak_caption(notes, judged) + memcache_soak.readme_table(runs)


def memcache_soak_sizes():
    notes, runs = memcache_soak.load(results("memcache-soak-sizes.csv"))
    machine = notes[0].split(": ", 1)[-1] if notes else ""
    return caption(f"`scripts/memcache-soak --requests 200000` with the settings of each row; {machine}") + \
        memcache_soak.sizes_table(runs)


# ---- why transactions aborted (LIBTM_CONFLICTS=1) ---------------------------------------------
def conflict_table(name, command):
    study = conflicts.Study(results(name))
    return (caption(f"`{command}` (results/{name}): {study.summary()}") + study.reason_class_table()
            + ["", "The most frequent rows:", ""] + study.readme_table())


QUAKE_CONFLICTS = "scripts/quake-bench {qc}--threads 2 --sync stm-orec --load replay --waitall --conflicts"

BLOCKS_CONFLICTS = {
    "quake-conflicts-qc": lambda: conflict_table("conflicts-qc-oneroom-2-stm-orec-waitall.json",
                                                 QUAKE_CONFLICTS.format(qc="--qc ")),
    "quake-conflicts-c": lambda: conflict_table("conflicts-oneroom-2-stm-orec-waitall.json",
                                                QUAKE_CONFLICTS.format(qc="")),
    "apache-conflicts": lambda: conflict_table(
        "apache-bench-conflicts-s2-mem-tm-c16-r1.json",
        "scripts/apache-bench --modes mem-tm --clients 16 --s 2 --time 5 --repeats 1 --conflicts"),
}


# ---- the top README's headline --------------------------------------------------------------------
def headline():
    """One row per goal of every study: what it asks, what was measured, the verdict."""
    rows = []

    def add(study, link, checks):
        for i, (goal, measured, verdict) in enumerate(checks):
            if verdict is True or verdict is False:
                verdict = "met" if verdict else "not met"
            rows.append([f"[{study}](results/README.md#{link})" if i == 0 else "", goal, measured,
                         f"**{verdict}**" if verdict == "met" else verdict])
    add("libtm vs GCC's libitm and a mutex, no RTM", "libtm-against-gccs-libitm-and-a-mutex",
        libtm_study().goal_checks()[:2])
    cm = libtm_cm_bench.Study(results("libtm-cm-bench.csv")).goal_summary()
    add("contention managers", "contention-managers", [cm] if cm else [])
    report = atomic_quake_report()
    # one row per goal, the maps' values side by side; a map where a goal is only shown
    # ("shown": judged on another map) gives its value but no verdict
    merged, goals_in_order = [], []
    checks = {m: {goal: (measured, verdict) for goal, measured, verdict in report.goal_checks(m)}
              for m in report.maps}
    for m in report.maps:
        goals_in_order += [goal for goal, _, _ in report.goal_checks(m) if goal not in goals_in_order]
    for goal in goals_in_order:
        per_map = [(atomic_quake.MAP_SHORT.get(m, m), checks[m][goal]) for m in report.maps
                   if goal in checks[m]]
        judged = [c for _, c in per_map if c[1] != "shown"]
        merged.append((goal, "; ".join(f"{name}: {c[0]}" for name, c in per_map),
                       "met" if judged and all(c[1] == "met" for c in judged) else "not met"))
    add("Atomic Quake", "the-atomic-quake-study", merged)
    add("id's game (QuakeC)", "quakeworlds-own-game-quakec", quake_qc_report().goal_checks())
    add("-sched lpt", "dynamic-load-balancing--sched-lpt", quake_sched.goal_checks(quake_sched_points()[1]))
    _, points, exponents, modes, clients = apache_study()
    add("Apache cache", "apache-cache", apache_bench.goal_checks(points, exponents, modes, clients))
    _, soak = memcache_soak.load(results("memcache-soak.csv"))
    add("Apache cache's memory", "the-apache-caches-memory", memcache_soak.goal_checks(soak))
    return markdown_table(["study", "goal (scripts/goals.toml)", "measured", "verdict"], rows)


BLOCKS = {
    "headline": headline,
    "libtm-nohtm": libtm_nohtm,
    "libtm-nohtm-goals": libtm_nohtm_goals,
    "libtm-policy": libtm_policy,
    "libtm-begin-commit": libtm_begin_commit,
    "libtm-cm": libtm_cm,
    "atomic-quake": atomic_quake_goals,
    "atomic-quake-games": atomic_quake_games,
    "atomic-quake-qc-table1": atomic_quake_qc_table1,
    "atomic-quake-qc-figure3": atomic_quake_qc_figure3,
    "quake-sweep": quake_sweep_table,
    "quake-sched": quake_sched_table,
    "quake-qc": quake_qc_table,
    "apache-s2": apache_s2,
    "apache-open-lru": apache_open_lru,
    "apache-libtm-turns": apache_libtm_turns,
    "memcache-soak": lambda: memcache_soak_table("memcache-soak"),
    "memcache-soak-before": lambda: memcache_soak_table("memcache-soak-before"),
    "memcache-soak-sizes": memcache_soak_sizes,
    **BLOCKS_CONFLICTS,
}


def readmes():
    """Every README.md of the repository (build/ aside)."""
    for folder, dirs, files in os.walk(TOP):
        dirs[:] = sorted(d for d in dirs if d not in ("build", ".git"))
        if "README.md" in files:
            yield os.path.join(folder, "README.md")


def regenerate(text, path, made):
    """text with every marked table made anew; made collects the names met."""
    def fill(match):
        start, name, _, end = match.groups()
        if name not in BLOCKS:
            raise SystemExit(f"readme-tables: {os.path.relpath(path, TOP)} marks an unknown table '{name}' "
                             f"(known: {', '.join(BLOCKS)})")
        made.add(name)
        return start + "\n".join(BLOCKS[name]()) + "\n" + end
    return MARKED.sub(fill, text)


def run(check):
    """Writes (or with check, compares) every README; returns the number that differ."""
    made, differ = set(), 0
    for path in readmes():
        with open(path) as f:
            old = f.read()
        new = regenerate(old, path, made)
        if new == old:
            continue
        differ += 1
        rel = os.path.relpath(path, TOP)
        if check:
            print("".join(difflib.unified_diff(old.splitlines(True), new.splitlines(True),
                                               f"{rel} (as it is)", f"{rel} (from results/)")))
        else:
            with open(path, "w") as f:
                f.write(new)
            print(f"readme-tables: wrote {rel}")
    missing = [name for name in BLOCKS if name not in made]
    if missing:
        raise SystemExit(f"readme-tables: no README marks {', '.join(missing)}")
    return differ
