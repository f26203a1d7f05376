"""The goals of every benchmark study, from scripts/goals.toml (the only place they live).

As a command, for shell scripts:  goals.py SECTION KEY [KEY...]  prints one value."""
import os
import sys
import tomllib

PATH = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "goals.toml")
_loaded = None


def goals(section):
    """The goals of one study (a section of goals.toml) as a dict."""
    global _loaded
    if _loaded is None:
        with open(PATH, "rb") as f:
            _loaded = tomllib.load(f)
    return _loaded[section]


def paper_abort_pct():
    """Atomic Quake's published abort rates, {threads: percent}."""
    return {int(t): v for t, v in goals("atomic_quake")["paper_abort_pct"].items()}


def main(argv):
    if len(argv) < 3 or argv[1] in ("-h", "--help"):
        out = sys.stdout if len(argv) > 1 and argv[1] in ("-h", "--help") else sys.stderr
        print("Usage: goals.py SECTION KEY [KEY...]\nPrints one goal of scripts/goals.toml, "
              "e.g. goals.py atomic_quake paper_abort_pct 2", file=out)
        return 0 if out is sys.stdout else 2
    if argv[1].startswith("-"):
        print(f"goals.py: unknown option {argv[1]} (see --help)", file=sys.stderr)
        return 2
    try:
        value = goals(argv[1])
        for key in argv[2:]:
            value = value[key]
    except KeyError as missing:
        print(f"goals.py: {PATH} has no {' '.join(argv[1:])} ({missing} is missing)", file=sys.stderr)
        return 1
    print(value)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
