/* orec's table, state and read fast path (algo_orec.c has the rest). The barrier entry points
 * (barriers.h) inline the fast path, as they do norec's: a read that skips the jump through the
 * algorithm table costs less. */
#ifndef LIBTM_ALGO_OREC_H
#define LIBTM_ALGO_OREC_H

#include "orec_turns.h"
#include "privatization.h"
#include "undo_log.h"

/* 2^16 orecs (512 KB): enough stripes that unrelated data rarely shares an orec, few enough
 * that the table mostly stays in the caches (a 2^20 table costs a cache miss per read). */
#ifndef OREC_BITS /* -DOREC_BITS=N -DSTRIPE_SHIFT=N (N >= 3) build other maps to measure */
#define OREC_BITS 16
#endif
#define OREC_COUNT (1u << OREC_BITS)
#ifndef STRIPE_SHIFT
#define STRIPE_SHIFT 5
#endif
#define STRIPE_SIZE (1u << STRIPE_SHIFT)

/* A version (the commit time << 1), or the owner's descriptor address | 1 while locked. */
typedef _Atomic uint64_t orec_t;
extern orec_t tm_orecs[OREC_COUNT] __attribute__((visibility("hidden")));

/* One read: its address, with its length (1..8 bytes) in the top bits, and the value read.
 * The orec follows from the address. The value lets a validation that finds an orec newer
 * than the snapshot check the words themselves (algo_orec.c: value revalidation), so that a
 * write to other words of the stripe, or to another stripe with the same orec, aborts nobody.
 * Reads of more than 8 bytes are logged as several entries. */
struct orec_read {
    uintptr_t addr_len;
    uint64_t value;
};
#define OREC_READ_LEN_SHIFT 60
static inline uintptr_t tm_orec_read_tag(uintptr_t addr, size_t len)
{
    return addr | ((uintptr_t)len << OREC_READ_LEN_SHIFT);
}

/* The transaction's private state (algo.h). The read log is an array of struct orec_read
 * kept as pointers; a location read twice is logged twice (skipping a repeat of the last
 * entry cost rbtree 16k 27 instructions an operation more than it saved). */
struct orec_tx {
    uint64_t snapshot;
    struct orec_read *read_next, *read_end, *read_base;
    struct tm_log locks;    /* struct lock_entry */
    bool alone; /* no other thread was registered at begin: none can commit meanwhile */
    struct orec_turns_window turns; /* orec_turns.h */
};
_Static_assert(sizeof(struct orec_tx) <= TM_ALGO_STATE_SIZE, "orec state too large");

static inline struct orec_tx *tm_orec_state(struct tm_tx *tx)
{
    return tm_algo_state(tx, TM_ALGO_orec, struct orec_tx);
}

static inline orec_t *tm_orec_for(uintptr_t addr)
{
    return &tm_orecs[(addr >> STRIPE_SHIFT) & (OREC_COUNT - 1)];
}

/* Makes room in a full read log. */
void tm_orec_log_grow(struct orec_tx *s) __attribute__((visibility("hidden"), noinline));

/* Logs a read of `len` (1..8) bytes at `addr` whose value is `value`. */
static inline void tm_orec_log_read(struct orec_tx *s, uintptr_t addr, uint64_t value, size_t len)
{
    if (unlikely(s->read_next == s->read_end))
        tm_orec_log_grow(s);
    struct orec_read *e = s->read_next++;
    e->addr_len = tm_orec_read_tag(addr, len);
    e->value = value;
}

/* What a locked orec holds: the owner's descriptor address | 1. */
static inline uint64_t tm_orec_locked_by(const struct tm_tx *tx)
{
    return (uint64_t)(uintptr_t)tx | 1;
}

/* Locks `o` for the transaction (conflicts go to the contention manager). */
void tm_orec_acquire_slow(struct tm_tx *tx, orec_t *o) __attribute__((visibility("hidden"), noinline));
static inline void tm_orec_acquire(struct tm_tx *tx, orec_t *o)
{
    if (atomic_load_explicit(o, memory_order_relaxed) != tm_orec_locked_by(tx))
        tm_orec_acquire_slow(tx, o);
}

/* Any write: every stripe locked, the old bytes logged, then stored in place. */
void tm_orec_write(struct tm_tx *tx, void *addr, const void *src, size_t len)
    __attribute__((visibility("hidden"), noinline));

/* The store barriers' entry (the table's, and the barriers' slow path): a value of 1, 2, 4
 * or 8 bytes. */
static inline void tm_orec_store(struct tm_tx *tx, void *addr, uint64_t value, size_t len)
{
    uintptr_t a = (uintptr_t)addr;
    if (unlikely((a & (len - 1)) != 0)) {
        tm_orec_write(tx, addr, &value, len);
        return;
    }
    tm_orec_acquire(tx, tm_orec_for(a));
    tm_undo_record(tx, addr, len);
    tm_store_aligned(addr, value, len);
}

/* The barriers' fast path: an aligned value in a stripe the transaction holds already, with
 * room in the undo log. False: take tm_orec_store (it calls, the fast path does not). */
static inline bool tm_orec_store_fast(struct tm_tx *tx, void *addr, uint64_t value,
                                      size_t len)
{
    uintptr_t a = (uintptr_t)addr;
    if (likely((a & (len - 1)) == 0 &&
               atomic_load_explicit(tm_orec_for(a), memory_order_relaxed) ==
                   tm_orec_locked_by(tx) &&
               tm_undo_word_fits(tx))) {
        tm_undo_push_word(tx, addr, len);
        tm_store_aligned(addr, value, len);
        return true;
    }
    return false;
}

/* Every case the fast path leaves out: unaligned, locked (ours or another's), newer than the
 * read limit, a move requested. */
uint64_t tm_orec_load_slow(const void *addr, struct tm_tx *tx, size_t len)
    __attribute__((visibility("hidden"), noinline));

/* The read limit that lets the fast path accept versions up to `snapshot`: odd, so that one
 * comparison v < limit refuses locked orecs (odd, larger than any version), newer versions
 * and a requested move (limit 0) at once. */
static inline uint64_t tm_orec_limit(uint64_t snapshot)
{
    return (snapshot << 1) | 1;
}

/* The hot path: an aligned scalar whose orec is unlocked and not newer than the read limit,
 * or locked by this transaction.
 * The value is loaded first and then judged: the limit after it (a privatizing commit that
 * lowered the limit meanwhile may have changed the data with plain stores, which the orec
 * does not show: privatization.c), and the orec again (nobody wrote the stripe meanwhile). */
static inline uint64_t tm_orec_load(struct tm_tx *tx, const void *addr, size_t len)
{
    uintptr_t a = (uintptr_t)addr;
    if (likely((a & (len - 1)) == 0)) {
        orec_t *o = tm_orec_for(a);
        uint64_t v = atomic_load_explicit(o, memory_order_acquire);
        uint64_t value = tm_load_aligned(addr, len);
        atomic_thread_fence(memory_order_acquire);
        uint64_t limit = atomic_load_explicit(&tx->read_limit, memory_order_relaxed);
        struct orec_tx *s = tm_orec_state(tx);
        struct orec_read *e = s->read_next;
        /* A full log takes the slow path too: the fast path then calls nothing, and needs no
         * register that a call would make it save. */
        if (likely(v < limit && atomic_load_explicit(o, memory_order_relaxed) == v &&
                   e != s->read_end)) {
            e->addr_len = tm_orec_read_tag(a, len);
            /* Two plain stores: GCC would otherwise build a vector of them (4 instructions
             * more than these 2). */
            __asm__ volatile("" ::: "memory");
            e->value = value;
            s->read_next = e + 1;
            return value;
        }
        /* A stripe this transaction wrote: the data is its own, stored in place, and nobody
         * else can change it while it holds the lock (the slow path's answer, without its
         * call: QuakeC reads back what it just wrote, 75 reads a command in qwsv). */
        if (v == tm_orec_locked_by(tx))
            return value;
    }
    return tm_orec_load_slow(addr, tx, len);
}

#endif
