/* The hardware (Intel RTM) fast path: begin_x86_64.S starts hardware transactions while htm
 * mode is on; this is the C side (abort policy, commit; the guards of the entry points are in
 * htm_guard.h). See htm.c. */
#ifndef LIBTM_HTM_H
#define LIBTM_HTM_H

#include "htm_guard.h"
#include "thread.h"

void tm_htm_commit_slow(struct tm_tx *tx);

/* Hardware commits per call of the tuner: a hardware transaction costs a few nanoseconds, the
 * tuner's shared counters and clock read far more; few enough that a 5 ms probe counts them
 * well. A power of two. */
#define TM_HTM_COUNT_BATCH 64

/* Commits a (flat) nested transaction, or ends the hardware transaction we are in (tm_in_htm()
 * said so); the outermost commit is counted in the descriptor (created now if the thread's
 * first transaction ran in hardware). */
static inline void tm_htm_commit(void)
{
    if (unlikely(tm_htm_nested)) {
        tm_htm_nested--;
        return;
    }
    __asm__ volatile("xend" : : : "memory");
    struct tm_tx *tx = tm_self();
    if (unlikely(++tx->htm_commits % TM_HTM_COUNT_BATCH == 0 || tm_stats_enabled))
        tm_htm_commit_slow(tx);
}

#endif
