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

/* Read log entries reuse the undo log's layout: [value bytes, padded][address][length]. */
struct value_trailer {
    const void *addr;
    size_t len;
};

static inline size_t pad8(size_t n) { return (n + 7) & ~(size_t)7; }

static bool values_unchanged(struct tm_tx *tx)
{
    uint8_t *p = tx->read_log.data, *end = p + tx->read_log.len;
    while (p < end) {
        /* Entries are walked forwards: the length is needed first, so it leads the entry. */
        size_t len = *(size_t *)p;
        const void *addr = *(const void **)(p + sizeof(size_t));
        const uint8_t *value = p + sizeof(size_t) + sizeof(void *);
        if (memcmp(addr, value, len) != 0)
            return false;
        p += sizeof(size_t) + sizeof(void *) + pad8(len);
    }
    return true;
}

static uint64_t wait_unlocked(void)
{
    unsigned round = 0;
    for (;;) {
        uint64_t s = atomic_load_explicit(&seqlock.seq, memory_order_acquire);
        if (!(s & 1))
            return s;
        tm_wait_pause(&round);
    }
}

/* Returns a new snapshot at which every logged value still holds, or restarts. */
static uint64_t revalidate(struct tm_tx *tx)
{
    for (;;) {
        uint64_t s = wait_unlocked();
        if (!values_unchanged(tx))
            tm_restart(tx, ABORT_VALIDATE);
        atomic_thread_fence(memory_order_acquire);
        if (atomic_load_explicit(&seqlock.seq, memory_order_relaxed) == s)
            return s;
    }
}

static void norec_begin(struct tm_tx *tx)
{
    tx->snapshot = wait_unlocked();
    tx->owns_locks = false;
}

static void norec_read(struct tm_tx *tx, const void *addr, void *dst, size_t len)
{
    tx->bytes_read += len;
    if (tx->owns_locks) {
        memcpy(dst, addr, len);
        return;
    }
    for (;;) {
        memcpy(dst, addr, len);
        atomic_thread_fence(memory_order_acquire);
        if (likely(atomic_load_explicit(&seqlock.seq, memory_order_relaxed) == tx->snapshot))
            break;
        tx->snapshot = revalidate(tx);
    }
    uint8_t *e = tm_log_append(&tx->read_log, sizeof(size_t) + sizeof(void *) + pad8(len));
    *(size_t *)e = len;
    *(const void **)(e + sizeof(size_t)) = addr;
    memcpy(e + sizeof(size_t) + sizeof(void *), dst, len);
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
