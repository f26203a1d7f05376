/* Privatization safety. A transaction may make data private: a committed transaction unlinks
 * a node, or a read-only one sees that another did, and the thread then uses the node with
 * plain accesses. Transactions that started earlier may still be running with an older
 * snapshot: a doomed one could read the private data, or have written into it in place and
 * roll that back later. So after committing, the thread waits until every other running
 * transaction has moved past the time the commit returned (algo.h): it has ended, or its
 * snapshot is at least that new.
 *
 * Waiting for the others to end would serialise long transactions (the committer waits on
 * average half of the other's transaction). Instead the waiting thread raises the other's
 * read limit (tx.h); that transaction's next barrier answers it by validating its reads and moving
 * its snapshot to the current time (a transaction that is not doomed goes on; a doomed one
 * restarts, undoing its in-place writes first). The wait is then a few hundred cycles while
 * the other thread runs. It spins while the other thread is likely on a processor (no more
 * threads than processors) and yields otherwise; a transaction that runs a long stretch
 * without barriers (pure code) is waited for until it ends. */
#include "tx.h"

/* The other transaction moves to the current time, which is at least `time`. */
static void request_move(struct tm_tx *d)
{
    if (atomic_load_explicit(&d->read_limit, memory_order_relaxed) != 0)
        atomic_store_explicit(&d->read_limit, 0, memory_order_relaxed);
}

void tm_privatization_wait(struct tm_tx *self, uint64_t time)
{
    for (struct tm_tx *d = tm_all_descriptors(); d; d = d->next_all) {
        if (d == self || atomic_load_explicit(&d->published, memory_order_acquire) >= time)
            continue;
        request_move(d);
        struct tm_wait wait = tm_wait_start();
        while (atomic_load_explicit(&d->published, memory_order_acquire) < time)
            tm_wait_for_thread(&wait);
    }
}
