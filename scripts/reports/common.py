"""What the report modules share: reading a collector's CSV, the arithmetic (medians, ratios,
verdicts), aligned text tables, the command line and its error messages."""
import csv
import statistics
import sys


def number(value):
    """value as a float, or None when it is empty, missing or not a number."""
    try:
        return float(value)
    except (TypeError, ValueError):
        return None


def field(row, key):
    """The row's value of key as a float, or None (missing column, empty cell, not a number)."""
    return number(row.get(key))


def median(values):
    """Median of the values that are not None, or None when there is none."""
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def ratio(a, b):
    """a / b, or None when either is missing or b is 0."""
    if a is None or b is None or b == 0:
        return None
    return a / b


def reaches(value, goal, digits):
    """Whether value, rounded to digits as the tables print it, is at least goal: a table
    that shows 0.900 next to a goal of 0.9 says 'met'."""
    return value is not None and round(value, digits) >= goal


def shown(value, fmt, missing="-"):
    """value formatted with fmt (a format spec such as '.2f'), or missing."""
    return missing if value is None else format(value, fmt)


def read_csv(path):
    """(notes, rows) of a collector's CSV: notes are its leading '# ' lines (what the run was:
    machine, rounds, ...), rows its records as dicts."""
    notes, lines = [], []
    with open(path, newline="") as f:
        for line in f:
            if line.startswith("#"):
                notes.append(line[1:].strip())
            else:
                lines.append(line)
    return notes, list(csv.DictReader(lines))


def note(notes, key):
    """The value of a 'key: value' note, or None."""
    for n in notes:
        name, sep, value = n.partition(":")
        if sep and name.strip() == key:
            return value.strip()
    return None


def ordered(values):
    """The values in their first order, each once."""
    return list(dict.fromkeys(values))


def text_table(head, rows):
    """Lines of an aligned table: the first column left-aligned, the others right-aligned, a
    rule under the head, an empty line after."""
    widths = [max(len(str(x)) for x in col) for col in zip(head, *rows)]

    def line(cells):
        return "  ".join(str(c).rjust(w) if i else str(c).ljust(w)
                         for i, (c, w) in enumerate(zip(cells, widths)))
    return [line(head), "  ".join("-" * w for w in widths)] + [line(r) for r in rows] + [""]


def markdown_table(head, rows):
    """Lines of a Markdown table."""
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    out += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return out


def publish(text, path=None):
    """Prints a report's text, and writes it to path when one is given."""
    print(text, end="")
    if path:
        with open(path, "w") as f:
            f.write(text)


def fail(prog, msg, status=1):
    print(f"{prog}: {msg}", file=sys.stderr)
    sys.exit(status)


def pyplot(prog):
    """matplotlib's pyplot without a display, or a clear error naming the Debian package.
    Imported on demand, so that --help and the tables work without it."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        fail(prog, f"{sys.executable} has no matplotlib: install the Debian package "
                   "python3-matplotlib (scripts/deps.sh)")
    return plt


def parse_command_line(prog, doc, usage, argv, values=(), flags=(), files=(2, 2)):
    """FILE... [--VALUE X ...] [--FLAG ...]: returns (files, options), options naming each
    value option (without its dashes) with its value or None and each flag with True or
    False; files=(fewest, most) files. --help/-h prints usage and doc (exit 0); an unknown
    option or a wrong count of files says so (exit 2)."""
    paths, options = [], {name[2:]: None for name in values}
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
            fail(prog, f"unknown option {a} (see --help)", 2)
        else:
            paths.append(a)
        i += 1
    if not files[0] <= len(paths) <= files[1]:
        fail(prog, f"usage: {usage} (see --help)", 2)
    return paths, options


def rows_of_run(prog, path, column, how_to_make, run=None):
    """(run, rows): the rows of run (default: the latest run id in the file) that completed
    (status ok: a failed run, whose server died or whose bots did not finish, stays in the CSV
    but not in a report). The file must have `column`, else `how_to_make` says what writes it."""
    try:
        _, rows = read_csv(path)
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
