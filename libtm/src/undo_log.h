/* The undo log of in-place writes (undo_log.c). */
#ifndef LIBTM_UNDO_LOG_H
#define LIBTM_UNDO_LOG_H

#include "tx.h"

void tm_undo_record(struct tm_tx *tx, const void *addr, size_t len);
void tm_undo_restore(struct tm_tx *tx, size_t from, const void *cfa);
/* The first bytes that `b` logged and `a` logged too, outside b's own frames [frames_lo,
 * frames_hi) (dead once b ends): their address (and *len), or NULL. */
const void *tm_undo_overlap(const struct tm_tx *a, const struct tm_tx *b, uintptr_t frames_lo,
                            uintptr_t frames_hi, size_t *len);

#endif
