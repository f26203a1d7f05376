/* The serial lock: a reader-writer lock where readers are speculative transactions (one flag
 * per descriptor, Dekker-style against the lock word) and the writer is the one serial or
 * irrevocable transaction that must run alone.
 *
 * The lock word is a futex mutex among writers (0 free, 1 held, 2 held and a writer may
 * sleep), as glibc's mutex: a waiting writer sleeps on the word and an unlock wakes one of
 * them (waking all would send every sleeper onto the processors to find the word taken again,
 * which with 8 threads on 2 cores halves the throughput of serial mode). Readers treat any
 * non-zero value as "a writer is there" and sleep on a gate of their own, which an unlock
 * opens for all of them at once: they can all run.
 *
 * Readers are many and writers rare, so the fence that a Dekker handshake needs sits on the
 * writer's side: a reader stores its flag and reads the word with only a compiler barrier
 * between, and a writer that must see the readers first makes every running thread of the
 * process execute a full barrier (membarrier(2), private expedited) before it reads their
 * flags. Where the kernel lacks membarrier, readers fence themselves.
 *
 * A writer only waits for readers when one can run: while the mode's algorithm is speculative
 * (the lock line says so), or while a thread alone runs its transactions on the read side
 * (tm_serial_lock_alone). In serial mode a writer takes the word and goes, like a mutex. */
#include "serial_lock.h"
#include "wait.h"

#include <linux/membarrier.h>
#include <sys/syscall.h>
#include <unistd.h>

/* Alone on its cache line: every hardware transaction reads it, so a neighbour's writes would
 * abort them all. */
struct tm_serial_lock_line tm_serial_lock = { .algo = TM_ALGO_serial, .speculative = false };
#define lock_word tm_serial_lock.word

bool tm_serial_asymmetric; /* membarrier works: readers need no fence (tx.h) */

/* Where readers sleep while a writer holds the word: bumped by an unlock that saw sleepers. */
static struct {
    _Alignas(TM_CACHELINE) _Atomic uint32_t seq;
    _Atomic uint32_t sleepers;
} reader_gate;

void tm_serial_lock_init(void)
{
    tm_serial_asymmetric = syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) == 0;
}

/* The writer's side: every reader's flag store is visible, or that reader sees the word. */
void tm_serial_writer_fence(void)
{
    if (!tm_serial_asymmetric ||
        syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0) != 0)
        atomic_thread_fence(memory_order_seq_cst);
}

bool tm_serial_writer_active(void)
{
    return atomic_load_explicit(&lock_word, memory_order_relaxed) != 0;
}

/* A reader sleeps until the writer's unlock (the word may be taken again by then). No spinning:
 * the writer is an irrevocable transaction, which may run long. */
static void reader_wait(void)
{
    uint32_t seq = atomic_load_explicit(&reader_gate.seq, memory_order_acquire);
    atomic_fetch_add_explicit(&reader_gate.sleepers, 1, memory_order_seq_cst);
    /* Dekker with the unlock: it clears the word, then looks for sleepers. */
    if (atomic_load_explicit(&lock_word, memory_order_seq_cst) != 0)
        tm_futex_wait(&reader_gate.seq, seq, 0);
    atomic_fetch_sub_explicit(&reader_gate.sleepers, 1, memory_order_relaxed);
}

void tm_serial_read_lock_slow(struct tm_tx *tx)
{
    do {
        atomic_store_explicit(&tx->reader, 0, memory_order_relaxed);
        reader_wait();
    } while (!tm_serial_read_trylock(tx));
}

static void drain_readers(struct tm_tx *self)
{
    tm_serial_writer_fence();
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
        /* Sleep, as a mutex does: in serial mode the thread that holds the word usually takes
         * it next, with its data in its cache, while a spinning waiter would pull the word and
         * the data over to its processor at every hand-over. Taken with 2: other writers may
         * sleep, so the unlock wakes one. */
        while (atomic_exchange_explicit(&lock_word, 2, memory_order_seq_cst) != 0)
            tm_futex_wait(&lock_word, 2, 0);
    }
    /* The mode changes only under the word: stable now. */
    if (atomic_load_explicit(&tm_serial_lock.speculative, memory_order_relaxed) ||
        tm_thread_count() <= 1)
        drain_readers(tx);
}

bool tm_serial_try_upgrade(struct tm_tx *tx)
{
    uint32_t c = 0;
    if (!atomic_compare_exchange_strong(&lock_word, &c, 1))
        return false;
    /* The caller keeps its reader flag until it ends (tm_serial_write_unlock): it still holds
     * what it read speculatively, which deferred frees must wait for (reclaim.c). Nobody
     * drains readers meanwhile: that needs the word. */
    drain_readers(tx); /* the caller is a speculative transaction: others may be too */
    return true;
}

void tm_serial_write_unlock(struct tm_tx *tx)
{
    if (tx && atomic_load_explicit(&tx->reader, memory_order_relaxed))
        atomic_store_explicit(&tx->reader, 0, memory_order_release); /* an upgraded reader */
    if (atomic_exchange_explicit(&lock_word, 0, memory_order_seq_cst) == 2)
        tm_futex_wake_one(&lock_word);
    if (unlikely(atomic_load_explicit(&reader_gate.sleepers, memory_order_seq_cst))) {
        atomic_fetch_add_explicit(&reader_gate.seq, 1, memory_order_release);
        tm_futex_wake(&reader_gate.seq);
    }
}

void tm_serial_lock_after_fork(void)
{
    /* The child has only the forking thread: if it held the lock it still does. */
    struct tm_tx *self = tm_current;
    if (!self || self->serial_hold != HOLD_WRITE)
        atomic_store(&lock_word, 0);
    atomic_store(&reader_gate.sleepers, 0); /* they were the parent's other threads */
}
