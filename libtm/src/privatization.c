/* Privatization safety. A transaction may make data private: a committed transaction unlinks
 * a node, or a read-only one sees that another did, and the thread then uses the node with
 * plain accesses. Transactions that started earlier may still be running with an older
 * snapshot and threaten that in two ways: a doomed one could read the private data (and act
 * on it before it notices it is doomed), or it could have written into the data in place and
 * roll that back later. After committing, with the time its commit returned (algo.h):
 *
 * 1. Every older transaction gets its read limit set to 0 (tx.h). Its next barrier then
 *    validates its reads and moves its snapshot on, or restarts if it is doomed; a read that
 *    was already under way when the limit fell checks the limit again after loading the value
 *    and discards the value. So no older transaction uses a value this thread writes later,
 *    and nobody has to wait for transactions that hold no written data: a read-only or a not
 *    yet writing one, even one that is preempted.
 * 2. The thread waits for the older transactions that hold locks over data written in place
 *    (their dirty flag): until they moved their snapshot past the time (they validated: their
 *    writes are not to data this commit privatized, which they would have read as shared) or
 *    ended (rolled back what they wrote). A transaction that takes its first lock after this
 *    thread looked sets the flag before the lock's atomic instruction and checks its limit
 *    after it, so it validates before it writes anything.
 *
 * Waiting costs a few hundred cycles while the other thread runs: it answers from its next
 * barrier. The wait spins while the other thread is likely on a processor (no more threads
 * than processors), then sleeps on the other's descriptor until it publishes; a sleeper that a
 * racing publish misses wakes after WAIT_BACKSTOP_NS at the latest. */
#include "privatization.h"
#include "registry.h"
#include "wait.h"

#define WAIT_BACKSTOP_NS (1000 * 1000L)

/* The other transaction validates and moves to the current time (at least `time`). The
 * release store orders this thread's commit (its reading of the clock included) before the
 * other's answer, which reads the clock after taking the request. */
static void request_move(struct tm_tx *d)
{
    if (atomic_load_explicit(&d->read_limit, memory_order_relaxed) != 0)
        atomic_store_explicit(&d->read_limit, 0, memory_order_release);
}

static bool holds_up(struct tm_tx *d, uint64_t time)
{
    return atomic_load_explicit(&d->published, memory_order_acquire) < time &&
           atomic_load_explicit(&d->dirty, memory_order_acquire);
}

static void sleep_on(struct tm_tx *d, uint64_t time)
{
    uint32_t seq = atomic_load_explicit(&d->moved, memory_order_acquire);
    atomic_fetch_add_explicit(&d->move_waiters, 1, memory_order_seq_cst);
    if (holds_up(d, time))
        tm_futex_wait(&d->moved, seq, WAIT_BACKSTOP_NS);
    atomic_fetch_sub_explicit(&d->move_waiters, 1, memory_order_relaxed);
}

void tm_privatization_wait(struct tm_tx *self, uint64_t time)
{
    bool older = false;
    for (struct tm_tx *d = tm_all_descriptors(); d; d = d->next_all) {
        if (d != self && atomic_load_explicit(&d->published, memory_order_acquire) < time) {
            request_move(d);
            older = true;
        }
    }
    if (!older)
        return;
    /* The requests are visible before the dirty flags are read (see 2. above). */
    atomic_thread_fence(memory_order_seq_cst);
    /* One spin for the whole wait, not one per transaction waited for: with many threads on
     * few processors most of those are preempted, and spinning only keeps them from running. */
    struct tm_wait wait = tm_wait_start();
    for (struct tm_tx *d = tm_all_descriptors(); d; d = d->next_all) {
        if (d == self)
            continue;
        while (holds_up(d, time)) {
            if (!tm_wait_spinning(&wait))
                sleep_on(d, time);
        }
    }
}

void tm_privatization_wake(struct tm_tx *tx)
{
    atomic_fetch_add_explicit(&tx->moved, 1, memory_order_release);
    tm_futex_wake(&tx->moved);
}
