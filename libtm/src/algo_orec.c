/* "orec": time-based ownership records, write-through (the default speculative algorithm).
 *
 * A global clock and a table of ownership records (orecs); each 32-byte stripe of memory maps
 * to one orec. An orec holds either a version (commit time << 1) or, while a writer owns it,
 * the owner's descriptor address | 1. Reads check the orec is unlocked and not newer than the
 * snapshot (else they extend the snapshot by validating the read log), copy, and re-check.
 * Writes lock the orec at encounter time, undo-log the old bytes and store in place. Commit
 * takes a new time, validates the read log if anyone committed since the snapshot, and
 * releases the orecs with the new time; rollback releases them with a fresh time so that a
 * reader who copied a dirty value can never see the same version again. Committing writers
 * then wait for older snapshots to finish (privatization safety, quiesce.c). */
#include "tx.h"
#include "contention.h"

#include <string.h>

#define OREC_BITS 20
#define OREC_COUNT (1u << OREC_BITS)
#define STRIPE_SHIFT 5
#define STRIPE_SIZE (1u << STRIPE_SHIFT)

typedef _Atomic uint64_t orec_t;

static orec_t orecs[OREC_COUNT] __attribute__((aligned(TM_CACHELINE)));
static struct {
    _Alignas(TM_CACHELINE) _Atomic uint64_t now;
    char pad[TM_CACHELINE - sizeof(uint64_t)];
} global_clock;

struct read_entry {
    orec_t *orec;
    uint64_t value;
};

struct lock_entry {
    orec_t *orec;
    uint64_t previous;
};

static inline orec_t *orec_for(uintptr_t addr)
{
    return &orecs[(addr >> STRIPE_SHIFT) & (OREC_COUNT - 1)];
}

static inline uint64_t locked_by(const struct tm_tx *tx) { return (uint64_t)(uintptr_t)tx | 1; }
static inline bool is_locked(uint64_t v) { return v & 1; }
static inline uint64_t version_of(uint64_t v) { return v >> 1; }

static bool read_log_valid(struct tm_tx *tx)
{
    uint64_t mine = locked_by(tx);
    size_t n = TM_LOG_COUNT(&tx->read_log, struct read_entry);
    struct read_entry *e = (struct read_entry *)tx->read_log.data;
    for (size_t i = 0; i < n; i++) {
        uint64_t cur = atomic_load_explicit(e[i].orec, memory_order_relaxed);
        if (cur != e[i].value && cur != mine)
            return false;
    }
    return true;
}

/* Moves the snapshot to the current time if everything read so far is still valid. */
static void extend_or_restart(struct tm_tx *tx)
{
    uint64_t now = atomic_load_explicit(&global_clock.now, memory_order_acquire);
    if (!read_log_valid(tx))
        tm_restart(tx, ABORT_VALIDATE);
    tx->snapshot = now;
    atomic_store_explicit(&tx->published, now, memory_order_release);
}

static void orec_begin(struct tm_tx *tx)
{
    uint64_t now = atomic_load_explicit(&global_clock.now, memory_order_acquire);
    /* Published before any read (seq_cst pairs with the committer's fence in quiesce). */
    atomic_store_explicit(&tx->published, now, memory_order_seq_cst);
    tx->snapshot = atomic_load_explicit(&global_clock.now, memory_order_acquire);
    if (tx->snapshot != now)
        atomic_store_explicit(&tx->published, tx->snapshot, memory_order_seq_cst);
    tx->owns_locks = false;
    tx->last_read_orec = NULL;
}

static inline void copy_small(void *dst, const void *src, size_t n)
{
    switch (n) {
    case 1: __builtin_memcpy(dst, src, 1); break;
    case 2: __builtin_memcpy(dst, src, 2); break;
    case 4: __builtin_memcpy(dst, src, 4); break;
    case 8: __builtin_memcpy(dst, src, 8); break;
    case 16: __builtin_memcpy(dst, src, 16); break;
    default: memcpy(dst, src, n); break;
    }
}

static void __attribute__((noinline)) log_read_grow(struct tm_tx *tx, orec_t *o, uint64_t v)
{
    struct read_entry *e = TM_LOG_PUSH(&tx->read_log, struct read_entry);
    e->orec = o;
    e->value = v;
}

/* Consecutive reads of one stripe (fields of one node, a loop over an array) are logged once:
 * the previous entry is remembered in the descriptor. Written so that the common case needs
 * no stack frame. */
static inline void log_read(struct tm_tx *tx, orec_t *o, uint64_t v)
{
    if (tx->last_read_orec == o && tx->last_read_value == v)
        return;
    tx->last_read_orec = o;
    tx->last_read_value = v;
    size_t len = tx->read_log.len;
    if (unlikely(len + sizeof(struct read_entry) > tx->read_log.cap)) {
        log_read_grow(tx, o, v);
        return;
    }
    struct read_entry *e = (struct read_entry *)(tx->read_log.data + len);
    tx->read_log.len = len + sizeof(struct read_entry);
    e->orec = o;
    e->value = v;
}

/* Reads bytes that lie within one stripe; handles locked and newer orecs. */
static void __attribute__((noinline)) read_chunk(struct tm_tx *tx, const uint8_t *src,
                                                 uint8_t *dst, size_t n)
{
    orec_t *o = orec_for((uintptr_t)src);
    for (;;) {
        uint64_t v = atomic_load_explicit(o, memory_order_acquire);
        if (unlikely(is_locked(v))) {
            if (v == locked_by(tx)) {
                copy_small(dst, src, n);
                return;
            }
            tm_conflict(tx, (struct tm_tx *)(uintptr_t)(v & ~(uint64_t)1), ABORT_CONFLICT_READ);
            continue; /* the contention manager waited: look again */
        }
        if (unlikely(version_of(v) > tx->snapshot)) {
            extend_or_restart(tx);
            continue;
        }
        copy_small(dst, src, n);
        atomic_thread_fence(memory_order_acquire);
        if (likely(atomic_load_explicit(o, memory_order_relaxed) == v)) {
            log_read(tx, o, v);
            return;
        }
    }
}

static void __attribute__((noinline)) read_range(struct tm_tx *tx, const uint8_t *src,
                                                 uint8_t *out, size_t len)
{
    while (len) {
        size_t room = STRIPE_SIZE - ((uintptr_t)src & (STRIPE_SIZE - 1));
        size_t n = len < room ? len : room;
        read_chunk(tx, src, out, n);
        src += n;
        out += n;
        len -= n;
    }
}

/* Loads a naturally aligned 1, 2, 4 or 8-byte value (never crosses a stripe). */
static inline bool load_aligned(const void *addr, size_t len, uint64_t *value)
{
    switch (len) {
    case 8: *value = *(const uint64_t *)addr; return true;
    case 4: *value = *(const uint32_t *)addr; return true;
    case 2: *value = *(const uint16_t *)addr; return true;
    case 1: *value = *(const uint8_t *)addr; return true;
    default: return false;
    }
}

static void orec_read(struct tm_tx *tx, const void *addr, void *dst, size_t len)
{
    uintptr_t a = (uintptr_t)addr;
    tx->bytes_read += len;
    if (likely((a & (len - 1)) == 0 && len <= 8)) {
        /* Fast path: an aligned scalar whose orec is unlocked and not newer than the snapshot. */
        orec_t *o = orec_for(a);
        uint64_t v = atomic_load_explicit(o, memory_order_acquire);
        uint64_t value;
        if (likely(!is_locked(v) && version_of(v) <= tx->snapshot) &&
            load_aligned(addr, len, &value)) {
            atomic_thread_fence(memory_order_acquire);
            if (likely(atomic_load_explicit(o, memory_order_relaxed) == v)) {
                switch (len) {
                case 8: *(uint64_t *)dst = value; break;
                case 4: *(uint32_t *)dst = (uint32_t)value; break;
                case 2: *(uint16_t *)dst = (uint16_t)value; break;
                default: *(uint8_t *)dst = (uint8_t)value; break;
                }
                log_read(tx, o, v);
                return;
            }
        }
    }
    read_range(tx, addr, dst, len);
}

static inline void acquire(struct tm_tx *tx, orec_t *o)
{
    uint64_t mine = locked_by(tx);
    for (;;) {
        uint64_t v = atomic_load_explicit(o, memory_order_relaxed);
        if (v == mine)
            return;
        if (unlikely(is_locked(v))) {
            tm_conflict(tx, (struct tm_tx *)(uintptr_t)(v & ~(uint64_t)1), ABORT_CONFLICT_WRITE);
            continue;
        }
        if (unlikely(version_of(v) > tx->snapshot)) {
            extend_or_restart(tx);
            continue;
        }
        if (atomic_compare_exchange_weak_explicit(o, &v, mine, memory_order_acquire,
                                                  memory_order_relaxed)) {
            /* Later stores to the data must not become visible before the lock. */
            atomic_thread_fence(memory_order_release);
            struct lock_entry *e = TM_LOG_PUSH(&tx->lock_log, struct lock_entry);
            e->orec = o;
            e->previous = v;
            tx->owns_locks = true;
            return;
        }
    }
}

static void orec_write(struct tm_tx *tx, void *addr, const void *src, size_t len)
{
    uint8_t *dst = addr;
    const uint8_t *in = src;
    tx->bytes_written += len;
    size_t left = len;
    uint8_t *p = dst;
    while (left) {
        size_t room = STRIPE_SIZE - ((uintptr_t)p & (STRIPE_SIZE - 1));
        size_t n = left < room ? left : room;
        acquire(tx, orec_for((uintptr_t)p));
        p += n;
        left -= n;
    }
    tm_undo_record(tx, dst, len);
    copy_small(dst, in, len);
}

static void release_all(struct tm_tx *tx, uint64_t version)
{
    uint64_t v = version << 1;
    size_t n = TM_LOG_COUNT(&tx->lock_log, struct lock_entry);
    struct lock_entry *e = (struct lock_entry *)tx->lock_log.data;
    for (size_t i = 0; i < n; i++)
        atomic_store_explicit(e[i].orec, v, memory_order_release);
    tx->lock_log.len = 0;
    tx->owns_locks = false;
}

static bool orec_commit(struct tm_tx *tx)
{
    tx->commit_time = 0;
    if (!tx->owns_locks) {
        tx->read_log.len = 0;
        atomic_store_explicit(&tx->published, TM_INACTIVE, memory_order_release);
        return true;
    }
    uint64_t ct = atomic_fetch_add_explicit(&global_clock.now, 1, memory_order_acq_rel) + 1;
    if (ct != tx->snapshot + 1 && !read_log_valid(tx))
        return false;
    release_all(tx, ct);
    tx->read_log.len = 0;
    atomic_store_explicit(&tx->published, TM_INACTIVE, memory_order_release);
    tx->commit_time = ct;
    return true;
}

static void orec_rollback(struct tm_tx *tx)
{
    if (tx->owns_locks) {
        uint64_t fresh = atomic_fetch_add_explicit(&global_clock.now, 1, memory_order_acq_rel) + 1;
        release_all(tx, fresh);
    }
    tx->read_log.len = 0;
    atomic_store_explicit(&tx->published, TM_INACTIVE, memory_order_release);
}

static bool orec_validate(struct tm_tx *tx)
{
    return read_log_valid(tx);
}

const struct tm_algo tm_algo_orec = {
    .name = "orec",
    .speculative = true,
    .needs_quiescence = true,
    .begin = orec_begin,
    .read = orec_read,
    .write = orec_write,
    .commit = orec_commit,
    .rollback = orec_rollback,
    .validate = orec_validate,
};
