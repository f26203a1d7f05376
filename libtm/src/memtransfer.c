/* _ITM_memcpy / _ITM_memmove (15 source/destination combinations each) and _ITM_memset.
 * Rn/Wn sides are accessed directly, Rt/Wt sides through the algorithm; large ranges go
 * through a small buffer chunk by chunk, in the direction memmove needs. The 15 names per
 * function come from one list. Every one returns its destination, as the string function it
 * replaces does: GCC's code uses the result (ABI.md §18). */
#include "tx.h"
#include "stats.h"

#include <string.h>

#define CHUNK 512

static void *transfer(void *dst, const void *src, size_t n, bool src_tm, bool dst_tm)
{
    struct tm_tx *tx = tm_current;
    if (n == 0)
        return dst;
    if (!tx || tx->depth == 0 || tx->state == TX_IRREVOCABLE)
        return memmove(dst, src, n);
    /* Sides on the transaction's own dead-at-rollback stack need no barriers. */
    if (src_tm && tm_private_stack(tx, src) && tm_private_stack(tx, (const uint8_t *)src + n - 1))
        src_tm = false;
    if (dst_tm && tm_private_stack(tx, dst) && tm_private_stack(tx, (uint8_t *)dst + n - 1))
        dst_tm = false;
    if (!src_tm && !dst_tm)
        return memmove(dst, src, n);
    if (unlikely(tm_stats_enabled)) {
        tx->bytes_read += src_tm ? n : 0;
        tx->bytes_written += dst_tm ? n : 0;
    }
    if (!dst_tm) {
        /* Reading straight into a private destination: no buffer needed unless they overlap. */
        if ((uintptr_t)dst + n <= (uintptr_t)src || (uintptr_t)src + n <= (uintptr_t)dst) {
            tx->algo->read(tx, src, dst, n);
            return dst;
        }
    }
    if (!src_tm && ((uintptr_t)dst + n <= (uintptr_t)src || (uintptr_t)src + n <= (uintptr_t)dst)) {
        tx->algo->write(tx, dst, src, n);
        return dst;
    }
    uint8_t buf[CHUNK];
    bool backwards = (uintptr_t)dst > (uintptr_t)src;
    size_t done = 0;
    while (done < n) {
        size_t len = n - done < CHUNK ? n - done : CHUNK;
        size_t off = backwards ? n - done - len : done;
        const uint8_t *s = (const uint8_t *)src + off;
        uint8_t *d = (uint8_t *)dst + off;
        if (src_tm)
            tx->algo->read(tx, s, buf, len);
        else
            memcpy(buf, s, len);
        if (dst_tm)
            tx->algo->write(tx, d, buf, len);
        else
            memcpy(d, buf, len);
        done += len;
    }
    return dst;
}

/* TM_TRANSFER_KINDS (itm_abi.h) names the 15 combinations. */
#define TM_DEFINE_TRANSFER(SUFFIX, SRC_TM, DST_TM)                                           \
    void *_ITM_memcpy##SUFFIX(void *dst, const void *src, size_t n)                          \
    {                                                                                        \
        return transfer(dst, src, n, SRC_TM, DST_TM);                                        \
    }                                                                                        \
    void *_ITM_memmove##SUFFIX(void *dst, const void *src, size_t n)                         \
    {                                                                                        \
        return transfer(dst, src, n, SRC_TM, DST_TM);                                        \
    }

TM_TRANSFER_KINDS(TM_DEFINE_TRANSFER)

static void *set(void *dst, int c, size_t n)
{
    struct tm_tx *tx = tm_current;
    if (!tx || tx->depth == 0 || tx->state == TX_IRREVOCABLE ||
        (n && tm_private_stack(tx, dst) && tm_private_stack(tx, (uint8_t *)dst + n - 1)))
        return memset(dst, c, n);
    if (unlikely(tm_stats_enabled))
        tx->bytes_written += n;
    uint8_t buf[CHUNK];
    memset(buf, c, n < CHUNK ? n : CHUNK);
    for (size_t done = 0; done < n;) {
        size_t len = n - done < CHUNK ? n - done : CHUNK;
        tx->algo->write(tx, (uint8_t *)dst + done, buf, len);
        done += len;
    }
    return dst;
}

void *_ITM_memsetW(void *dst, int c, size_t n) { return set(dst, c, n); }
void *_ITM_memsetWaR(void *dst, int c, size_t n) { return set(dst, c, n); }
void *_ITM_memsetWaW(void *dst, int c, size_t n) { return set(dst, c, n); }
