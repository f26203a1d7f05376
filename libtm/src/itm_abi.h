/* The constants of the _ITM_* ABI as GCC's -fgnu-tm code uses them (ABI.md §4, §6), and the
 * prototypes that differ from GCC's libitm.h (ABI.md §18). */
#ifndef LIBTM_ITM_ABI_H
#define LIBTM_ITM_ABI_H

#include <stddef.h>
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

/* The memory-transfer entry points: name suffix, source transactional?, destination
 * transactional? (Rn/Wn: that side is private). GCC's libitm.h declares them void, but GCC's
 * code uses their result as that of the memcpy, memmove or memset they replace, so they return
 * the destination. Returning a value where void was declared changes nothing for a caller
 * that ignores %rax. */
#define TM_TRANSFER_KINDS(X)                                                                 \
    X(RnWt, 0, 1) X(RnWtaR, 0, 1) X(RnWtaW, 0, 1)                                            \
    X(RtWn, 1, 0) X(RtWt, 1, 1) X(RtWtaR, 1, 1) X(RtWtaW, 1, 1)                              \
    X(RtaRWn, 1, 0) X(RtaRWt, 1, 1) X(RtaRWtaR, 1, 1) X(RtaRWtaW, 1, 1)                      \
    X(RtaWWn, 1, 0) X(RtaWWt, 1, 1) X(RtaWWtaR, 1, 1) X(RtaWWtaW, 1, 1)

#define TM_DECLARE_TRANSFER(SUFFIX, SRC_TM, DST_TM)                                          \
    void *_ITM_memcpy##SUFFIX(void *dst, const void *src, size_t n);                         \
    void *_ITM_memmove##SUFFIX(void *dst, const void *src, size_t n);
TM_TRANSFER_KINDS(TM_DECLARE_TRANSFER)
#undef TM_DECLARE_TRANSFER
void *_ITM_memsetW(void *dst, int c, size_t n);
void *_ITM_memsetWaR(void *dst, int c, size_t n);
void *_ITM_memsetWaW(void *dst, int c, size_t n);

#endif
