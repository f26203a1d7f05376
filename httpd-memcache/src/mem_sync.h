/* The switch between the two synchronisation modes of a cache (MCacheSync lock|tm).
 * MEM_CRITICAL(sync, statements) runs one critical section either under the cache's mutex
 * (httpd 2.2's design) or as a __transaction_atomic block; what it calls is transaction_safe
 * and, in the provider, named *_in_section. Work that must not run inside a transaction
 * (freeing) goes through mem_sync_defer.
 * A build without -fgnu-tm (the plain unit harness) defines MEM_SYNC_LOCK_ONLY: it has lock
 * mode only. */
#ifndef MEMCACHE_MEM_SYNC_H
#define MEMCACHE_MEM_SYNC_H

#include <libtm.h>

#include <apr_thread_mutex.h>

typedef struct mem_sync {
    int use_tm;                /* set once at start-up, read-only afterwards */
    apr_thread_mutex_t *lock;  /* lock mode: created in child_init, before the cache */
} mem_sync_t;

/* Lock mode's way in and out. A section never runs unprotected: a lock-mode cache without
 * its mutex (a bug: mem_instances_start makes no cache without one) or a mutex that cannot
 * be taken stops the process with a message naming the cause. */
void mem_sync_lock(const mem_sync_t *sync);
void mem_sync_unlock(const mem_sync_t *sync);

#ifdef MEM_SYNC_LOCK_ONLY
/* Stops the process: a tm-mode cache in a build without transactions. */
__attribute__((noreturn)) void mem_sync_no_transactions(void);
#define MEM_SYNC_TRANSACTION(...) mem_sync_no_transactions()
#else
#define MEM_SYNC_TRANSACTION(...) __transaction_atomic { __VA_ARGS__; }
#endif

#define MEM_CRITICAL(sync, ...)                                \
    do {                                                       \
        const mem_sync_t *sync_ = (sync);                      \
        if (sync_->use_tm) {                                   \
            MEM_SYNC_TRANSACTION(__VA_ARGS__);                 \
        } else {                                               \
            mem_sync_lock(sync_);                              \
            __VA_ARGS__;                                       \
            mem_sync_unlock(sync_);                            \
        }                                                      \
    } while (0)

typedef void (*mem_deferred_fn)(void *argument);

/* Inside a MEM_CRITICAL(sync) section: in tm mode registers action(argument) to run after
 * the transaction commits (dropped if it aborts); in lock mode runs it at once, as 2.2 did. */
LIBTM_PURE void mem_sync_defer(const mem_sync_t *sync, mem_deferred_fn action, void *argument);

#endif
