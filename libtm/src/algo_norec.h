/* norec's state and its read fast path (algo_norec.c has the rest). The barrier entry points
 * (barriers.h) inline the fast path: a read that skips the jump through the algorithm table
 * costs 7 % less time on a red-black tree. */
#ifndef LIBTM_ALGO_NOREC_H
#define LIBTM_ALGO_NOREC_H

#include "tx.h"

/* The global sequence lock: even while no writer holds it. */
struct tm_norec_seqlock {
    _Alignas(TM_CACHELINE) _Atomic uint64_t seq;
    char pad[TM_CACHELINE - sizeof(uint64_t)];
};
extern struct tm_norec_seqlock tm_norec_seqlock __attribute__((visibility("hidden")));

/* A logged read of up to 8 bytes. Longer reads go to the byte log as a struct long_read
 * followed by the bytes, padded to 8. */
struct value_entry {
    const void *addr;
    uint64_t value;
    size_t len;
};

struct long_read {
    const void *addr;
    size_t len;
};

struct norec_tx {
    uint64_t snapshot;
    bool writer; /* holds the sequence lock */
    struct tm_log values; /* struct value_entry */
    struct tm_log longs;  /* struct long_read + bytes */
};
_Static_assert(sizeof(struct norec_tx) <= TM_ALGO_STATE_SIZE, "norec state too large");

static inline struct norec_tx *tm_norec_state(struct tm_tx *tx)
{
    return tm_algo_state(tx, TM_ALGO_norec, struct norec_tx);
}

/* Every case the fast path leaves out: unaligned, a writer committed, a full log. */
uint64_t tm_norec_load_slow(struct tm_tx *tx, const void *addr, size_t len)
    __attribute__((visibility("hidden"), noinline));

/* The hot path: an aligned value while no writer committed since the snapshot. */
static inline uint64_t tm_norec_load(struct tm_tx *tx, const void *addr, size_t len)
{
    struct norec_tx *s = tm_norec_state(tx);
    if (likely(((uintptr_t)addr & (len - 1)) == 0)) {
        uint64_t value = tm_load_aligned(addr, len);
        if (s->writer)
            return value;
        atomic_thread_fence(memory_order_acquire);
        size_t used = s->values.len;
        if (likely(atomic_load_explicit(&tm_norec_seqlock.seq, memory_order_relaxed) ==
                       s->snapshot &&
                   used + sizeof(struct value_entry) <= s->values.cap)) {
            struct value_entry *e = (struct value_entry *)(void *)(s->values.data + used);
            s->values.len = used + sizeof *e;
            e->addr = addr;
            e->value = value;
            e->len = len;
            return value;
        }
    }
    return tm_norec_load_slow(tx, addr, len);
}

#endif
