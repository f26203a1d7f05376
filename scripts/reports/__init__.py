"""The benchmark reports: one module per study (libtm_bench, libtm_cm_bench, atomic_quake,
quake_sweep, quake_sched, apache_bench) turns the raw CSV that a collector (scripts/libtm-bench,
libtm-cm-bench, quake-bench, apache-bench) wrote into medians, ratios, goal verdicts, tables
and plots; goals.py reads scripts/goals.toml, common.py holds what they share, readme_tables.py
writes the READMEs' measured tables from results/."""
