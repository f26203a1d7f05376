/* See mem_sync.h. */
#include "mem_sync.h"

void mem_sync_defer(const mem_sync_t *sync, mem_deferred_fn action, void *argument)
{
    if (sync->use_tm)
        _ITM_addUserCommitAction(action, LIBTM_NO_TRANSACTION_ID, argument);
    else
        action(argument);
}
