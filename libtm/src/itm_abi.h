/* The constants of the _ITM_* ABI as GCC's -fgnu-tm code uses them (ABI.md §4, §6). */
#ifndef LIBTM_ITM_ABI_H
#define LIBTM_ITM_ABI_H

#include <stdint.h>

/* _ITM_codeProperties: the word passed to _ITM_beginTransaction. */
enum {
    pr_instrumentedCode   = 0x0001,
    pr_uninstrumentedCode = 0x0002,
    pr_hasNoAbort         = 0x0008,
    pr_doesGoIrrevocable  = 0x0040,
    pr_undoLogCode        = 0x0400,
};

/* _ITM_actions: what _ITM_beginTransaction returns. */
enum {
    a_runInstrumentedCode   = 0x01,
    a_runUninstrumentedCode = 0x02,
    a_saveLiveVariables     = 0x04,
    a_restoreLiveVariables  = 0x08,
    a_abortTransaction      = 0x10,
};

/* _ITM_abortReason */
enum {
    userAbort  = 1,
    outerAbort = 16,
};

/* _ITM_howExecuting */
enum {
    outsideTransaction       = 0,
    inRetryableTransaction   = 1,
    inIrrevocableTransaction = 2,
};

#define ITM_NO_TRANSACTION_ID 1ULL
#define ITM_VERSION_NUMBER    90

typedef uint64_t itm_transaction_id;
typedef void (*itm_user_action)(void *);

#endif
