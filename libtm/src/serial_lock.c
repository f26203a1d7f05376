/* The serial lock: a reader-writer lock where readers are speculative transactions (one flag
 * per descriptor, Dekker-style against the lock word) and the writer is the one serial or
 * irrevocable transaction that must run alone.
 *
 * The lock word is a futex mutex among writers (0 free, 1 held, 2 held and someone sleeps);
 * readers treat any non-zero value as "a writer is there". Readers and writers that find the
 * word taken spin briefly, then sleep on it.
 *
 * Readers are many and writers rare, so the fence that a Dekker handshake needs sits on the
 * writer's side: a reader stores its flag and reads the word with only a compiler barrier
 * between, and a writer that must see the readers first makes every running thread of the
 * process execute a full barrier (membarrier(2), private expedited) before it reads their
 * flags. Where the kernel lacks membarrier, readers fence themselves.
 *
 * A writer only waits for readers when one can run: while the mode's algorithm is
 * speculative (mode.h), or while a thread alone runs its transactions on the read side
 * (tm_serial_lock_alone). In serial mode a writer takes the word and goes, like a mutex. */
#include "tx.h"
#include "mode.h"

#include <linux/membarrier.h>
#include <sys/syscall.h>
#include <unistd.h>

/* Alone on its cache line: every hardware transaction reads it, so a neighbour's writes would
 * abort them all. */
struct tm_serial_lock_line tm_serial_lock;
#define lock_word tm_serial_lock.word

bool tm_serial_asymmetric; /* membarrier works: readers need no fence (tx.h) */

void tm_serial_lock_init(void)
{
    tm_serial_asymmetric = syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) == 0;
}

/* The writer's side: every reader's flag store is visible, or that reader sees the word. */
static void writer_fence(void)
{
    if (!tm_serial_asymmetric ||
        syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0) != 0)
        atomic_thread_fence(memory_order_seq_cst);
}

bool tm_serial_writer_active(void)
{
    return atomic_load_explicit(&lock_word, memory_order_relaxed) != 0;
}

/* Sleeps until the lock word is 0 (it may be taken again by then). No spinning, as a mutex:
 * in serial mode the thread that holds the word is usually the one that takes it next, with
 * its data in its cache, while a spinning waiter would pull the word and the data over to its
 * core at every hand-over (at 2 threads on 2 cores this halves the throughput). */
static void wait_free(void)
{
    uint32_t c = atomic_load_explicit(&lock_word, memory_order_relaxed);
    while (c != 0) {
        /* Announce a sleeper so that the unlock wakes us. */
        if (c == 2 || atomic_compare_exchange_weak(&lock_word, &c, 2))
            tm_futex_wait(&lock_word, 2, 50 * 1000 * 1000);
        c = atomic_load_explicit(&lock_word, memory_order_relaxed);
    }
}

void tm_serial_read_lock(struct tm_tx *tx)
{
    for (;;) {
        atomic_store_explicit(&tx->reader, 1, memory_order_relaxed);
        tm_serial_reader_fence();
        if (likely(atomic_load_explicit(&lock_word, memory_order_relaxed) == 0))
            return;
        atomic_store_explicit(&tx->reader, 0, memory_order_relaxed);
        wait_free();
    }
}

static void drain_readers(struct tm_tx *self)
{
    writer_fence();
    for (struct tm_tx *d = tm_all_descriptors(); d; d = d->next_all) {
        if (d == self)
            continue;
        unsigned round = 0;
        while (atomic_load_explicit(&d->reader, memory_order_seq_cst))
            tm_wait_pause(&round);
    }
}

void tm_serial_write_lock(struct tm_tx *tx)
{
    uint32_t c = 0;
    if (unlikely(!atomic_compare_exchange_strong_explicit(&lock_word, &c, 1,
                                                          memory_order_seq_cst,
                                                          memory_order_relaxed))) {
        for (;;) {
            wait_free();
            c = 0;
            /* Taken with 2: a sleeper may have been lost in between, so the unlock wakes. */
            if (atomic_compare_exchange_strong(&lock_word, &c, 2))
                break;
        }
    }
    /* The mode changes only under the word: stable now. */
    if (tm_mode_algo()->speculative || tm_thread_count() <= 1)
        drain_readers(tx);
}

bool tm_serial_try_upgrade(struct tm_tx *tx)
{
    uint32_t c = 0;
    if (!atomic_compare_exchange_strong(&lock_word, &c, 1))
        return false;
    atomic_store_explicit(&tx->reader, 0, memory_order_release);
    drain_readers(tx); /* the caller is a speculative transaction: others may be too */
    return true;
}

void tm_serial_write_unlock(struct tm_tx *tx)
{
    (void)tx;
    if (atomic_exchange_explicit(&lock_word, 0, memory_order_release) == 2)
        tm_futex_wake(&lock_word);
}

void tm_serial_lock_after_fork(void)
{
    /* The child has only the forking thread: if it held the lock it still does. */
    struct tm_tx *self = tm_current;
    if (!self || self->serial_hold != HOLD_WRITE)
        atomic_store(&lock_word, 0);
}
