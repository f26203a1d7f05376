/* The parts of the _ITM_* ABI that the tests call directly (libtm/ABI.md §7, §9, §10, §13).
 * Declared here, not taken from libtm.h, so that the same programs run on GCC's libitm. */
#ifndef TMTEST_ITM_DECLS_H
#define TMTEST_ITM_DECLS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TMTEST_NO_TRANSACTION_ID 1ULL /* _ITM_noTransactionId */

enum { tmtest_outside = 0, tmtest_retryable = 1, tmtest_irrevocable = 2 }; /* _ITM_howExecuting */

int _ITM_inTransaction(void) __attribute__((transaction_pure));
uint64_t _ITM_getTransactionId(void) __attribute__((transaction_pure));
const char *_ITM_libraryVersion(void) __attribute__((transaction_pure));
void _ITM_addUserCommitAction(void (*fn)(void *), uint64_t resuming_id, void *arg)
    __attribute__((transaction_pure));
void _ITM_addUserUndoAction(void (*fn)(void *), void *arg) __attribute__((transaction_pure));
void _ITM_changeTransactionMode(int state) __attribute__((transaction_pure)); /* 0: serial-irrevocable */
void _ITM_dropReferences(void *addr, size_t len) __attribute__((transaction_pure));

#ifdef __cplusplus
}
#endif

#endif
