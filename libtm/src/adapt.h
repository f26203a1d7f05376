/* The adaptive choice between hardware transactions, speculation and serial execution
 * (DESIGN.md "Adapt to the machine"): with one thread, or when measured throughput says so,
 * transactions run serially (irrevocable and uninstrumented when they cannot cancel,
 * undo-logged when they can); with RTM and several threads, hardware transactions are
 * preferred while most transactions commit in hardware. */
#ifndef LIBTM_ADAPT_H
#define LIBTM_ADAPT_H

#include "tx.h"

bool tm_adapt_tuned_serial(void);
void tm_adapt_count(struct tm_tx *tx);
void tm_adapt_count_htm(struct tm_tx *tx, unsigned commits); /* more hardware commits */
void tm_adapt_threads_changed(unsigned count); /* a thread registered or left */
extern __thread unsigned tm_adapt_batched;
#define TM_ADAPT_BATCH 32

static inline bool tm_adapt_prefers_serial(struct tm_tx *tx)
{
    (void)tx;
    if (tm_config.forced)
        return false;
    return tm_thread_count() <= 1 || tm_adapt_tuned_serial();
}

static inline void tm_adapt_commit(struct tm_tx *tx)
{
    if (unlikely(++tm_adapt_batched >= TM_ADAPT_BATCH) && !tm_config.forced)
        tm_adapt_count(tx);
}
const char *tm_adapt_mode_name(void);

#endif
