/* Transactional clone tables (.tm_clone_table of every object, registered by crtbegin).
 * Registration can run before any constructor of libtm (from another library's init), so all
 * state here is valid when zero-initialised. Tables are sorted in place by original address
 * before they are linked in, and searched by range check + binary search.
 *
 * Lookups take no lock: every indirect call in a transaction asks for a clone, and a shared
 * reader lock would make every such call of every thread write the same cache line. Tables
 * change only when a library is loaded or unloaded: those changes take a mutex among
 * themselves and publish with release stores, and the node of a removed table is never freed
 * (a lookup may still be walking past it; its link still leads on). Removed nodes stay
 * reachable from a list of their own, so that leak checkers do not report them (every
 * program's own table is removed at exit). */
#include "clone_table.h"
#include "tx.h"
#include "fatal.h"
#include "htm_guard.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

struct clone_entry {
    void *original;
    void *clone;
};

struct clone_table {
    struct clone_entry *entries;
    size_t count;
    void *lowest, *highest;
    _Atomic(struct clone_table *) next;
    struct clone_table *next_removed;
};

static pthread_mutex_t changes_lock = PTHREAD_MUTEX_INITIALIZER;
_Atomic unsigned tm_clone_tables_changes;
static _Atomic(struct clone_table *) tables;
static struct clone_table *removed; /* under changes_lock */

static int by_original(const void *a, const void *b)
{
    uintptr_t x = (uintptr_t)((const struct clone_entry *)a)->original;
    uintptr_t y = (uintptr_t)((const struct clone_entry *)b)->original;
    return x < y ? -1 : x > y;
}

void _ITM_registerTMCloneTable(void *table, size_t count)
{
    if (!table || count == 0)
        return;
    struct clone_table *t = malloc(sizeof *t);
    if (!t)
        tm_fatal("out of memory registering a transactional clone table");
    t->entries = table;
    t->count = count;
    qsort(t->entries, count, sizeof *t->entries, by_original);
    t->lowest = t->entries[0].original;
    t->highest = t->entries[count - 1].original;
    pthread_mutex_lock(&changes_lock);
    atomic_store_explicit(&t->next, atomic_load_explicit(&tables, memory_order_relaxed),
                          memory_order_relaxed);
    atomic_store_explicit(&tables, t, memory_order_release);
    atomic_fetch_add_explicit(&tm_clone_tables_changes, 1, memory_order_release);
    pthread_mutex_unlock(&changes_lock);
}

void _ITM_deregisterTMCloneTable(void *table)
{
    pthread_mutex_lock(&changes_lock);
    for (_Atomic(struct clone_table *) *p = &tables; ; ) {
        struct clone_table *t = atomic_load_explicit(p, memory_order_relaxed);
        if (!t)
            break;
        if (t->entries == table) {
            atomic_store_explicit(p, atomic_load_explicit(&t->next, memory_order_relaxed),
                                  memory_order_release);
            t->next_removed = removed;
            removed = t;
            atomic_fetch_add_explicit(&tm_clone_tables_changes, 1, memory_order_release);
            break;
        }
        p = &t->next;
    }
    pthread_mutex_unlock(&changes_lock);
}

void *tm_clone_lookup(void *fn)
{
    void *clone = NULL;
    for (struct clone_table *t = atomic_load_explicit(&tables, memory_order_acquire); t && !clone;
         t = atomic_load_explicit(&t->next, memory_order_acquire)) {
        if ((uintptr_t)fn < (uintptr_t)t->lowest || (uintptr_t)fn > (uintptr_t)t->highest)
            continue;
        size_t lo = 0, hi = t->count;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            void *o = t->entries[mid].original;
            if (o == fn) {
                clone = t->entries[mid].clone;
                break;
            }
            if ((uintptr_t)o < (uintptr_t)fn)
                lo = mid + 1;
            else
                hi = mid;
        }
    }
    return clone;
}

void *_ITM_getTMCloneSafe(void *fn)
{
    tm_htm_need_software();
    void *clone = tm_clone_lookup(fn);
    if (!clone)
        tm_fatal_abort("no transactional clone for the function at %p called through a pointer "
                       "in an atomic transaction (declare it transaction_safe)", fn);
    return clone;
}
