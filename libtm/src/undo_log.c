/* The undo log: old bytes of every location written in place, restored newest first on
 * rollback. Entry layout: [data, padded to 8 bytes][address][length], so the log can be
 * walked backwards from its end. */
#include "undo_log.h"

#include <string.h>

static inline size_t pad8(size_t n) { return (n + 7) & ~(size_t)7; }

void tm_undo_record(struct tm_tx *tx, const void *addr, size_t len)
{
    size_t padded = pad8(len);
    uint8_t *entry = tm_log_append(&tx->undo_log, padded + sizeof(struct tm_undo_trailer));
    memcpy(entry, addr, len);
    struct tm_undo_trailer *t = (struct tm_undo_trailer *)(entry + padded);
    t->addr = (void *)addr;
    t->len = len;
}

/* The entry that ends at `pos` (walking the log backwards); returns where it starts. */
static size_t entry_before(const struct tm_log *log, size_t pos, const struct tm_undo_trailer **t)
{
    *t = (const struct tm_undo_trailer *)(log->data + pos - sizeof **t);
    return pos - sizeof **t - pad8((*t)->len);
}

static bool logged(const struct tm_log *log, uintptr_t lo, uintptr_t hi)
{
    for (size_t pos = log->len; pos > 0;) {
        const struct tm_undo_trailer *t;
        pos = entry_before(log, pos, &t);
        if ((uintptr_t)t->addr < hi && (uintptr_t)t->addr + t->len > lo)
            return true;
    }
    return false;
}

const void *tm_undo_overlap(const struct tm_tx *a, const struct tm_tx *b, uintptr_t frames_lo,
                            uintptr_t frames_hi, size_t *len)
{
    if (a->undo_log.len == 0)
        return NULL;
    for (size_t pos = b->undo_log.len; pos > 0;) {
        const struct tm_undo_trailer *t;
        pos = entry_before(&b->undo_log, pos, &t);
        uintptr_t lo = (uintptr_t)t->addr;
        if ((lo >= frames_lo && lo < frames_hi) || !logged(&a->undo_log, lo, lo + t->len))
            continue;
        *len = t->len;
        return t->addr;
    }
    return NULL;
}

/* Copies back the parts of [dst, dst+len) that lie outside the dead stack window [lo, hi). */
static void restore_outside(uint8_t *dst, const uint8_t *src, size_t len,
                            uintptr_t lo, uintptr_t hi)
{
    uintptr_t a = (uintptr_t)dst, b = a + len;
    if (b <= lo || a >= hi) {
        memcpy(dst, src, len);
        return;
    }
    if (a < lo)
        memcpy(dst, src, lo - a);
    if (b > hi)
        memcpy((uint8_t *)hi, src + (hi - a), b - hi);
}

/* Exception objects allocated by the transaction are either freed by the rollback or owned
 * (and maybe already destroyed) by the C++ runtime: writes into them are never restored. */
static bool inside_exception_object(const struct tm_tx *tx, const void *addr)
{
    size_t n = TM_LOG_COUNT(&tx->exception_objects, struct tm_undo_trailer);
    const struct tm_undo_trailer *e = (const struct tm_undo_trailer *)tx->exception_objects.data;
    for (size_t i = 0; i < n; i++)
        if ((uintptr_t)addr >= (uintptr_t)e[i].addr &&
            (uintptr_t)addr < (uintptr_t)e[i].addr + e[i].len)
            return true;
    return false;
}

/* Restores entries newer than `from`. The stack rule (libtm/ABI.md §11): bytes between this
 * function's frame (minus a margin) and the CFA of the begin we return to belong to frames that
 * are dead after the jump and overlap the stack we are running on, so they are not restored. */
void tm_undo_restore(struct tm_tx *tx, size_t from, const void *cfa)
{
    uintptr_t lo = (uintptr_t)__builtin_frame_address(0) - 256;
    uintptr_t hi = (uintptr_t)cfa;
    uint8_t *base = tx->undo_log.data;
    size_t pos = tx->undo_log.len;
    while (pos > from) {
        struct tm_undo_trailer *t = (struct tm_undo_trailer *)(base + pos - sizeof *t);
        size_t padded = pad8(t->len);
        uint8_t *data = (uint8_t *)t - padded;
        if (likely(tx->exception_objects.len == 0) || !inside_exception_object(tx, t->addr))
            restore_outside(t->addr, data, t->len, lo, hi);
        pos = (size_t)(data - base);
    }
    tx->undo_log.len = from;
}
