#!/usr/bin/python3
"""The report of scripts/quake-bench --qc-cost: QuakeWorld's own game (id's qwprogs.dat) on
mvdsv -progtype 0 and on qwsv, the same recorded fight replayed in real time.

  quake-qc-report.py CSV FUNCTIONS [--run RUN]

CSV is results/quake-qc.csv (one row per run, quake-bench's columns), FUNCTIONS the file
qwsv -qcfunctions wrote in the last run (each QuakeC function with its calls, or "never").
Prints: server CPU per 1,000 moves acknowledged to the bots (median of the rounds) of mvdsv, qwsv 1 thread lock and
stm, with the ratios the goals name (qwsv LOCK / mvdsv <= 1.0, STM / LOCK <= 1.15); the
aborts of qwsv 2 threads stm and stm-orec (libtm's statistics; the paper's 0.42 %); and the
QuakeC functions the fights reached, with the ones never reached."""
import argparse
import csv
import statistics
import sys


def median(rows, column):
    values = [float(r[column]) for r in rows if r.get(column)]
    return statistics.median(values) if values else None


def per_move(rows):
    """Server CPU ms per 1,000 moves the bots got acknowledged (the same count for both
    servers: qwsv's own command count also holds the replays of lost packets)."""
    values = [float(r["server_cpu_s"]) * 1e6 / float(r["acked"]) for r in rows
              if r.get("server_cpu_s") and r.get("acked") and float(r["acked"]) > 0]
    return statistics.median(values) if values else None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("csv")
    ap.add_argument("functions")
    ap.add_argument("--run", help="only the rows of this run (default: the last run)")
    # an unknown option is named before argparse asks for the missing arguments
    for arg in sys.argv[1:]:
        if arg.startswith("-") and arg.split("=")[0] not in ("-h", "--help", "--run"):
            ap.error(f"unknown option {arg}")
    a = ap.parse_args()
    with open(a.csv, newline="") as f:
        rows = list(csv.DictReader(f))
    if not rows:
        sys.exit("quake-qc-report.py: %s has no rows" % a.csv)
    run = a.run or rows[-1]["run"]
    rows = [r for r in rows if r["run"] == run and r["status"] == "ok"]

    def pick(server, threads, mode):
        return [r for r in rows if r["server"] == server and r["threads"] == threads
                and r["mode"] == mode]

    mvdsv = per_move(pick("mvdsv", "1", "none"))
    lock = per_move(pick("qwsv", "1", "lock"))
    stm = per_move(pick("qwsv", "1", "stm"))
    first = rows[0] if rows else {}
    print("QuakeWorld's own game (id's qwprogs.dat): run %s, map %s, trace %s, %s bots at "
          "speed %s, %s s per run" % (run, first.get("map"), first.get("trace"),
                                      first.get("bots"), first.get("speed"),
                                      first.get("duration_s")))
    print("machine: %s" % first.get("machine", "?"))
    print()
    print("server CPU ms per 1,000 moves acknowledged to the bots (median of %d rounds, "
          "1 thread; /proc CPU time over each run)" % len(pick("qwsv", "1", "lock")))
    fmt = "  %-26s %8s   %s"
    print(fmt % ("mvdsv -progtype 0", "%.1f" % mvdsv if mvdsv else "-", ""))
    print(fmt % ("qwsv -sync lock", "%.1f" % lock if lock else "-",
                 "%.2f x mvdsv (goal <= 1.0)" % (lock / mvdsv) if lock and mvdsv else ""))
    print(fmt % ("qwsv -sync stm", "%.1f" % stm if stm else "-",
                 "%.2f x lock (goal <= 1.15)" % (stm / lock) if stm and lock else ""))
    print()
    print("qwsv 2 threads, libtm's statistics")
    for mode in ("stm", "stm-orec"):
        for r in pick("qwsv", "2", mode):
            if r.get("commits"):
                print("  %-10s commits %8s  aborts %6s (%s %%; the paper: 0.42 %%)  serial %s  "
                      "irrevocable %s" % (mode, r["commits"], r["aborts"], r["abort_pct"],
                                          r["serial"], r["irrevocable"]))
    print()
    reached, never = [], []
    with open(a.functions) as f:
        for line in f:
            name, _, calls = line.strip().rpartition(" ")
            (never if calls == "never" else reached).append(name)
    print("QuakeC functions reached: %d of %d (builtins not counted); never reached (%d):"
          % (len(reached), len(reached) + len(never), len(never)))
    line = " "
    for name in sorted(never):
        if len(line) + len(name) > 96:
            print(line)
            line = " "
        line += " " + name
    if line.strip():
        print(line)


if __name__ == "__main__":
    main()
