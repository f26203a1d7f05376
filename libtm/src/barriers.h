/* Generator of the load/store/log barriers of one type: every family (R, RaR, RaW, RfW, W, WaR,
 * WaW, L) for every type comes from this one definition. Of the modifiers only RaW changes
 * the path (a plain load); the others are hints the algorithms do not need, and GCC 12 rarely
 * emits them (one RaW in the intset benchmark's 400 barrier calls). Values of up to 8 bytes
 * travel in a register (the algorithm's load/store); wider ones through memory. */
#ifndef LIBTM_BARRIERS_H
#define LIBTM_BARRIERS_H

#include "tx.h"
#include "algo_norec.h"
#include "algo_orec.h"
#include "stats.h"
#include "undo_log.h"

#include <string.h>

/* Outside any transaction (no descriptor yet, or tm_algo_irrevocable between transactions)
 * the barriers access memory directly. Inside one they take the path the descriptor names
 * (tx.h: chosen with the algorithm, so one byte decides): the read and write fast paths of
 * orec and norec are inlined here (a jump through the algorithm table costs a read up to
 * 7 %), exclusive transactions and norec writers read with plain loads, and everything else
 * (statistics on, a norec reader's first write, other sizes) goes through the algorithm's
 * table. Stores into the transaction's own dead-at-rollback stack (tm_private_stack) bypass
 * the algorithm: nothing needs undoing or locking there. Loads from it go through it, which
 * is correct, and a check would cost every other load. */

/* Values of 1, 2, 4 or 8 bytes travel in a register; the others through memory. */
#define TM_WORD_SIZED(T) (sizeof(T) <= 8 && (sizeof(T) & (sizeof(T) - 1)) == 0)

static inline uint64_t tm_load_unaligned(const void *p, size_t len)
{
    uint64_t v = 0;
    __builtin_memcpy(&v, p, len);
    return v;
}

/* Loads of 1, 2, 4 and 8 bytes: the entry point takes norec's fast path inline and jumps to
 * tm_load_rest (orec's fast path), which jumps to tm_load_other (direct: exclusive
 * transactions, norec writers, no transaction; or the algorithm's table). One function per
 * fast path gets the registers to itself: sharing one, the paths' return values met in one
 * register and cost each path two moves. The path byte comes from the thread's mirror (tx.h:
 * tm_read_path_now), compared in memory; a thread without a descriptor has the direct path. */
#define TM_DECLARE_LOAD_PATHS(L)                                                             \
    uint64_t tm_load_rest##L(const void *p) __attribute__((visibility("hidden"), noinline)); \
    uint64_t tm_load_other##L(const void *p) __attribute__((visibility("hidden")));
TM_DECLARE_LOAD_PATHS(1)
TM_DECLARE_LOAD_PATHS(2)
TM_DECLARE_LOAD_PATHS(4)
TM_DECLARE_LOAD_PATHS(8)

static inline __attribute__((always_inline)) uint64_t tm_load_word(const void *p, size_t len)
{
    if (tm_read_path_now() == TM_READ_NOREC)
        return tm_norec_load(tm_current, p, len);
    switch (len) {
    case 8: return tm_load_rest8(p);
    case 4: return tm_load_rest4(p);
    case 2: return tm_load_rest2(p);
    default: return tm_load_rest1(p);
    }
}

/* The bodies of tm_load_rest##L and tm_load_other##L (barriers.c). */
static inline __attribute__((always_inline)) uint64_t tm_load_rest(const void *p, size_t len,
                                                                   uint64_t (*other)(const void *))
{
    if (tm_read_path_now() == TM_READ_OREC)
        return tm_orec_load(tm_current, p, len);
    return other(p);
}

static inline __attribute__((always_inline)) uint64_t tm_load_other(const void *p, size_t len)
{
    struct tm_tx *tx = tm_current;
    if (tm_read_path_now() == TM_READ_DIRECT) {
        if (likely(((uintptr_t)p & (len - 1)) == 0))
            return tm_load_aligned(p, len);
        if (!tx) {
            uint64_t v = 0;
            __builtin_memcpy(&v, p, len); /* little-endian: the low bytes */
            return v;
        }
    } else if (tm_stats_enabled) {
        tx->bytes_read += len;
    }
    return tx->algo->load[TM_SIZE_INDEX(len)](tx, p);
}

/* Every path ends in a plain store or in one jump to the algorithm's table, so that the fast
 * paths call nothing and save no registers. Stores into the transaction's own dead-at-rollback
 * stack (tm_private_stack) bypass the algorithm; a direct path stores plainly anyway. */
static inline __attribute__((always_inline)) void tm_store_word(void *p, uint64_t v, size_t len)
{
    bool aligned = ((uintptr_t)p & (len - 1)) == 0;
    uint8_t path = tm_write_path_now();
    struct tm_tx *tx = tm_current;
    if (path == TM_WRITE_DIRECT) {
        if (likely(aligned)) {
            tm_store_aligned(p, v, len);
            return;
        }
        if (!tx) {
            __builtin_memcpy(p, &v, len); /* little-endian: the low bytes */
            return;
        }
    } else if (tm_private_stack(tx, p)) {
        __builtin_memcpy(p, &v, len);
        return;
    }
    switch (path) {
    case TM_WRITE_OREC:
        if (tm_orec_store_fast(tx, p, v, len))
            return;
        break;
    case TM_WRITE_LOGGED:
        if (likely(aligned && tm_undo_word_fits(tx))) {
            tm_undo_push_word(tx, p, len);
            tm_store_aligned(p, v, len);
            return;
        }
        break;
    case TM_WRITE_DIRECT:
        break;
    default:
        if (tm_stats_enabled)
            tx->bytes_written += len;
        break;
    }
    tx->algo->store[TM_SIZE_INDEX(len)](tx, p, v);
}

#define TM_LOAD_BODY(T, p)                                                                   \
    do {                                                                                     \
        T v_;                                                                                \
        if (TM_WORD_SIZED(T)) {                                                              \
            uint64_t w_ = tm_load_word((p), sizeof(T));                                      \
            __builtin_memcpy(&v_, &w_, sizeof(T));                                           \
            return v_;                                                                       \
        }                                                                                    \
        struct tm_tx *tx_ = tm_current;                                                      \
        if (unlikely(!tx_)) {                                                                \
            __builtin_memcpy(&v_, (p), sizeof(T)); /* GCC passes under-aligned vectors */    \
            return v_;                                                                       \
        }                                                                                    \
        if (unlikely(tm_stats_enabled))                                                      \
            tx_->bytes_read += sizeof(T);                                                    \
        tx_->algo->read(tx_, (p), &v_, sizeof(T));                                           \
        return v_;                                                                           \
    } while (0)

/* Read after write: the location is the transaction's own (orec: locked by it; norec: it holds
 * the lock and reads directly anyway), so a plain load is right unless statistics count. */
#define TM_LOAD_OWN_BODY(T, p)                                                               \
    do {                                                                                     \
        if (unlikely(tm_read_path_now() == TM_READ_CALL))                                    \
            TM_LOAD_BODY(T, p);                                                              \
        T v_;                                                                                \
        __builtin_memcpy(&v_, (p), sizeof(T));                                               \
        return v_;                                                                           \
    } while (0)

#define TM_STORE_BODY(T, p, v)                                                               \
    do {                                                                                     \
        if (TM_WORD_SIZED(T)) {                                                              \
            uint64_t w_ = 0;                                                                 \
            __builtin_memcpy(&w_, &(v), sizeof(T));                                          \
            tm_store_word((p), w_, sizeof(T));                                               \
            return;                                                                          \
        }                                                                                    \
        struct tm_tx *tx_ = tm_current;                                                      \
        if (unlikely(!tx_) || tm_private_stack(tx_, (p))) {                                  \
            __builtin_memcpy((p), &(v), sizeof(T));                                          \
            return;                                                                          \
        }                                                                                    \
        if (unlikely(tm_stats_enabled))                                                      \
            tx_->bytes_written += sizeof(T);                                                 \
        tx_->algo->write(tx_, (p), &(v), sizeof(T));                                         \
    } while (0)

#define TM_DEFINE_BARRIERS(N, T)                                                             \
    T _ITM_R##N(const T *p) { TM_LOAD_BODY(T, p); }                                          \
    T _ITM_RaR##N(const T *p) { TM_LOAD_BODY(T, p); }                                        \
    T _ITM_RaW##N(const T *p) { TM_LOAD_OWN_BODY(T, p); }                                    \
    T _ITM_RfW##N(const T *p) { TM_LOAD_BODY(T, p); }                                        \
    void _ITM_W##N(T *p, T v) { TM_STORE_BODY(T, p, v); }                                    \
    void _ITM_WaR##N(T *p, T v) { TM_STORE_BODY(T, p, v); }                                  \
    void _ITM_WaW##N(T *p, T v) { TM_STORE_BODY(T, p, v); }                                  \
    void _ITM_L##N(const T *p)                                                               \
    {                                                                                        \
        struct tm_tx *tx_ = tm_current;                                                      \
        if (tx_ && tx_->depth)                                                               \
            tm_undo_record(tx_, p, sizeof(T));                                               \
    }

#endif
