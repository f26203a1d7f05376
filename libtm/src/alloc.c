/* Transactional allocation: _ITM_malloc/_ITM_calloc/_ITM_free and the transactional clones of
 * C++ operator new/delete. Memory allocated by a transaction that rolls back is freed; frees
 * are deferred to the outermost commit (and dropped on rollback), and after a speculative
 * commit further until no transaction that may read the block runs (reclaim.c). libstdc++
 * is referenced weakly: C programs do not need it. */
#include "alloc.h"
#include "conflicts.h"
#include "fatal.h"
#include "free_block.h"
#include "htm_guard.h"
#include "reclaim.h"

#include <stdlib.h>

/* libstdc++'s operators (mangled names), present only in C++ programs. */
extern void *_Znwm(size_t) __attribute__((weak));
extern void *_Znam(size_t) __attribute__((weak));
extern void *_ZnwmRKSt9nothrow_t(size_t, const void *) __attribute__((weak));
extern void *_ZnamRKSt9nothrow_t(size_t, const void *) __attribute__((weak));

static void record(struct tm_tx *tx, void *ptr, size_t size, enum tm_alloc_kind kind)
{
    struct tm_alloc_record *r = TM_LOG_PUSH(&tx->allocs, struct tm_alloc_record);
    r->ptr = ptr;
    r->size = size;
    r->kind = kind;
    if (unlikely(tm_conflicts_enabled) && kind <= ALLOC_NEW_ARRAY)
        tm_conflicts_heap_alloc(tx, ptr, size);
}

/* Inside a hardware transaction allocation and free act at once: the hardware rolls them back
 * with everything else, and a commit makes them happen atomically with the transaction. */
static struct tm_tx *in_transaction(void)
{
    if (tm_in_htm())
        return NULL;
    struct tm_tx *tx = tm_current;
    return tx && tx->depth > 0 ? tx : NULL;
}

static bool is_deferred_free(enum tm_alloc_kind k)
{
    return k == FREE_MALLOC || k == FREE_DELETE || k == FREE_DELETE_ARRAY || k == FREE_DELETE_SIZED;
}

/* Records looked at for an allocation of the block a free releases (allocs_commit). */
#define SAME_TRANSACTION_LOOKBACK 32

/* Whether the block was allocated by the transaction itself (record i frees it): then no other
 * transaction ever used its address, which it could only have read from a location this one
 * had written (a value no algorithm hands out before this one committed). */
static bool allocated_here(const struct tm_tx *tx, size_t freeing)
{
    const struct tm_alloc_record *r = (const struct tm_alloc_record *)(void *)tx->allocs.data;
    size_t stop = freeing > SAME_TRANSACTION_LOOKBACK ? freeing - SAME_TRANSACTION_LOOKBACK : 0;
    for (size_t i = freeing; i-- > stop;) {
        if (r[i].ptr == r[freeing].ptr && !is_deferred_free(r[i].kind))
            return true;
    }
    return false;
}

/* Frees what tx's committed transaction freed; held in `holder`'s reclaim lists while others
 * may read it. */
static inline void commit_frees(struct tm_tx *tx, struct tm_tx *holder, bool others_may_read)
{
    size_t n = TM_LOG_COUNT(&tx->allocs, struct tm_alloc_record);
    for (size_t i = 0; i < n; i++) {
        struct tm_alloc_record *r = TM_LOG_AT(&tx->allocs, struct tm_alloc_record, i);
        if (!is_deferred_free(r->kind))
            continue;
        if (others_may_read && !allocated_here(tx, i))
            tm_reclaim_defer(holder, r);
        else
            tm_free_block(r);
    }
    tx->allocs.len = 0;
}

void tm_allocs_commit(struct tm_tx *tx, bool others_may_read)
{
    commit_frees(tx, tx, others_may_read);
}

void tm_allocs_commit_open(struct tm_tx *open, struct tm_tx *outermost)
{
    commit_frees(open, outermost, tm_thread_count() > 1);
}

void tm_allocs_rollback(struct tm_tx *tx, size_t from)
{
    while (tx->allocs.len > from) {
        tx->allocs.len -= sizeof(struct tm_alloc_record);
        struct tm_alloc_record *r = (struct tm_alloc_record *)(tx->allocs.data + tx->allocs.len);
        if (!is_deferred_free(r->kind))
            tm_free_block(r);
    }
}

/* Forgets the allocation record of `ptr` (the exception object now belongs to the C++ runtime). */
void tm_allocs_forget(struct tm_tx *tx, void *ptr)
{
    size_t n = TM_LOG_COUNT(&tx->allocs, struct tm_alloc_record);
    for (size_t i = n; i-- > 0;) {
        struct tm_alloc_record *r = TM_LOG_AT(&tx->allocs, struct tm_alloc_record, i);
        if (r->ptr == ptr && !is_deferred_free(r->kind)) {
            *r = *TM_LOG_AT(&tx->allocs, struct tm_alloc_record, n - 1);
            tx->allocs.len -= sizeof *r;
            return;
        }
    }
}

void tm_allocs_record(struct tm_tx *tx, void *ptr, size_t size, enum tm_alloc_kind kind)
{
    record(tx, ptr, size, kind);
}

/* ---- C entry points (GCC replaces malloc/calloc/free inside transactions with these) ---- */

void *_ITM_malloc(size_t size)
{
    void *p = malloc(size);
    struct tm_tx *tx = in_transaction();
    if (p && tx)
        record(tx, p, size, ALLOC_MALLOC);
    return p;
}

void *_ITM_calloc(size_t n, size_t size)
{
    void *p = calloc(n, size);
    struct tm_tx *tx = in_transaction();
    if (p && tx)
        record(tx, p, n * size, ALLOC_MALLOC);
    return p;
}

void _ITM_free(void *ptr)
{
    if (!ptr)
        return;
    struct tm_tx *tx = in_transaction();
    if (tx)
        record(tx, ptr, 0, FREE_MALLOC);
    else
        tm_free_block(&(struct tm_alloc_record){ .ptr = ptr, .kind = FREE_MALLOC });
}

void _ITM_dropReferences(const void *addr, size_t len)
{
    (void)addr;
    (void)len;
    /* As GCC's runtime: the Intel ABI's semantics cannot be honoured with in-place writes. */
    tm_fatal("_ITM_dropReferences is not supported");
}

/* ---- C++ operator new/delete clones ---------------------------------------------------- */

static void *new_with(void *(*op)(size_t), size_t size, enum tm_alloc_kind kind, const char *name)
{
    if (!op)
        tm_fatal("%s called but libstdc++ is not loaded", name);
    void *p = op(size);
    struct tm_tx *tx = in_transaction();
    if (tx)
        record(tx, p, size, kind);
    return p;
}

static void *new_nothrow_with(void *(*op)(size_t, const void *), size_t size, const void *nt,
                              enum tm_alloc_kind kind, const char *name)
{
    if (!op)
        tm_fatal("%s called but libstdc++ is not loaded", name);
    void *p = op(size, nt);
    struct tm_tx *tx = in_transaction();
    if (p && tx)
        record(tx, p, size, kind);
    return p;
}

static void delete_later(void *ptr, size_t size, enum tm_alloc_kind kind)
{
    if (!ptr)
        return;
    struct tm_tx *tx = in_transaction();
    if (tx) {
        record(tx, ptr, size, kind);
        return;
    }
    struct tm_alloc_record r = { ptr, size, kind };
    tm_free_block(&r);
}

void *_ZGTtnwm(size_t size) { return new_with(_Znwm, size, ALLOC_NEW, "operator new"); }
void *_ZGTtnam(size_t size) { return new_with(_Znam, size, ALLOC_NEW_ARRAY, "operator new[]"); }
void *_ZGTtnwmRKSt9nothrow_t(size_t size, const void *nt)
{
    return new_nothrow_with(_ZnwmRKSt9nothrow_t, size, nt, ALLOC_NEW, "operator new(nothrow)");
}
void *_ZGTtnamRKSt9nothrow_t(size_t size, const void *nt)
{
    return new_nothrow_with(_ZnamRKSt9nothrow_t, size, nt, ALLOC_NEW_ARRAY,
                            "operator new[](nothrow)");
}
void _ZGTtdlPv(void *ptr) { delete_later(ptr, 0, FREE_DELETE); }
void _ZGTtdaPv(void *ptr) { delete_later(ptr, 0, FREE_DELETE_ARRAY); }
void _ZGTtdlPvRKSt9nothrow_t(void *ptr, const void *nt) { (void)nt; delete_later(ptr, 0, FREE_DELETE); }
void _ZGTtdaPvRKSt9nothrow_t(void *ptr, const void *nt) { (void)nt; delete_later(ptr, 0, FREE_DELETE_ARRAY); }
void _ZGTtdlPvm(void *ptr, size_t size) { delete_later(ptr, size, FREE_DELETE_SIZED); }
void _ZGTtdlPvmRKSt9nothrow_t(void *ptr, size_t size, const void *nt)
{
    (void)nt;
    delete_later(ptr, size, FREE_DELETE_SIZED);
}
