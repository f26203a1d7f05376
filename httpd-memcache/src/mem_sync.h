/* The switch between the two synchronisation modes of a cache (MCacheSync lock|tm).
 * MEM_CRITICAL(sync, statements) runs one critical section either under the cache's mutex
 * (httpd 2.2's design) or as a __transaction_atomic block. Work that must not run inside a
 * transaction (freeing, pool cleanup registration) goes through mem_sync_defer. */
#ifndef MEMCACHE_MEM_SYNC_H
#define MEMCACHE_MEM_SYNC_H

#include <libtm.h>

#include <apr_thread_mutex.h>

typedef struct mem_sync {
    int use_tm;                /* set once at start-up, read-only afterwards */
    apr_thread_mutex_t *lock;  /* lock mode only; NULL before child_init */
} mem_sync_t;

#define MEM_CRITICAL(sync, ...)                                \
    do {                                                       \
        const mem_sync_t *sync_ = (sync);                      \
        if (sync_->use_tm) {                                   \
            __transaction_atomic { __VA_ARGS__; }              \
        } else {                                               \
            if (sync_->lock)                                   \
                apr_thread_mutex_lock(sync_->lock);            \
            __VA_ARGS__;                                       \
            if (sync_->lock)                                   \
                apr_thread_mutex_unlock(sync_->lock);          \
        }                                                      \
    } while (0)

typedef void (*mem_deferred_fn)(void *argument);

/* Inside a MEM_CRITICAL(sync) section: in tm mode registers action(argument) to run after
 * the transaction commits (dropped if it aborts); in lock mode runs it at once, as 2.2 did. */
LIBTM_PURE void mem_sync_defer(const mem_sync_t *sync, mem_deferred_fn action, void *argument);

#endif
