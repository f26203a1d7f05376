/* The adaptive choice of the execution mode (mode.h): hardware transactions where the CPU has
 * them, each registered algorithm (algorithms.def) and serial execution are measured in turn,
 * and the fastest runs until the next measurement. Listens to events (events.c) only. */
#ifndef LIBTM_ADAPT_H
#define LIBTM_ADAPT_H

#include "tx.h"

void tm_adapt_count(struct tm_tx *tx);
void tm_adapt_htm_commits(struct tm_tx *tx, unsigned commits);
void tm_adapt_threads_changed(struct tm_tx *tx, unsigned count); /* tx NULL: a thread left */
void tm_adapt_init(void);
#define TM_ADAPT_BATCH 32

static inline void tm_adapt_commit(struct tm_tx *tx)
{
    if (unlikely(++tx->adapt_batched >= TM_ADAPT_BATCH))
        tm_adapt_count(tx);
}

/* Aborts do not count, but a thread that only aborts must still move the measurement on. */
static inline void tm_adapt_abort(struct tm_tx *tx)
{
    if (unlikely((tx->restarts & 31) == 0))
        tm_adapt_count(tx);
}

/* "htm", "orec", "norec" or "serial": the mode in force. */
const char *tm_adapt_mode_name(void);

#endif
