/* What the rest of the runtime asks of transaction.c: restart, become irrevocable, jump back
 * to a checkpoint. */
#ifndef LIBTM_TRANSACTION_H
#define LIBTM_TRANSACTION_H

#include "tx.h"

void tm_restart(struct tm_tx *tx, enum tm_abort_reason reason) __attribute__((noreturn));
void tm_go_irrevocable(struct tm_tx *tx);
void tm_longjmp(const struct tm_jmpbuf *jb, uint32_t action) __attribute__((noreturn));

#endif
