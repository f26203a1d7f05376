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
#include "algo_norec.h"
#include "events.h"
#include "fatal.h"
#include "serial_lock.h"
#include "transaction.h"
#include "undo_log.h"
#include "wait.h"

#include <stdlib.h>
#include <string.h>

struct tm_norec_seqlock tm_norec_seqlock;

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
    size_t n = (size_t)(s->next - s->base);
    const struct value_entry *e = s->base;
    for (size_t i = 0; i < n; i++) {
        const void *addr = tm_norec_key_addr(e[i].key);
        uint64_t now = 0;
        memcpy(&now, addr, tm_norec_key_len(e[i].key));
        if (now != e[i].value && !own_frame(tx, addr))
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

/* Doubles the value log (the fast path found it full). */
static void grow_values(struct norec_tx *s)
{
    size_t used = (size_t)(s->next - s->base);
    size_t cap = s->base ? (size_t)(s->end - s->base) * 2 : 256;
    struct value_entry *base = realloc(s->base, cap * sizeof *base);
    if (!base)
        tm_fatal("out of memory growing a read log to %zu entries", cap);
    s->base = base;
    s->next = base + used;
    s->end = base + cap;
}

static void log_value(struct norec_tx *s, const void *addr, const void *value, size_t len)
{
    if (len <= 8) {
        if (unlikely(s->next == s->end))
            grow_values(s);
        struct value_entry *e = s->next++;
        e->key = tm_norec_key(addr, len);
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
        uint64_t seq = atomic_load_explicit(&tm_norec_seqlock.seq, memory_order_acquire);
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
        if (atomic_load_explicit(&tm_norec_seqlock.seq, memory_order_relaxed) == seq)
            return seq;
    }
}

void tm_norec_begin(struct tm_tx *tx)
{
    struct norec_tx *s = tm_norec_state(tx);
    uint64_t seq = atomic_load_explicit(&tm_norec_seqlock.seq, memory_order_acquire);
    s->snapshot = likely(!(seq & 1)) ? seq : wait_unlocked(tx);
    s->writer = false;
    if (unlikely(!s->base))
        grow_values(s);
}

static void norec_read(struct tm_tx *tx, const void *addr, void *dst, size_t len)
{
    struct norec_tx *s = tm_norec_state(tx);
    if (s->writer) {
        memcpy(dst, addr, len);
        return;
    }
    for (;;) {
        memcpy(dst, addr, len);
        atomic_thread_fence(memory_order_acquire);
        if (likely(atomic_load_explicit(&tm_norec_seqlock.seq, memory_order_relaxed) == s->snapshot))
            break;
        s->snapshot = revalidate(tx, s);
    }
    log_value(s, addr, dst, len);
}

uint64_t tm_norec_load_slow(const void *addr, struct tm_tx *tx, size_t len)
{
    uint64_t value = 0;
    norec_read(tx, addr, &value, len);
    return value;
}

/* A writer's reads are plain loads (nobody else writes while it holds the lock), its writes
 * undo-logged stores. */
static void use_writer_paths(struct tm_tx *tx)
{
    if (tm_norec_state(tx)->writer)
        tm_use_paths(tx, TM_READ_DIRECT, TM_WRITE_LOGGED);
}

static void become_writer(struct tm_tx *tx, struct norec_tx *s)
{
    for (;;) {
        uint64_t expected = s->snapshot;
        if (atomic_compare_exchange_strong_explicit(&tm_norec_seqlock.seq, &expected, expected + 1,
                                                    memory_order_acq_rel,
                                                    memory_order_relaxed))
            break;
        s->snapshot = revalidate(tx, s);
    }
    s->writer = true;
    use_writer_paths(tx);
}

static void norec_write(struct tm_tx *tx, void *addr, const void *src, size_t len)
{
    struct norec_tx *s = tm_norec_state(tx);
    if (unlikely(!s->writer))
        become_writer(tx, s);
    tm_undo_record(tx, addr, len);
    memcpy(addr, src, len);
}

static inline void norec_store(struct tm_tx *tx, void *addr, uint64_t value, size_t len)
{
    norec_write(tx, addr, &value, len);
}

static bool norec_commit(struct tm_tx *tx, uint64_t *privatization_time)
{
    tm_norec_end(tm_norec_state(tx));
    *privatization_time = 0;
    return true;
}

static void norec_rollback(struct tm_tx *tx)
{
    tm_norec_end(tm_norec_state(tx));
}

static bool norec_excludes_writers(struct tm_tx *tx)
{
    return tm_norec_state(tx)->writer;
}

static bool norec_validate(struct tm_tx *tx)
{
    const struct norec_tx *s = tm_norec_state(tx);
    return s->writer || values_unchanged(tx, s);
}

TM_SIZED_LOADS(tm_norec_load)
TM_SIZED_STORES(norec_store)

/* Writable: with LIBTM_CONFLICTS on, conflict_watch.c puts its watching barrier entries in
 * before the first transaction; off, these stay as they are (no cost). */
struct tm_algo tm_norec_entries __attribute__((visibility("hidden"))) = {
    .name = "norec",
    .id = TM_ALGO_norec,
    .speculative = true,
    .read_path = TM_READ_NOREC,
    .write_path = TM_WRITE_CALL, /* the first write takes the lock (become_writer) */
    .begin = tm_norec_begin,
    .load = TM_SIZED(tm_norec_load),
    .store = TM_SIZED(norec_store),
    .read = norec_read,
    .write = norec_write,
    .commit = norec_commit,
    .rollback = norec_rollback,
    .validate = norec_validate,
    .refresh_paths = use_writer_paths,
    .excludes_writers = norec_excludes_writers,
};
extern const struct tm_algo tm_algo_norec __attribute__((alias("tm_norec_entries")));
