/* The serial lock (serial_lock.c): readers are speculative transactions, the writer runs
 * alone. Its cache line also holds the execution mode (mode.h changes it). */
#ifndef LIBTM_SERIAL_LOCK_H
#define LIBTM_SERIAL_LOCK_H

#include "registry.h"

void tm_serial_lock_init(void);
void tm_serial_read_lock_slow(struct tm_tx *tx);
void tm_serial_write_lock(struct tm_tx *tx);
void tm_serial_write_unlock(struct tm_tx *tx);
/* What an unlock does after clearing the word, whose value was `word` (1: taken and nobody
 * sleeps, 2: a writer or a reader may sleep): wake them, and hand the turn on. */
void tm_serial_after_unlock(struct tm_tx *tx, uint32_t word);
bool tm_serial_try_upgrade(struct tm_tx *tx); /* reader -> writer, false if another writer */
bool tm_serial_writer_active(void);
/* Every reader flag stored before it is visible to the caller's next loads, and every reader
 * that stores its flag after it sees the caller's earlier stores (membarrier(2) where the
 * kernel has it, else a fence: readers then fence themselves). */
void tm_serial_writer_fence(void);
/* The lock word (0 free, else held by a writer) and the execution mode (mode.h: the htm mode
 * flag and the algorithm that new software transactions use), alone on a cache line: every
 * hardware transaction reads the first two (begin_x86_64.S: offsets 0 and 4), so writes to
 * neighbours would abort them; all change rarely, and the mode only under the write side. */
struct tm_serial_lock_line {
    _Alignas(TM_CACHELINE) _Atomic uint32_t word;
    _Atomic uint8_t htm_mode;    /* 1: new transactions try the hardware */
    _Atomic uint8_t algo;        /* enum tm_algo_id of new software transactions */
    _Atomic uint8_t speculative; /* ... and whether it runs beside others (readers can run) */
    /* Set at start-up when exclusive transactions must take the general path: statistics
     * on, or a contention manager that hears every end. The serial fast path (begin_x86_64.S)
     * takes the word and checks these four bytes with one compare-and-swap. */
    _Atomic uint8_t general_only;
    /* Turns (serial mode, several threads; serial_lock.c): whose transactions take the word
     * now (NULL: anybody's), who waits to be next, and when the turn began (monotonic ns).
     * Written when a turn changes hands, which is also the only time a hardware transaction
     * could mind: there are no turns while hardware transactions are on. */
    _Atomic(struct tm_tx *) turn;
    _Atomic(struct tm_tx *) next_turn;
    _Atomic int64_t turn_start;
    _Atomic uint32_t turn_woken; /* the queued thread was woken at the turn's end */
    char padding[TM_CACHELINE - sizeof(uint32_t) - 4 - 3 * sizeof(uint64_t) - sizeof(uint32_t)];
};
extern struct tm_serial_lock_line tm_serial_lock __attribute__((visibility("hidden")));

/* The mode in force (mode.h changes it). */
static inline bool tm_htm_mode_on(void)
{
    return atomic_load_explicit(&tm_serial_lock.htm_mode, memory_order_relaxed) != 0;
}

/* The algorithm of new software transactions (read again under the serial lock's read side:
 * stable while it is held). */
static inline const struct tm_algo *tm_mode_algo(void)
{
    return tm_algos[atomic_load_explicit(&tm_serial_lock.algo, memory_order_relaxed)];
}
void tm_serial_lock_after_fork(void);
/* The serial fast path's release (transaction.c): clears the word and returns what it held;
 * the caller calls tm_serial_after_unlock unless it was 1 and nobody queues for a turn. */
static inline uint32_t tm_serial_word_release(void)
{
    return atomic_exchange_explicit(&tm_serial_lock.word, 0, memory_order_release);
}

/* Exclusive transactions in serial mode take the word in turns: a thread that finds the word
 * taken waits in line, the holder keeps taking it alone for a turn and then hands over, so
 * that the word and the data stay in one processor's cache for a turn instead of moving at
 * every transaction (serial_lock.c). The word alone still makes the transactions exclusive:
 * a turn only says who tries to take it. */
static inline bool tm_serial_turn_allows(const struct tm_tx *tx)
{
    struct tm_tx *turn = atomic_load_explicit(&tm_serial_lock.turn, memory_order_relaxed);
    return !turn || turn == tx;
}
/* A thread waits for its turn: each release of the word must offer it (tm_serial_after_unlock). */
static inline bool tm_serial_turn_queued(void)
{
    return atomic_load_explicit(&tm_serial_lock.next_turn, memory_order_relaxed) != NULL;
}
/* The word for an exclusive transaction, in turns while the mode is serial (otherwise as
 * tm_serial_write_lock). */
void tm_serial_exclusive_lock(struct tm_tx *tx);
/* After a mode change (under the word): no turns. */
void tm_serial_turns_reset(void);
/* A thread leaves: it gives up its turn and its place in line. */
void tm_serial_turn_leave(struct tm_tx *tx);
extern bool tm_serial_asymmetric __attribute__((visibility("hidden")));

/* The reader's side of the serial lock's handshake: its flag before its look at the word. A
 * compiler barrier where writers issue membarrier(2) (serial_lock.c), a fence otherwise. */
static inline void tm_serial_reader_fence(void)
{
    if (likely(tm_serial_asymmetric))
        atomic_signal_fence(memory_order_seq_cst);
    else
        atomic_thread_fence(memory_order_seq_cst);
}

/* The reader flag of the thread's next attempt: odd, so never 0, and never the value of its
 * previous attempts (until 2^31 attempts later). */
static inline uint32_t tm_reader_value(struct tm_tx *tx)
{
    return (tx->attempts += 2) | 1;
}

/* The reader's flag, then its look at the word. */
static inline bool tm_serial_read_trylock(struct tm_tx *tx)
{
    atomic_store_explicit(&tx->reader, tm_reader_value(tx), memory_order_relaxed);
    tm_serial_reader_fence();
    return likely(atomic_load_explicit(&tm_serial_lock.word, memory_order_relaxed) == 0);
}

/* Waits while a writer holds the word (it sleeps). */
static inline void tm_serial_read_lock(struct tm_tx *tx)
{
    if (unlikely(!tm_serial_read_trylock(tx)))
        tm_serial_read_lock_slow(tx);
}

static inline void tm_serial_read_unlock(struct tm_tx *tx)
{
    atomic_store_explicit(&tx->reader, 0, memory_order_release);
}

/* A thread that is the only registered one runs exclusive transactions on the read side: a
 * new thread registers under the write side (thread.c), which waits for this flag. Returns
 * false when another thread is registered or a writer is there. */
static inline bool tm_serial_lock_alone(struct tm_tx *tx)
{
    atomic_store_explicit(&tx->reader, tm_reader_value(tx), memory_order_relaxed);
    tm_serial_reader_fence();
    if (likely(atomic_load_explicit(&tm_serial_lock.word, memory_order_relaxed) == 0 &&
               tm_thread_count() == 1))
        return true;
    atomic_store_explicit(&tx->reader, 0, memory_order_release);
    return false;
}

#endif
