/* User commit and undo actions (actions.c). */
#ifndef LIBTM_ACTIONS_H
#define LIBTM_ACTIONS_H

#include "tx.h"

void tm_actions_run_commit(struct tm_tx *tx);
void tm_actions_rollback(struct tm_tx *tx, size_t from);

#endif
