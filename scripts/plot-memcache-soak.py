#!/usr/bin/python3
"""Table and figure of results/memcache-soak.csv (written by scripts/memcache-soak; the report
is scripts/reports/memcache_soak.py).

  plot-memcache-soak.py CSV PNG [--table TXT] [--no-plot]

Per run and sync mode: requests, wrong bodies, hit ratio, the cache's bytes, and the worker's
RSS at the start, after the warm-up, its peak, its growth and trend after the warm-up and its
parts at the end (malloc's heaps, other anonymous memory, stacks, files); then the goals of
scripts/goals.toml (every body right; RSS flat after the warm-up). The figure: RSS and its
parts against requests, one panel per run and mode."""
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ beside the scripts
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from reports import memcache_soak  # noqa: E402 (after the path)
from reports.common import fail, parse_command_line  # noqa: E402


def main(argv):
    (path, png), opts = parse_command_line(
        memcache_soak.PROG, __doc__, "plot-memcache-soak.py CSV PNG [--table TXT] [--no-plot]",
        argv, values=("--table",), flags=("--no-plot",))
    try:
        notes, runs, text = memcache_soak.load_and_report(path)
    except (OSError, KeyError, ValueError) as error:
        fail(memcache_soak.PROG, f"cannot read {path}: {error} (run scripts/memcache-soak first)")
    if not runs:
        fail(memcache_soak.PROG, f"{path} has no samples")
    if opts["table"]:
        with open(opts["table"], "w") as f:
            f.write(text)
        print(f"{memcache_soak.PROG}: wrote {opts['table']}")
    print(text, end="")
    if not opts["no-plot"]:
        memcache_soak.plot(runs, png)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
