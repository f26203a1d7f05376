/* "norec": one global sequence lock, value-based validation, writes in place.
 *
 * Reads need no metadata per location: a read copies the value and checks that the global
 * sequence number still equals the snapshot; if a writer committed meanwhile, the transaction
 * re-reads every value it logged and, if all still match, adopts the new sequence number
 * (NOrec's validation). The first write takes the sequence lock (odd value) for the rest of
 * the transaction, so there is one writer at a time, which then writes in place with an undo
 * log. Cheap at low thread counts; writers serialise.
 *
 * Privatization needs no waiting: a writer holds the lock while its data is dirty and cannot
 * be doomed (it validated when it took the lock), and every reader re-validates after each
 * writer's commit before it uses another value, so no transaction acts on data that a
 * committed transaction made private. */
#include "tx.h"
#include "events.h"

#include <string.h>

static struct {
    _Alignas(TM_CACHELINE) _Atomic uint64_t seq;
    char pad[TM_CACHELINE - sizeof(uint64_t)];
} seqlock;

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

static inline struct norec_tx *state(struct tm_tx *tx)
{
    return tm_algo_state(tx, TM_ALGO_norec, struct norec_tx);
}

static inline size_t pad8(size_t n) { return (n + 7) & ~(size_t)7; }

/* Frames of functions called inside the transaction lie between the thread's stack bottom and
 * the outermost begin's CFA: only this thread writes them, and its direct stores there (which
 * bypass the algorithm) must not fail validation, so their values are not compared. */
static inline bool own_frame(const struct tm_tx *tx, const void *addr)
{
    return (uintptr_t)addr >= tx->stack_lo && (uintptr_t)addr < (uintptr_t)tx->jb.cfa;
}

static bool values_unchanged(const struct tm_tx *tx, const struct norec_tx *s)
{
    size_t n = TM_LOG_COUNT(&s->values, struct value_entry);
    const struct value_entry *e = (const struct value_entry *)(const void *)s->values.data;
    for (size_t i = 0; i < n; i++) {
        uint64_t now = 0;
        memcpy(&now, e[i].addr, e[i].len);
        if (now != e[i].value && !own_frame(tx, e[i].addr))
            return false;
    }
    for (size_t pos = 0; pos < s->longs.len;) {
        const struct long_read *r = (const struct long_read *)(const void *)(s->longs.data + pos);
        if (memcmp(r->addr, r + 1, r->len) != 0 && !own_frame(tx, r->addr))
            return false;
        pos += sizeof *r + pad8(r->len);
    }
    return true;
}

static void log_value(struct norec_tx *s, const void *addr, const void *value, size_t len)
{
    if (len <= 8) {
        struct value_entry *e = TM_LOG_PUSH(&s->values, struct value_entry);
        e->addr = addr;
        e->len = len;
        e->value = 0;
        memcpy(&e->value, value, len);
        return;
    }
    struct long_read *r = tm_log_append(&s->longs, sizeof *r + pad8(len));
    r->addr = addr;
    r->len = len;
    memcpy(r + 1, value, len);
}

/* Waits for the writer to finish. A writer that wants to become irrevocable waits for all
 * speculative transactions to leave, so a waiting reader gives way by restarting. */
static uint64_t wait_unlocked(struct tm_tx *tx)
{
    unsigned round = 0;
    for (;;) {
        uint64_t seq = atomic_load_explicit(&seqlock.seq, memory_order_acquire);
        if (!(seq & 1))
            return seq;
        if (tm_serial_writer_active())
            tm_restart(tx, ABORT_CONFLICT_READ);
        tm_wait_pause(&round);
    }
}

/* Returns a new snapshot at which every logged value still holds, or restarts. */
static uint64_t revalidate(struct tm_tx *tx, const struct norec_tx *s)
{
    for (;;) {
        uint64_t seq = wait_unlocked(tx);
        if (!values_unchanged(tx, s))
            tm_restart(tx, ABORT_VALIDATE);
        atomic_thread_fence(memory_order_acquire);
        if (atomic_load_explicit(&seqlock.seq, memory_order_relaxed) == seq)
            return seq;
    }
}

static void norec_begin(struct tm_tx *tx)
{
    struct norec_tx *s = state(tx);
    s->snapshot = wait_unlocked(tx);
    s->writer = false;
}

static void norec_read(struct tm_tx *tx, const void *addr, void *dst, size_t len)
{
    struct norec_tx *s = state(tx);
    if (s->writer) {
        memcpy(dst, addr, len);
        return;
    }
    for (;;) {
        memcpy(dst, addr, len);
        atomic_thread_fence(memory_order_acquire);
        if (likely(atomic_load_explicit(&seqlock.seq, memory_order_relaxed) == s->snapshot))
            break;
        s->snapshot = revalidate(tx, s);
    }
    log_value(s, addr, dst, len);
}

static uint64_t __attribute__((noinline)) load_slow(struct tm_tx *tx, const void *addr,
                                                    size_t len)
{
    uint64_t value = 0;
    norec_read(tx, addr, &value, len);
    return value;
}

static inline uint64_t load_sized(const void *addr, size_t len)
{
    switch (len) {
    case 8: return *(const uint64_t *)addr;
    case 4: return *(const uint32_t *)addr;
    case 2: return *(const uint16_t *)addr;
    default: return *(const uint8_t *)addr;
    }
}

/* The hot path: an aligned value while no writer committed since the snapshot. */
static inline uint64_t norec_load(struct tm_tx *tx, const void *addr, size_t len)
{
    struct norec_tx *s = state(tx);
    if (likely(((uintptr_t)addr & (len - 1)) == 0)) {
        uint64_t value = load_sized(addr, len);
        if (s->writer)
            return value;
        atomic_thread_fence(memory_order_acquire);
        size_t used = s->values.len;
        if (likely(atomic_load_explicit(&seqlock.seq, memory_order_relaxed) == s->snapshot &&
                   used + sizeof(struct value_entry) <= s->values.cap)) {
            struct value_entry *e = (struct value_entry *)(void *)(s->values.data + used);
            s->values.len = used + sizeof *e;
            e->addr = addr;
            e->value = value;
            e->len = len;
            return value;
        }
    }
    return load_slow(tx, addr, len);
}

static void become_writer(struct tm_tx *tx, struct norec_tx *s)
{
    for (;;) {
        uint64_t expected = s->snapshot;
        if (atomic_compare_exchange_strong_explicit(&seqlock.seq, &expected, expected + 1,
                                                    memory_order_acq_rel,
                                                    memory_order_relaxed))
            break;
        s->snapshot = revalidate(tx, s);
    }
    s->writer = true;
}

static void norec_write(struct tm_tx *tx, void *addr, const void *src, size_t len)
{
    struct norec_tx *s = state(tx);
    if (unlikely(!s->writer))
        become_writer(tx, s);
    tm_undo_record(tx, addr, len);
    memcpy(addr, src, len);
}

static inline void norec_store(struct tm_tx *tx, void *addr, uint64_t value, size_t len)
{
    norec_write(tx, addr, &value, len);
}

static void end(struct norec_tx *s)
{
    if (s->writer) {
        atomic_store_explicit(&seqlock.seq, s->snapshot + 2, memory_order_release);
        s->writer = false;
    }
    s->values.len = 0;
    s->longs.len = 0;
}

static bool norec_commit(struct tm_tx *tx, uint64_t *privatization_time)
{
    end(state(tx));
    *privatization_time = 0;
    return true;
}

static void norec_rollback(struct tm_tx *tx)
{
    end(state(tx));
}

static bool norec_validate(struct tm_tx *tx)
{
    const struct norec_tx *s = state(tx);
    return s->writer || values_unchanged(tx, s);
}

TM_SIZED_LOADS(norec_load)
TM_SIZED_STORES(norec_store)

const struct tm_algo tm_algo_norec = {
    .name = "norec",
    .id = TM_ALGO_norec,
    .speculative = true,
    .begin = norec_begin,
    .load = TM_SIZED(norec_load),
    .store = TM_SIZED(norec_store),
    .read = norec_read,
    .write = norec_write,
    .commit = norec_commit,
    .rollback = norec_rollback,
    .validate = norec_validate,
};
