"""Why transactions aborted: the conflict tables that libtm-stats --conflicts --json wrote
(LIBTM_CONFLICTS=1 runs of scripts/quake-bench --conflicts and scripts/apache-bench
--conflicts), as README tables: the classes' shares, then the most frequent rows."""
import json

from reports.common import markdown_table

CLASSES = ("true", "false_stripe", "false_alias", "unknown")


def percent(part, whole):
    return f"{100.0 * part / whole:.1f} %" if whole else "-"


class Study:
    def __init__(self, path):
        with open(path) as f:
            self.data = json.load(f)
        self.path = path
        self.rows = sorted(self.data.get("conflicts", []), key=lambda r: (-r["count"], r["location"]))
        self.recorded = self.data.get("recorded_conflicts", sum(r["count"] for r in self.rows))
        self.aborts = self.data.get("conflict_aborts", self.recorded)

    def by_class(self):
        """{class: count} over every row (the tool's by_class when it gives one)."""
        counted = {c: 0 for c in CLASSES}
        for r in self.rows:
            counted[r["class"]] = counted.get(r["class"], 0) + r["count"]
        return self.data.get("by_class", counted)

    def summary(self):
        """One line: the conflict aborts, those recorded and the classes' shares of them."""
        classes = self.by_class()
        shares = ", ".join(f"{c} {classes[c]} ({percent(classes[c], self.recorded)})"
                           for c in CLASSES if classes.get(c))
        return (f"conflict aborts {self.aborts}, recorded {self.recorded}"
                + (f": {shares}" if shares else ""))

    def reason_class_table(self):
        """Counts by reason (validate, conflict_read, conflict_write) and class."""
        reasons = sorted({r["reason"] for r in self.rows})
        classes = [c for c in CLASSES if any(r["class"] == c for r in self.rows)]
        rows = []
        for reason in reasons:
            counts = [sum(r["count"] for r in self.rows if r["reason"] == reason and r["class"] == c)
                      for c in classes]
            rows.append([reason] + [f"{n} ({percent(n, self.recorded)})" for n in counts])
        return markdown_table(["reason"] + classes, rows)

    def readme_table(self, top=8):
        """The `top` most frequent (victim, writer, location, reason, class) rows."""
        rows = [[f"`{r['victim']}`", f"`{r['writer']}`", f"`{r['location']}`", r["reason"], r["class"],
                 r["count"], percent(r["count"], self.recorded)] for r in self.rows[:top]]
        rest = sum(r["count"] for r in self.rows[top:])
        if rest:
            rows.append(["(the other rows)", "", "", "", "", rest, percent(rest, self.recorded)])
        return markdown_table(["victim block", "writer block", "location", "reason", "class", "count",
                               "share"], rows)
