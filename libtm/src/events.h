/* Every policy hears about transactions here, and only here: statistics (stats.c), the
 * contention manager (contention.c), the retry policy (below) and the adaptive mode choice
 * (adapt.c). The core (transaction.c, htm.c, thread.c) and the algorithms report events;
 * they call no policy directly. */
#ifndef LIBTM_EVENTS_H
#define LIBTM_EVENTS_H

#include "tx.h"
#include "adapt.h"
#include "contention.h"
#include "stats.h"

void tm_event_thread_start(struct tm_tx *tx, unsigned threads); /* threads: now registered */
void tm_event_thread_exit(struct tm_tx *tx, unsigned threads);  /* threads: still registered */

/* An outermost transaction (re)starts. Inline: every transaction pays for it. */
static inline void tm_event_begin(struct tm_tx *tx)
{
    if (unlikely(tm_stats_enabled))
        tm_stats_begin(tx);
}

/* The outermost transaction committed. */
static inline void tm_event_commit(struct tm_tx *tx)
{
    tm_stats_commit(tx);
    tm_cm_transaction_end(tx, true);
    tm_adapt_commit(tx);
}

/* An open transaction committed (transaction.c: libtm_open). Its thread's outermost
 * transaction still runs, so the adaptive policy, which may change the mode (the serial lock's
 * write side, which waits for that transaction), hears of it at that one's end only. */
static inline void tm_event_open_commit(struct tm_tx *tx)
{
    tm_stats_commit(tx);
    tm_cm_transaction_end(tx, true);
}
/* ... and what it was: libtm_open's function, or a compensation. */
static inline void tm_event_open_done(struct tm_tx *tx, bool compensation)
{
    if (compensation)
        tx->stats->compensations++;
    else
        tx->stats->open_commits++;
}
/* A descriptor for a thread's open transactions starts or stops serving it (the thread count
 * does not change). */
void tm_event_open_descriptor(struct tm_tx *tx, bool start);

/* The outermost transaction was rolled back for `reason` and will restart (unless it was
 * cancelled). Decides how it restarts: tx->go_serial. */
void tm_event_abort(struct tm_tx *tx, enum tm_abort_reason reason);
void tm_event_nested_abort(struct tm_tx *tx); /* a closed nested transaction cancelled */
/* tx found a location owned by `owner`. Returns true when the contention manager waited and
 * the algorithm should look again, false when the transaction must restart. */
bool tm_event_conflict(struct tm_tx *tx, struct tm_tx *owner, enum tm_abort_reason reason);
/* Hardware transactions: commits are reported in batches of TM_HTM_COUNT_BATCH (or one by one
 * while statistics are on); an abort is reported outside the transaction, before the retry. */
void tm_event_htm_commits(struct tm_tx *tx, unsigned commits);
void tm_event_htm_abort(struct tm_tx *tx, enum tm_htm_abort_kind kind);

#endif
