"""What the Quake benchmarks' report scripts share (plot-quake-bench.py, plot-quake-sched.py):
their command line, their error messages, and the completed rows of one run of a quake-bench
CSV. Imported from the scripts' own folder."""
import csv
import sys


def fail(prog, msg):
    print(f"{prog}: {msg}", file=sys.stderr)
    sys.exit(1)


def number(row, key):
    """The row's value of key as a float, or None when it is missing or not a number."""
    try:
        return float(row[key])
    except (KeyError, TypeError, ValueError):
        return None


def parse_command_line(prog, doc, usage, argv, values=(), flags=()):
    """CSV PNG [--VALUE X ...] [--FLAG ...]: returns (csv, png, options), options naming each
    value option (without its dashes) with its value or None and each flag with True or False.
    --help/-h prints usage and doc (exit 0); an unknown option or a wrong count of files says
    so (exit 2)."""
    files, options = [], {name[2:]: None for name in values}
    options.update({name[2:]: False for name in flags})
    i = 1
    while i < len(argv):
        a = argv[i]
        if a in ("-h", "--help"):
            print(f"Usage: {usage}\n")
            print(doc.strip())
            sys.exit(0)
        if a in values:
            if i + 1 >= len(argv):
                fail(prog, f"{a} needs a value (see --help)")
            options[a[2:]] = argv[i + 1]
            i += 2
            continue
        if a in flags:
            options[a[2:]] = True
        elif a.startswith("-"):
            print(f"{prog}: unknown option {a} (see --help)", file=sys.stderr)
            sys.exit(2)
        else:
            files.append(a)
        i += 1
    if len(files) != 2:
        print(doc.strip(), file=sys.stderr)
        sys.exit(2)
    return files[0], files[1], options


def rows_of_run(prog, path, column, how_to_make, run=None):
    """(run, rows): the rows of run (default: the latest run id in the file) that completed
    (status ok: a failed run, whose server died or whose bots did not finish, stays in the CSV
    but not in a report). The file must have `column`, else `how_to_make` says what writes it."""
    try:
        with open(path, newline="") as f:
            rows = list(csv.DictReader(f))
    except OSError as e:
        fail(prog, f"{path}: {e.strerror}")
    if not rows or column not in rows[0]:
        fail(prog, f"{path}: no {how_to_make} rows (run scripts/{how_to_make})")
    if run is None:
        run = max(r["run"] for r in rows)
    rows = [r for r in rows if r["run"] == run and r.get("status") == "ok"]
    if not rows:
        fail(prog, f"{path}: no complete rows for run {run}")
    return run, rows
