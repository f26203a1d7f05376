/* User commit and undo actions, and open transactions' compensations (actions.c). */
#ifndef LIBTM_ACTIONS_H
#define LIBTM_ACTIONS_H

#include "tx.h"

void tm_actions_run_commit(struct tm_tx *tx);
/* Runs a compensation as a transaction (transaction.c); may restart the outermost transaction
 * instead of returning. */
typedef void (*tm_compensator)(struct tm_tx *tx, itm_user_action fn, void *arg);
void tm_actions_rollback(struct tm_tx *tx, size_t from, tm_compensator compensate);
/* libtm_open's compensation, registered in tx's transaction. */
void tm_actions_add_compensation(struct tm_tx *tx, itm_user_action fn, void *arg);
/* The commit actions of `from`, an open transaction that committed, join `to`'s (they run
 * after its outermost commit); the rest of from's list is dropped. */
void tm_actions_adopt_commit(struct tm_tx *to, struct tm_tx *from);

#endif
