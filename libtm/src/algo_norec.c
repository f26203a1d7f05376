/* "norec": one global sequence lock, value-based validation, write-through.
 *
 * Readers need no metadata per location: a read copies the value and checks that the global
 * sequence number still equals the snapshot; if it moved, the transaction re-reads every value
 * it logged and, if all still match, adopts the new sequence number (NOrec's validation).
 * The first write takes the sequence lock (odd value) for the rest of the transaction, so there
 * is one writer at a time, which then writes in place with an undo log. Cheap at low thread
 * counts (no orec table traffic, no quiescence: readers re-validate after every writer's
 * commit, so privatized data is never used by a doomed reader); writers serialise. */
#include "tx.h"

#include <string.h>

static struct {
    _Alignas(TM_CACHELINE) _Atomic uint64_t seq;
    char pad[TM_CACHELINE - sizeof(uint64_t)];
} seqlock;

/* Read log: one entry per read. Values of up to 8 bytes are kept in the entry; longer ones in
 * a separate byte log (the descriptor's lock_log, which norec does not otherwise use). */
struct value_entry {
    const void *addr;
    size_t len;
    uint64_t value; /* the value itself, or the offset of its bytes in lock_log */
};

static bool values_unchanged(struct tm_tx *tx)
{
    size_t n = TM_LOG_COUNT(&tx->read_log, struct value_entry);
    struct value_entry *e = (struct value_entry *)tx->read_log.data;
    for (size_t i = 0; i < n; i++) {
        if (e[i].len <= 8) {
            uint64_t now = 0;
            memcpy(&now, e[i].addr, e[i].len);
            if (now != e[i].value)
                return false;
        } else if (memcmp(e[i].addr, tx->lock_log.data + e[i].value, e[i].len) != 0) {
            return false;
        }
    }
    return true;
}

static void log_value(struct tm_tx *tx, const void *addr, const void *value, size_t len)
{
    struct value_entry *e = TM_LOG_PUSH(&tx->read_log, struct value_entry);
    e->addr = addr;
    e->len = len;
    if (len <= 8) {
        e->value = 0;
        memcpy(&e->value, value, len);
    } else {
        e->value = tx->lock_log.len;
        memcpy(tm_log_append(&tx->lock_log, len), value, len);
    }
}

/* Waits for the writer to finish. A writer that wants to become irrevocable waits for all
 * speculative transactions to leave, so a waiting reader gives way by restarting. */
static uint64_t wait_unlocked(struct tm_tx *tx)
{
    unsigned round = 0;
    for (;;) {
        uint64_t s = atomic_load_explicit(&seqlock.seq, memory_order_acquire);
        if (!(s & 1))
            return s;
        if (tm_serial_writer_active())
            tm_restart(tx, ABORT_CONFLICT_READ);
        tm_wait_pause(&round);
    }
}

/* Returns a new snapshot at which every logged value still holds, or restarts. */
static uint64_t revalidate(struct tm_tx *tx)
{
    for (;;) {
        uint64_t s = wait_unlocked(tx);
        if (!values_unchanged(tx))
            tm_restart(tx, ABORT_VALIDATE);
        atomic_thread_fence(memory_order_acquire);
        if (atomic_load_explicit(&seqlock.seq, memory_order_relaxed) == s)
            return s;
    }
}

static void norec_begin(struct tm_tx *tx)
{
    tx->snapshot = wait_unlocked(tx);
    tx->owns_locks = false;
}

static void __attribute__((noinline)) read_slow(struct tm_tx *tx, const void *addr, void *dst,
                                                size_t len)
{
    for (;;) {
        memcpy(dst, addr, len);
        atomic_thread_fence(memory_order_acquire);
        if (likely(atomic_load_explicit(&seqlock.seq, memory_order_relaxed) == tx->snapshot))
            break;
        tx->snapshot = revalidate(tx);
    }
    log_value(tx, addr, dst, len);
}

static void norec_read(struct tm_tx *tx, const void *addr, void *dst, size_t len)
{
    tx->bytes_read += len;
    if (tx->owns_locks) {
        memcpy(dst, addr, len);
        return;
    }
    if (likely(len == 8 && ((uintptr_t)addr & 7) == 0)) {
        /* Fast path: an aligned word read while no writer committed since the snapshot. */
        uint64_t value = *(const uint64_t *)addr;
        atomic_thread_fence(memory_order_acquire);
        size_t used = tx->read_log.len;
        if (likely(atomic_load_explicit(&seqlock.seq, memory_order_relaxed) == tx->snapshot &&
                   used + sizeof(struct value_entry) <= tx->read_log.cap)) {
            struct value_entry *e = (struct value_entry *)(tx->read_log.data + used);
            tx->read_log.len = used + sizeof *e;
            e->addr = addr;
            e->len = 8;
            e->value = value;
            *(uint64_t *)dst = value;
            return;
        }
    }
    read_slow(tx, addr, dst, len);
}

static void norec_write(struct tm_tx *tx, void *addr, const void *src, size_t len)
{
    tx->bytes_written += len;
    if (unlikely(!tx->owns_locks)) {
        for (;;) {
            uint64_t expected = tx->snapshot;
            if (atomic_compare_exchange_strong_explicit(&seqlock.seq, &expected, expected + 1,
                                                        memory_order_acq_rel,
                                                        memory_order_relaxed))
                break;
            tx->snapshot = revalidate(tx);
        }
        tx->owns_locks = true;
    }
    tm_undo_record(tx, addr, len);
    memcpy(addr, src, len);
}

static void unlock(struct tm_tx *tx)
{
    if (tx->owns_locks) {
        atomic_store_explicit(&seqlock.seq, tx->snapshot + 2, memory_order_release);
        tx->owns_locks = false;
    }
    tx->read_log.len = 0;
    tx->lock_log.len = 0;
}

static bool norec_commit(struct tm_tx *tx)
{
    tx->commit_time = 0;
    unlock(tx);
    return true;
}

static void norec_rollback(struct tm_tx *tx)
{
    unlock(tx);
}

static bool norec_validate(struct tm_tx *tx)
{
    return tx->owns_locks || values_unchanged(tx);
}

const struct tm_algo tm_algo_norec = {
    .name = "norec",
    .speculative = true,
    .needs_quiescence = false,
    .begin = norec_begin,
    .read = norec_read,
    .write = norec_write,
    .commit = norec_commit,
    .rollback = norec_rollback,
    .validate = norec_validate,
};
