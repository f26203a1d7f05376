/* Generator of the load/store/log barriers of one type: every family (R, RaR, RaW, RfW, W, WaR,
 * WaW, L) for every type comes from this one definition. The modifiers are hints that the
 * algorithms do not need, so all loads share one path and all stores another. Values of up to
 * 8 bytes travel in a register (the algorithm's load/store); wider ones through memory. */
#ifndef LIBTM_BARRIERS_H
#define LIBTM_BARRIERS_H

#include "tx.h"
#include "algo_norec.h"
#include "algo_orec.h"
#include "stats.h"
#include "undo_log.h"

#include <string.h>

/* Outside any transaction (no descriptor yet, or tm_algo_irrevocable between transactions)
 * the algorithm accesses memory directly. Stores into the transaction's own dead-at-rollback
 * stack (tm_private_stack) bypass it: nothing needs undoing or locking there. Loads from it go
 * through the algorithm, which is correct, and a check would cost every other load. The read
 * fast paths of the speculative algorithms are inlined here (algo_norec.h, algo_orec.h): a
 * jump through the algorithm table costs a read up to 7 %. */
#define TM_LOAD_BODY(T, p)                                                                   \
    do {                                                                                     \
        struct tm_tx *tx_ = tm_current;                                                      \
        T v_;                                                                                \
        if (unlikely(!tx_)) {                                                                \
            __builtin_memcpy(&v_, (p), sizeof(T)); /* GCC passes under-aligned vectors */    \
            return v_;                                                                       \
        }                                                                                    \
        if (unlikely(tm_stats_enabled))                                                      \
            tx_->bytes_read += sizeof(T);                                                    \
        if (sizeof(T) <= 8 && (sizeof(T) & (sizeof(T) - 1)) == 0) {                          \
            uint64_t w_ = tx_->algo == &tm_algo_norec  ? tm_norec_load(tx_, (p), sizeof(T))  \
                          : tx_->algo == &tm_algo_orec ? tm_orec_load(tx_, (p), sizeof(T))   \
                          : tx_->algo->load[TM_SIZE_INDEX(sizeof(T))](tx_, (p));             \
            __builtin_memcpy(&v_, &w_, sizeof(T));                                           \
        } else {                                                                             \
            tx_->algo->read(tx_, (p), &v_, sizeof(T));                                       \
        }                                                                                    \
        return v_;                                                                           \
    } while (0)

#define TM_STORE_BODY(T, p, v)                                                               \
    do {                                                                                     \
        struct tm_tx *tx_ = tm_current;                                                      \
        if (unlikely(!tx_) || tm_private_stack(tx_, (p))) {                                  \
            __builtin_memcpy((p), &(v), sizeof(T));                                          \
            return;                                                                          \
        }                                                                                    \
        if (unlikely(tm_stats_enabled))                                                      \
            tx_->bytes_written += sizeof(T);                                                 \
        if (sizeof(T) <= 8 && (sizeof(T) & (sizeof(T) - 1)) == 0) {                          \
            uint64_t w_ = 0;                                                                 \
            __builtin_memcpy(&w_, &(v), sizeof(T));                                          \
            tx_->algo->store[TM_SIZE_INDEX(sizeof(T))](tx_, (p), w_);                        \
        } else {                                                                             \
            tx_->algo->write(tx_, (p), &(v), sizeof(T));                                     \
        }                                                                                    \
    } while (0)

#define TM_DEFINE_BARRIERS(N, T)                                                             \
    T _ITM_R##N(const T *p) { TM_LOAD_BODY(T, p); }                                          \
    T _ITM_RaR##N(const T *p) { TM_LOAD_BODY(T, p); }                                        \
    T _ITM_RaW##N(const T *p) { TM_LOAD_BODY(T, p); }                                        \
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
