/* Contention managers (LIBTM_CM): what a transaction does when it finds a location owned by
 * another transaction, before it restarts, and when it ends. Every wait is bounded or ends
 * when the transaction waited for ends; none spins without limit. Called through events.c
 * only. */
#ifndef LIBTM_CONTENTION_H
#define LIBTM_CONTENTION_H

#include "config.h"
#include "tx.h"

enum tm_cm_policy {
    CM_BACKOFF,   /* abort, then randomized exponential backoff (default) */
    CM_IMMEDIATE, /* abort and retry at once */
    CM_SPIN,      /* wait for the owner's transaction to end by spinning (bounded), then retry */
    CM_BLOCK,     /* wait for the owner's transaction to end on a futex (bounded) */
    CM_YIELD,     /* abort and yield the processor before retrying */
    CM_PRIORITY,  /* abort and lower the thread's scheduling priority until it commits */
    CM_HANDOFF,   /* abort and sleep until the owner's transaction ends (it wakes the loser) */
    CM_SOFTPRIO,  /* abort; the loser's priority is lowered while the winner's transaction runs */
    CM_SLICE,     /* backoff, and yield after a commit once the thread ran a time slice */
    CM_POLICY_COUNT
};

extern const char *const tm_cm_names[CM_POLICY_COUNT];

/* A conflict with `owner`: returns true after waiting (look again), false to restart. */
bool tm_cm_conflict(struct tm_tx *tx, struct tm_tx *owner, enum tm_abort_reason reason);
/* Between rollback and re-execution. */
void tm_cm_before_restart(struct tm_tx *tx);
/* The outermost transaction ended (committed or rolled back): wake who waits for it. The
 * managers that only act on conflicts and restarts need nothing here. */
void tm_cm_ended(struct tm_tx *tx, bool committed);
static inline void tm_cm_transaction_end(struct tm_tx *tx, bool committed)
{
    if (unlikely(tm_config.cm_hears_ends))
        tm_cm_ended(tx, committed);
}
/* Whether `cm` needs tm_cm_ended (tm_config.cm_hears_ends, kept with tm_config.cm). */
static inline bool tm_cm_hears_ends(int cm)
{
    return cm != CM_BACKOFF && cm != CM_IMMEDIATE && cm != CM_YIELD;
}
void tm_cm_init(void); /* LIBTM_CM */
void tm_cm_thread_start(struct tm_tx *tx);
void tm_cm_thread_exit(struct tm_tx *tx);

#endif
