/* Deferred reclamation (reclaim.c): a block that a committed speculative transaction freed goes
 * back to the allocator only once no transaction that may still read it is running. */
#ifndef LIBTM_RECLAIM_H
#define LIBTM_RECLAIM_H

#include "tx.h"

/* Holds a block freed by the transaction this thread just committed. */
void tm_reclaim_defer(struct tm_tx *tx, const struct tm_alloc_record *r);
/* After a commit of this thread: releases the blocks that nobody can read any more, and
 * starts the wait for those just deferred. */
void tm_reclaim_after_commit(struct tm_tx *tx);
/* Whether the thread holds freed blocks (so its commits should call tm_reclaim_after_commit). */
static inline bool tm_reclaim_holds(const struct tm_tx *tx)
{
    return tx->reclaim.batches || tx->reclaim.pending.len;
}
/* Waits until every block the thread holds is released (thread exit). */
void tm_reclaim_drain(struct tm_tx *tx);

#endif
