/* Contention management (LIBTM_CM): the dispatch to the selected manager (cm.h), which decides
 * what a transaction does when it finds a location owned by another transaction, before it
 * restarts, and when it ends. Called through events.c only. */
#ifndef LIBTM_CONTENTION_H
#define LIBTM_CONTENTION_H

#include "cm.h"
#include "config.h"
#include "tx.h"

/* A conflict with `owner`: returns true after waiting (look again), false to restart. */
static inline bool tm_cm_conflict(struct tm_tx *tx, struct tm_tx *owner)
{
    const struct tm_cm *cm = tm_config.cm;
    return cm->conflict && cm->conflict(tx, owner);
}
/* Between rollback and re-execution. */
static inline void tm_cm_before_restart(struct tm_tx *tx)
{
    const struct tm_cm *cm = tm_config.cm;
    if (cm->before_restart)
        cm->before_restart(tx);
}
/* The outermost transaction ended (committed or rolled back): only managers with an `ended`
 * operation hear it (tm_config.cm_hears_ends says so without a look at the manager). */
static inline void tm_cm_transaction_end(struct tm_tx *tx, bool committed)
{
    if (unlikely(tm_config.cm_hears_ends))
        tm_config.cm->ended(tx, committed);
}
void tm_cm_init(void); /* LIBTM_CM */
/* Every manager hears that a descriptor starts or stops serving a thread. */
void tm_cm_thread_start(struct tm_tx *tx);
void tm_cm_thread_exit(struct tm_tx *tx);

#endif
