/* Opacity: writers keep x == y (they increment both in one transaction) until the readers are
 * done; readers read x, wait until a writer has changed x in memory, then read y. A reader must never see x != y, not even one that is doomed to
 * abort or that cancels itself afterwards. A transaction_pure probe records an inconsistent
 * view and guards the array index computed from it (an unguarded zombie would crash). */
#include "tmtest.h"

struct shared {
    long x;
    char gap_x[4096]; /* x and y on different cache lines and ownership records */
    long y;
    char gap_y[4096];
    long reader_mark; /* readers also write (index, i), so that they conflict and abort */
};
static struct shared shared;
static long table[1] = { 1 };
#define MARK_SCALE 1000000000L
static atomic_long writer_commits;
static atomic_int readers_done;

static int writer_count = 2, reader_count = 2;
static long reader_transactions = 500;
static atomic_long reader_views, reader_cancels;

/* Returns once the word no longer holds `seen` in memory (a writer's store shows there as soon
 * as it is made, committed or not, with in-place writes), or after a bounded number of yields
 * (a serial runtime lets no writer run now). A plain load: pure, not transactional. */
TMTEST_PURE static void let_writers_write(const long *word, long seen)
{
    for (int i = 0; i < 5 && __atomic_load_n(word, __ATOMIC_ACQUIRE) == seen; i++)
        tmtest_yield(1);
}

/* Records an inconsistent view and says whether x - y may be used as an index. */
TMTEST_PURE static int consistent_view(long x, long y)
{
    atomic_fetch_add(&reader_views, 1);
    if (x != y) {
        tmtest_violation("a transaction read x = %ld and then y = %ld (writers keep x == y)", x, y);
        return 0;
    }
    return 1;
}

TMTEST_PURE static int readers_finished(void)
{
    return atomic_load(&readers_done) == reader_count;
}

static void writer(int index)
{
    (void)index;
    while (!readers_finished()) {
        __transaction_atomic {
            shared.x++;
            shared.y++;
        }
        /* Leave the cores to the readers now and then (2 writers could starve them). */
        if (atomic_fetch_add(&writer_commits, 1) % 64 == 0)
            tmtest_yield(1);
    }
}

static void reader(int index)
{
    long sink = 0;
    for (long i = 0; i < reader_transactions; i++) {
        int cancel_afterwards = (i + index) % 2;
        __transaction_atomic {
            long x = shared.x;
            let_writers_write(&shared.x, x);
            long y = shared.y;
            long index_from_view = x - y;
            if (!consistent_view(x, y))
                index_from_view = 0;
            sink += table[index_from_view];
            shared.reader_mark = index * MARK_SCALE + i;
            if (cancel_afterwards)
                __transaction_cancel;
        }
        if (cancel_afterwards)
            atomic_fetch_add(&reader_cancels, 1);
    }
    TMTEST_CHECK(sink > 0 || reader_transactions == 0, "reader %d never used its view", index);
    atomic_fetch_add(&readers_done, 1);
}

static void role(int index)
{
    if (index < writer_count)
        writer(index);
    else
        reader(index);
}

int main(int argc, char **argv)
{
    tmtest_init(argc, argv,
                "Writers keep x == y; readers that wait between reading x and y (and then write\n"
                "or cancel) must never see x != y.\n"
                "  --writers=N (2)  --readers=N (2)  --reader-tx=N (500)");
    writer_count = (int)tmtest_option(argc, argv, "writers", writer_count);
    reader_count = (int)tmtest_option(argc, argv, "readers", reader_count);
    reader_transactions = tmtest_option(argc, argv, "reader-tx", reader_transactions);

    tmtest_run_threads(writer_count + reader_count, role);

    tmtest_check_no_violations("opacity (x == y seen from inside transactions)");
    TMTEST_CHECK(shared.x == atomic_load(&writer_commits) && shared.y == shared.x,
                 "after the run x = %ld, y = %ld, expected both %ld (the committed writer "
                 "transactions)", shared.x, shared.y, atomic_load(&writer_commits));
    long mark_index = shared.reader_mark / MARK_SCALE, mark_i = shared.reader_mark % MARK_SCALE;
    TMTEST_CHECK(reader_transactions < 2 || (mark_index >= writer_count && (mark_i + mark_index) % 2 == 0),
                 "the readers' shared mark was last written by reader %ld in its transaction %ld,"
                 " which cancelled itself (a cancelled transaction must leave no trace)",
                 mark_index, mark_i);
    tmtest_note("%ld consistent views checked (including re-executions)",
                atomic_load(&reader_views));
    return 0;
}
