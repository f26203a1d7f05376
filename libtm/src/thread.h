/* This thread's descriptor (thread.c): created at its first transaction, registered, recycled
 * when the thread exits; and the ids of its transactions. */
#ifndef LIBTM_THREAD_H
#define LIBTM_THREAD_H

#include "registry.h"

struct tm_tx *tm_tx_create(void);
/* The descriptor on which tx's open transactions run (transaction.c): taken from the registry
 * at the first, kept with tx, given back when the thread exits. It is not a thread: the thread
 * count does not change. */
struct tm_tx *tm_open_descriptor_take(struct tm_tx *tx);
static inline struct tm_tx *tm_open_descriptor(struct tm_tx *tx)
{
    return likely(tx->open_child) ? tx->open_child : tm_open_descriptor_take(tx);
}
static inline struct tm_tx *tm_self(void)
{
    struct tm_tx *tx = tm_current;
    if (unlikely(!tx || tx->generation != tm_fork_generation))
        tx = tm_tx_create();
    return tx;
}

uint64_t tm_new_id_block(struct tm_tx *tx);
/* A new transaction id (ids grow; a closed-nested transaction gets a larger one). */
static inline uint64_t tm_next_id(struct tm_tx *tx)
{
    if (likely(tx->id + 1 < tx->id_block_end))
        return ++tx->id;
    return tm_new_id_block(tx);
}

#endif
