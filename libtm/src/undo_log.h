/* The undo log of in-place writes (undo_log.c). */
#ifndef LIBTM_UNDO_LOG_H
#define LIBTM_UNDO_LOG_H

#include "tx.h"

void tm_undo_record(struct tm_tx *tx, const void *addr, size_t len);
void tm_undo_restore(struct tm_tx *tx, size_t from, const void *cfa);

#endif
