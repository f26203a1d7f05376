/* See mem_sync.h. */
#include "mem_sync.h"
#include "itm_abi.h"

void mem_sync_defer(const mem_sync_t *sync, mem_deferred_fn action, void *argument)
{
    if (sync->use_tm)
        _ITM_addUserCommitAction(action, _ITM_noTransactionId, argument);
    else
        action(argument);
}
