/* Transactional clone tables (.tm_clone_table of every object, registered by crtbegin).
 * Registration can run before any constructor of libtm (from another library's init), so all
 * state here is valid when zero-initialised. Tables are sorted in place by original address
 * and searched by range check + binary search. */
#include "clone_table.h"
#include "tx.h"
#include "fatal.h"
#include "htm_guard.h"

#include <pthread.h>
#include <stdlib.h>

struct clone_entry {
    void *original;
    void *clone;
};

struct clone_table {
    struct clone_entry *entries;
    size_t count;
    void *lowest, *highest;
    struct clone_table *next;
};

static pthread_rwlock_t tables_lock = PTHREAD_RWLOCK_INITIALIZER;
static struct clone_table *tables;

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
    pthread_rwlock_wrlock(&tables_lock);
    t->next = tables;
    tables = t;
    pthread_rwlock_unlock(&tables_lock);
}

void _ITM_deregisterTMCloneTable(void *table)
{
    pthread_rwlock_wrlock(&tables_lock);
    for (struct clone_table **p = &tables; *p; p = &(*p)->next) {
        if ((*p)->entries == table) {
            struct clone_table *dead = *p;
            *p = dead->next;
            free(dead);
            break;
        }
    }
    pthread_rwlock_unlock(&tables_lock);
}

void *tm_clone_lookup(void *fn)
{
    void *clone = NULL;
    pthread_rwlock_rdlock(&tables_lock);
    for (struct clone_table *t = tables; t && !clone; t = t->next) {
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
    pthread_rwlock_unlock(&tables_lock);
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
