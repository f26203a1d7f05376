/* The adaptive choice of the execution mode (mode.h): hardware transactions where the CPU has
 * them, each registered algorithm (algorithms.def) and serial execution are measured in turn,
 * and the fastest runs until the next measurement. Listens to events (events.c) only. */
#ifndef LIBTM_ADAPT_H
#define LIBTM_ADAPT_H

#include "tx.h"

void tm_adapt_check(struct tm_tx *tx); /* is the epoch over? */
void tm_adapt_htm_commits(struct tm_tx *tx, unsigned commits);
void tm_adapt_threads_changed(struct tm_tx *tx, unsigned count); /* tx NULL: a thread left */
void tm_adapt_init(void);
/* Commits between two looks at the clock (a power of two). */
#define TM_ADAPT_CHECK_EVERY 64

/* Each thread counts its commits in its own descriptor, which the tuner adds up at the end of
 * an epoch: a commit writes no shared cache line (a counter that both processors increment
 * moves between them at every batch, which costs a short transaction 10 %). */
static inline void tm_adapt_commit(struct tm_tx *tx)
{
    unsigned n = atomic_load_explicit(&tx->adapt_commits, memory_order_relaxed) + 1;
    atomic_store_explicit(&tx->adapt_commits, n, memory_order_relaxed);
    if (unlikely((n & (TM_ADAPT_CHECK_EVERY - 1)) == 0))
        tm_adapt_check(tx);
}

/* Aborts do not count, but a thread that only aborts must still move the measurement on. */
static inline void tm_adapt_abort(struct tm_tx *tx)
{
    if (unlikely((tx->restarts & 31) == 0))
        tm_adapt_check(tx);
}

/* "htm", "orec", "norec" or "serial": the mode in force. */
const char *tm_adapt_mode_name(void);

#endif
