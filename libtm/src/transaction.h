/* What the rest of the runtime asks of transaction.c: restart, become irrevocable, jump back
 * to a checkpoint, run an open transaction. */
#ifndef LIBTM_TRANSACTION_H
#define LIBTM_TRANSACTION_H

#include "tx.h"

void tm_restart(struct tm_tx *tx, enum tm_abort_reason reason) __attribute__((noreturn));
void tm_go_irrevocable(struct tm_tx *tx);
void tm_longjmp(const struct tm_jmpbuf *jb, uint32_t action) __attribute__((noreturn));
/* Runs fn(arg) as an open transaction of tx's (libtm_open, a compensation): a transaction of
 * its own, on another descriptor, that commits before this returns; beside tx's transaction if
 * one runs, else alone. `site` names it in the statistics. */
void tm_run_open(struct tm_tx *tx, itm_user_action fn, void *arg, void *site, bool compensation);

#endif
