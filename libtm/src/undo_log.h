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

/* An entry ends with where its bytes go, so that the log can be walked backwards:
 * [old bytes, padded to 8][address][length]. Also the layout of the exception_objects
 * entries: {address, length}. */
struct tm_undo_trailer {
    void *addr;
    size_t len;
};

/* The store barriers' fast path (barriers.h): whether an entry for an aligned value of 1, 2,
 * 4 or 8 bytes fits, and appending it. */
#define TM_UNDO_WORD_ENTRY (8 + sizeof(struct tm_undo_trailer))
static inline bool tm_undo_word_fits(const struct tm_tx *tx)
{
    return tx->undo_log.len + TM_UNDO_WORD_ENTRY <= tx->undo_log.cap;
}
static inline void tm_undo_push_word(struct tm_tx *tx, const void *addr, size_t len)
{
    uint8_t *e = tx->undo_log.data + tx->undo_log.len;
    tx->undo_log.len += TM_UNDO_WORD_ENTRY;
    *(uint64_t *)(void *)e = tm_load_aligned(addr, len);
    struct tm_undo_trailer *t = (struct tm_undo_trailer *)(void *)(e + 8);
    t->addr = (void *)addr;
    t->len = len;
}

#endif
