/* Contention managers (LIBTM_CM): what a transaction does when it finds a location owned by
 * another transaction, and before it restarts. Every wait is bounded and ends in yielding or
 * blocking, never in unbounded spinning. Called through events.c only. */
#ifndef LIBTM_CONTENTION_H
#define LIBTM_CONTENTION_H

#include "tx.h"

enum tm_cm_policy {
    CM_BACKOFF,   /* abort, then randomized exponential backoff (default) */
    CM_IMMEDIATE, /* abort and retry at once */
    CM_SPIN,      /* wait for the owner's transaction to end by spinning (bounded), then retry */
    CM_BLOCK,     /* wait for the owner's transaction to end on a futex (bounded) */
    CM_YIELD,     /* abort and yield the processor before retrying */
    CM_PRIORITY,  /* abort and lower the thread's scheduling priority until it commits */
    CM_POLICY_COUNT
};

extern const char *const tm_cm_names[CM_POLICY_COUNT];

/* A conflict with `owner`: returns true after waiting (look again), false to restart. */
bool tm_cm_conflict(struct tm_tx *tx, struct tm_tx *owner, enum tm_abort_reason reason);
/* Between rollback and re-execution. */
void tm_cm_before_restart(struct tm_tx *tx);
void tm_cm_restore_priority(struct tm_tx *tx);

/* After the outermost commit. */
static inline void tm_cm_after_commit(struct tm_tx *tx)
{
    if (unlikely(tm_config.cm == CM_PRIORITY))
        tm_cm_restore_priority(tx);
}

#endif
