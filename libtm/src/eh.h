/* C++ exceptions in transactions (eh.c). */
#ifndef LIBTM_EH_H
#define LIBTM_EH_H

#include "tx.h"

void tm_eh_begin(struct tm_tx *tx);
void tm_eh_rollback(struct tm_tx *tx, const struct tm_checkpoint *cp);
uint32_t tm_eh_uncaught_count(void);
void tm_eh_discard_exception(void *exception);

#endif
