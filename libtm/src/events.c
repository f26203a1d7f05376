/* Fan-out of transaction events to the policies (events.h), and the retry policy. */
#include "events.h"

void tm_event_thread_start(struct tm_tx *tx, unsigned threads)
{
    tm_stats_thread_start(tx);
    tm_cm_thread_start(tx);
    tm_adapt_threads_changed(tx, threads);
}

void tm_event_open_descriptor(struct tm_tx *tx, bool start)
{
    if (start) {
        tm_stats_thread_start(tx);
        tm_cm_thread_start(tx);
    } else {
        tm_stats_thread_exit(tx);
        tm_cm_thread_exit(tx);
    }
}

void tm_event_thread_exit(struct tm_tx *tx, unsigned threads)
{
    tm_stats_thread_exit(tx);
    tm_cm_thread_exit(tx);
    tm_adapt_threads_changed(NULL, threads);
}

/* The retry policy: a transaction that failed to become irrevocable, or restarted too often,
 * runs exclusively next time (the progress guarantee; for an open transaction, its outermost
 * transaction does); otherwise the contention manager decides when it restarts. An open
 * transaction's aborts do not drive the adaptive policy (see tm_event_open_commit). */
void tm_event_abort(struct tm_tx *tx, enum tm_abort_reason reason)
{
    tm_stats_abort(tx, reason);
    tm_cm_transaction_end(tx, false);
    if (reason == ABORT_USER)
        return;
    if (!tx->open_parent)
        tm_adapt_abort(tx);
    if (tx->go_serial || reason == ABORT_GO_SERIAL || tx->restarts >= tm_config.retries)
        tx->go_serial = true;
    else
        tm_cm_before_restart(tx);
}

void tm_event_nested_abort(struct tm_tx *tx)
{
    tm_stats_nested_abort(tx);
}

/* Out of line: conflicts are rare, and the algorithms' read and write paths that report them
 * stay small enough for the compiler to inline their parts (orec's read_chunk into orec_read
 * saves 2.6 instructions per rbtree operation). */
__attribute__((noinline)) bool tm_event_conflict(struct tm_tx *tx, struct tm_tx *owner,
                                                 enum tm_abort_reason reason)
{
    (void)reason;
    if (unlikely(tm_conflicts_enabled))
        tm_conflicts_note_owner(tx, owner);
    if (unlikely(tx->open_parent) && tm_open_ancestor(tx, owner)) {
        /* An open transaction met its own parent's location: the parent waits for it, so
         * waiting cannot help. Its outermost transaction restarts to run alone (transaction.c). */
        tx->go_serial = true;
        return false;
    }
    return tm_cm_conflict(tx, owner);
}

void tm_event_htm_commits(struct tm_tx *tx, unsigned commits)
{
    if (tm_stats_enabled && tx->htm_site)
        tm_stats_block_htm_commit(tx);
    if (commits) {
        tm_cm_transaction_end(tx, true);
        tm_adapt_htm_commits(tx, commits);
    }
}

void tm_event_htm_abort(struct tm_tx *tx, enum tm_htm_abort_kind kind)
{
    tm_stats_htm_abort(tx, kind);
}
