/* Privatization safety (privatization.c): after committing, make every older transaction
 * validate before it reads again, and wait for the older ones that hold data written in place.
 * The algorithms publish their snapshots with these and answer requests (tm_move_requested). */
#ifndef LIBTM_PRIVATIZATION_H
#define LIBTM_PRIVATIZATION_H

#include "tx.h"

void tm_privatization_wait(struct tm_tx *tx, uint64_t time);
void tm_privatization_wake(struct tm_tx *tx);
static inline bool tm_move_requested(const struct tm_tx *tx)
{
    return atomic_load_explicit(&tx->read_limit, memory_order_relaxed) == 0;
}
static inline void tm_publish(struct tm_tx *tx, uint64_t time)
{
    atomic_store_explicit(&tx->published, time, memory_order_release);
    if (unlikely(atomic_load_explicit(&tx->move_waiters, memory_order_relaxed)))
        tm_privatization_wake(tx);
}
static inline void tm_publish_end(struct tm_tx *tx)
{
    atomic_store_explicit(&tx->dirty, 0, memory_order_relaxed);
    tm_publish(tx, TM_INACTIVE);
}
/* Before the first lock: a committer that then misses the flag has made its request visible
 * first (the lock's compare-and-swap orders this store before the caller's next look at the
 * read limit). */
static inline void tm_mark_dirty(struct tm_tx *tx)
{
    if (!atomic_load_explicit(&tx->dirty, memory_order_relaxed))
        atomic_store_explicit(&tx->dirty, 1, memory_order_relaxed);
}

#endif
