/* The two synchronisation modes' run-time parts: lock mode's mutex, tm mode's commit
 * actions; see mem_sync.h. */
#include "mem_sync.h"

#include <stdio.h>
#include <stdlib.h>

#include <apr_errno.h>

/* Runs in a child process whose stderr is httpd's error log. */
__attribute__((noreturn)) static void stop(const char *what, apr_status_t status)
{
    char reason[120] = "";
    if (status != APR_SUCCESS)
        apr_strerror(status, reason, sizeof(reason));
    fprintf(stderr, "mod_mem_cache: %s%s%s; stopping this process rather than run a critical "
            "section unprotected\n", what, status != APR_SUCCESS ? ": " : "", reason);
    fflush(stderr);
    abort();
}

void mem_sync_lock(const mem_sync_t *sync)
{
    if (!sync->lock)
        stop("a cache in MCacheSync lock mode has no mutex", APR_SUCCESS);
    apr_status_t status = apr_thread_mutex_lock(sync->lock);
    if (status != APR_SUCCESS)
        stop("cannot take the cache's mutex", status);
}

void mem_sync_unlock(const mem_sync_t *sync)
{
    apr_status_t status = apr_thread_mutex_unlock(sync->lock);
    if (status != APR_SUCCESS)
        stop("cannot release the cache's mutex", status);
}

#ifdef MEM_SYNC_LOCK_ONLY
void mem_sync_no_transactions(void)
{
    stop("a cache in MCacheSync tm mode, in a build without -fgnu-tm", APR_SUCCESS);
}
#endif

void mem_sync_defer(const mem_sync_t *sync, mem_deferred_fn action, void *argument)
{
#ifndef MEM_SYNC_LOCK_ONLY
    if (sync->use_tm) {
        _ITM_addUserCommitAction(action, LIBTM_NO_TRANSACTION_ID, argument);
        return;
    }
#else
    (void)sync;
#endif
    action(argument);
}
