/* The two entries of the libitm ABI that the module calls directly (exported by GCC's libitm
 * and by libtm). Declared here because GCC ships no public header for them;
 * transaction_pure lets a transaction call the commit-handler entry without instrumentation. */
#ifndef MEMCACHE_ITM_ABI_H
#define MEMCACHE_ITM_ABI_H

#include <stdint.h>

typedef void (*_ITM_userCommitFunction)(void *);
typedef uint64_t _ITM_transactionId_t;
#define _ITM_noTransactionId 1

extern void _ITM_addUserCommitAction(_ITM_userCommitFunction, _ITM_transactionId_t, void *)
    __attribute__((transaction_pure));

#endif
