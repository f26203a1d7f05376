/* The hardware (Intel RTM) fast path: begin_x86_64.S starts hardware transactions while htm
 * mode is on; this is the C side (mode flag, abort policy, commit, guards). See htm.c. */
#ifndef LIBTM_HTM_H
#define LIBTM_HTM_H

#include "tx.h"
#include "stub_abi.h"
#include "mode.h"

/* The mode flag is tm_serial_lock.htm_mode (mode.h): every hardware transaction reads it, so
 * switching it off aborts them all. */

/* Transactions flat-nested in the hardware transaction the thread is in. Only written inside
 * hardware transactions (nested begins in begin_x86_64.S, nested commits), so an abort rolls
 * it back and outside one it is always 0. */
extern __thread uint32_t tm_htm_nested __attribute__((visibility("hidden")));

/* True inside a hardware transaction. The mode is on in every hardware transaction (switching
 * it off aborts them), and xtest is only executed then: CPUs without RTM fault on it. */
static inline bool tm_in_htm(void)
{
    if (likely(!tm_htm_mode_on()))
        return false;
    bool in;
    __asm__ volatile("xtest" : "=@ccnz"(in));
    return in;
}

/* Entry points that need the software runtime call this first: inside a hardware transaction
 * it aborts it, and the retry runs in software. Outside one xabort does nothing. */
static inline void tm_htm_need_software(void)
{
    if (unlikely(tm_htm_mode_on()))
        __asm__ volatile("xabort %0" : : "i"(TM_HTM_ABORT_SOFTWARE) : "memory");
}

void tm_htm_init(void);                         /* cpuid and LIBTM_HTM, into tm_config */
void tm_htm_commit_slow(struct tm_tx *tx);
extern bool tm_stats_enabled __attribute__((visibility("hidden")));

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
