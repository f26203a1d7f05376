/* See mem_sync.h. */
#include "mem_sync.h"

#include <stdint.h>

/* The libitm ABI's commit-handler entry (exported by GCC's libitm and by libtm). Declared
 * here because GCC ships no public header for it; transaction_pure lets a transaction call
 * it without instrumentation. */
typedef void (*_ITM_userCommitFunction)(void *);
typedef uint64_t _ITM_transactionId_t;
#define _ITM_noTransactionId 1
extern void _ITM_addUserCommitAction(_ITM_userCommitFunction, _ITM_transactionId_t, void *)
    __attribute__((transaction_pure));

mem_sync_t mem_sync;

void mem_sync_defer(mem_deferred_fn action, void *argument)
{
    if (mem_sync.use_tm)
        _ITM_addUserCommitAction(action, _ITM_noTransactionId, argument);
    else
        action(argument);
}
