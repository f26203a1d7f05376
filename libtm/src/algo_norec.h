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

/* A logged read of up to 8 bytes: 16 bytes, two stores on the fast path. The key is the
 * address, with the length in the top byte when it is not 8 (user addresses leave those bits
 * 0 on x86-64). Longer reads go to the byte log as a struct long_read followed by the bytes,
 * padded to 8. */
struct value_entry {
    uintptr_t key;
    uint64_t value;
};
#define TM_NOREC_LEN_SHIFT 56

static inline uintptr_t tm_norec_key(const void *addr, size_t len)
{
    return (uintptr_t)addr | (len == 8 ? 0 : (uintptr_t)len << TM_NOREC_LEN_SHIFT);
}
static inline const void *tm_norec_key_addr(uintptr_t key)
{
    return (const void *)(key & (((uintptr_t)1 << TM_NOREC_LEN_SHIFT) - 1));
}
static inline size_t tm_norec_key_len(uintptr_t key)
{
    size_t len = key >> TM_NOREC_LEN_SHIFT;
    return len ? len : 8;
}

struct long_read {
    const void *addr;
    size_t len;
};

struct norec_tx {
    uint64_t snapshot;
    bool writer; /* holds the sequence lock */
    /* The value log, appended by the read fast path: [base, next) in use, end the capacity.
     * (Finding the end by the carry out of next's low 16 bits, with a 16-bit add to memory,
     * saved 2 instructions a read but cost time: the next read's 64-bit load of next cannot
     * take its value from that narrower store.) */
    struct value_entry *next, *end, *base;
    struct tm_log longs;  /* struct long_read + bytes */
};
_Static_assert(sizeof(struct norec_tx) <= TM_ALGO_STATE_SIZE, "norec state too large");

static inline struct norec_tx *tm_norec_state(struct tm_tx *tx)
{
    return tm_algo_state(tx, TM_ALGO_norec, struct norec_tx);
}

/* Every case the fast path leaves out: a writer committed, a full log. (The address comes
 * first: the barriers' entry points get it in that register and jump here unchanged.) */
uint64_t tm_norec_load_slow(const void *addr, struct tm_tx *tx, size_t len)
    __attribute__((visibility("hidden"), noinline));
/* The algorithm's begin, and inline its common case (transaction.c's speculative begin and
 * commit call them directly: a call through the table cost 12 instructions each). */
void tm_norec_begin(struct tm_tx *tx) __attribute__((visibility("hidden")));

static inline void tm_norec_begin_fast(struct tm_tx *tx)
{
    struct norec_tx *s = tm_norec_state(tx);
    uint64_t seq = atomic_load_explicit(&tm_norec_seqlock.seq, memory_order_acquire);
    if (unlikely((seq & 1) || !s->base)) {
        tm_norec_begin(tx); /* a writer holds the lock, or the log is not there yet */
        return;
    }
    s->snapshot = seq;
    s->writer = false;
}

/* Commit and rollback: a writer releases the lock; the logs empty. */
static inline void tm_norec_end(struct norec_tx *s)
{
    if (s->writer) {
        atomic_store_explicit(&tm_norec_seqlock.seq, s->snapshot + 2, memory_order_release);
        s->writer = false;
    }
    s->next = s->base;
    s->longs.len = 0;
}

/* The hot path of a reader (the barriers take it only for transactions that have not written:
 * a writer reads directly): a value while no writer committed since the snapshot. Alignment
 * does not matter: x86 loads unaligned values, and a torn one fails the sequence check. */
static inline uint64_t tm_norec_load(struct tm_tx *tx, const void *addr, size_t len)
{
    struct norec_tx *s = tm_norec_state(tx);
    struct value_entry *e = s->next;
    uint64_t value;
    switch (len) {
    case 8: value = *(const uint64_t *)addr; break;
    case 4: value = *(const uint32_t *)addr; break;
    case 2: value = *(const uint16_t *)addr; break;
    default: value = *(const uint8_t *)addr; break;
    }
    __asm__("" : "+a"(value)); /* loaded into the return register: saves a move */
    atomic_thread_fence(memory_order_acquire);
    if (likely(atomic_load_explicit(&tm_norec_seqlock.seq, memory_order_relaxed) == s->snapshot &&
               e != s->end)) {
        s->next = e + 1;
        e->key = tm_norec_key(addr, len);
        __asm__("" ::: "memory"); /* two plain stores: vectorised, they cost four more */
        e->value = value;
        return value;
    }
    return tm_norec_load_slow(addr, tx, len);
}

#endif
