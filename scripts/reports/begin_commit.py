"""What the smallest critical section costs in instructions (libtm/bench/callgrind-begin-commit
writes results/libtm-begin-commit.csv): libtm's serial begin + commit against GCC's libitm and
pthread_mutex_lock + unlock, medians of the rounds. The libtm README shows the table."""
from reports.common import field, markdown_table, median, ratio, read_csv, reaches, shown

RUNTIMES = ["libtm", "libitm", "mutex", "plain"]


class Study:
    def __init__(self, path):
        self.notes, rows = read_csv(path)
        self.threads = sorted({int(r["threads"]) for r in rows})
        self.sync, self.op = {}, {}
        for t in self.threads:
            for rt in RUNTIMES:
                mine = [r for r in rows if int(r["threads"]) == t and r["runtime"] == rt]
                self.sync[t, rt] = median(field(r, "sync_ir") for r in mine)
                self.op[t, rt] = median(field(r, "op_ir") for r in mine)

    def beyond_plain(self, t, rt):
        """Instructions per operation beyond the plain increment's."""
        a, b = self.op.get((t, rt)), self.op.get((t, "plain"))
        return None if a is None or b is None else a - b

    def goal_met(self, t):
        """libtm's begin + commit costs no more than the mutex's lock + unlock."""
        r = ratio(self.sync.get((t, "libtm")), self.sync.get((t, "mutex")))
        return r is not None and not reaches(r, 1.005, 2)

    def readme_table(self):
        head = ["threads", "libtm begin + commit", "GCC's libitm begin + commit",
                "pthread_mutex_lock + unlock", "libtm / mutex", "operation beyond a plain "
                "increment: libtm / libitm / mutex", "goal: libtm <= mutex"]
        rows = []
        for t in self.threads:
            libtm, libitm, mutex = (self.sync.get((t, rt)) for rt in ("libtm", "libitm", "mutex"))
            beyond = " / ".join(shown(self.beyond_plain(t, rt), ".1f") for rt in ("libtm", "libitm", "mutex"))
            rows.append([t, shown(libtm, ".1f"), shown(libitm, ".1f"), shown(mutex, ".1f"),
                         shown(ratio(libtm, mutex), ".2f"), beyond,
                         "met" if self.goal_met(t) else "not met"])
        return markdown_table(head, rows)
