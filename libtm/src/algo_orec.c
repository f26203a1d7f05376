/* "orec": time-based ownership records, encounter-time locking, writes in place.
 *
 * A global clock and a table of ownership records (orecs); each 32-byte stripe of memory maps
 * to one orec. An orec holds either a version (the commit time << 1) or, while a writer owns
 * it, the owner's descriptor address | 1. A transaction reads at a snapshot time: a read
 * checks that the stripe's orec is unlocked and not newer than the snapshot, copies the data
 * and checks the orec again, and logs the address and the value. An orec newer than the
 * snapshot, or another thread waiting for this transaction to move on (privatization.c),
 * extends the snapshot: every logged orec must still be unlocked (or ours) and not newer than
 * the old snapshot, or else every logged value must still be in memory, checked against one
 * bound (values_hold), then the snapshot becomes the current time. This gives opacity: every
 * read belongs to one consistent snapshot. The values make a write to other words of a stripe,
 * or to a stripe that shares the orec, abort nobody (orec's false conflicts). The read fast
 * path compares the orec with the descriptor's read limit (tx.h) instead, which is the
 * snapshot or lower.
 *
 * Writes lock the orec at encounter time (conflicts go to the contention manager), undo-log
 * the old bytes and store in place. Commit validates the reads (the same way) and releases
 * the orecs with the commit time. Rollback (after the core restored the undo log) releases
 * them with a fresh time, so that a reader that copied a dirty value can never see the same
 * version again.
 *
 * The commit time is the clock + 1, read after every lock is held, and the commit does not
 * advance the clock (TL2's GV5): a commit writes no shared cache line besides its data and
 * orecs, where a fetch_add on the clock at every commit moved the clock's line between the
 * processors (graph, tiny disjoint transactions on 2 threads: 1.25 x the time without it).
 * A reader that finds a version newer than its snapshot advances the clock to that version
 * (clock_reach) before it extends, so the clock moves only when data is really shared.
 * Why it is still consistent: a writer holds every lock when it reads the clock, so its
 * versions are newer than every snapshot taken before that read; a transaction that read the
 * old data earlier sees the orec locked or newer at its next extension or commit and fails
 * validation; one whose snapshot is at least the commit time took it after the clock reached
 * that time, hence after the writer locked its data: it waits for the lock or reads the new
 * values. What GV5 gives up: several commits share a time, so "nobody committed since my
 * snapshot" can no longer be read off the clock and an updating commit validates its reads.
 * So a transaction whose thread was the only one when it began (no other can register, and
 * so commit, while it runs) commits as before, advancing the clock without validating:
 * travel, 1 thread, forced orec, cost 16 % more instructions a transaction with GV5 alone.
 *
 * Privatization: a commit returns the time up to which other transactions must move on before
 * this thread touches data the transaction made private: its commit time, or for a read-only
 * transaction its snapshot (it may have seen another thread's privatizing commit). The
 * transactions that are still older answer from their next barrier by extending their
 * snapshot (or restarting, when they are doomed); see privatization.c.
 *
 * algo_orec.h holds the table, the state and the read fast path, which the barriers inline. */
#include "algo_orec.h"
#include "events.h"
#include "fatal.h"
#include "registry.h"
#include "transaction.h"
#include "undo_log.h"

#include <stdlib.h>
#include <string.h>

orec_t tm_orecs[OREC_COUNT] __attribute__((aligned(TM_CACHELINE)));
/* Starts at 1: a snapshot is never 0, so a read limit of 0 always means "move on". */
static struct {
    _Alignas(TM_CACHELINE) _Atomic uint64_t now;
    char pad[TM_CACHELINE - sizeof(uint64_t)];
} global_clock = { .now = 1 };

struct lock_entry {
    orec_t *orec;
    uint64_t previous;
};

static inline bool is_locked(uint64_t v) { return v & 1; }

/* The clock, at least `time` (a version seen in an orec, which may be the clock + 1). */
static void clock_reach(uint64_t time)
{
    uint64_t now = atomic_load_explicit(&global_clock.now, memory_order_relaxed);
    while (now < time && !atomic_compare_exchange_weak_explicit(&global_clock.now, &now, time,
                                                                memory_order_seq_cst,
                                                                memory_order_relaxed))
        ;
}
static inline uint64_t version_of(uint64_t v) { return v >> 1; }

/* Every logged read's orec still unlocked (or ours) and not newer than the snapshot. An orec
 * that we locked after reading it was not newer than the snapshot when we locked it (acquire
 * extends first), and nobody else could change it since. (tm_orec_for ignores the length in
 * the entry's top bits.) */
static bool versions_hold(struct tm_tx *tx, const struct orec_tx *s)
{
    uint64_t mine = tm_orec_locked_by(tx), limit = s->snapshot << 1;
    for (const struct orec_read *e = s->read_base; e < s->read_next; e++) {
        uint64_t v = atomic_load_explicit(tm_orec_for(e->addr_len), memory_order_relaxed);
        if (v > limit && v != mine) /* locked values are odd and larger than any version */
            return false;
    }
    return true;
}

static uint64_t load_logged(const struct orec_read *e)
{
    const void *p = (const void *)(e->addr_len & (((uintptr_t)1 << OREC_READ_LEN_SHIFT) - 1));
    uint64_t v = 0;
    switch (e->addr_len >> OREC_READ_LEN_SHIFT) {
    case 1: __builtin_memcpy(&v, p, 1); break;
    case 2: __builtin_memcpy(&v, p, 2); break;
    case 4: __builtin_memcpy(&v, p, 4); break;
    case 8: __builtin_memcpy(&v, p, 8); break;
    default: __builtin_memcpy(&v, p, e->addr_len >> OREC_READ_LEN_SHIFT); break;
    }
    return v;
}

/* How a value revalidation ended: every read holds at the bound, one changed, or they would
 * hold at a later time (an orec's version is newer than the bound: a commit that may be the
 * clock + 1, see the top of the file). */
enum validation { READS_HOLD, READS_CHANGED, READS_NEED_LATER };

/* How long a value revalidation waits for another writer's lock on a record it read (about
 * 7 us at 3 GHz): the holder is usually committing a neighbour's write, and then the words
 * are judged at a later bound (its version is above this one); a holder that waits for us, or is preempted, is given up. */
#define LOCK_WAIT_CYCLES 20000

/* The orec, once unlocked, or still locked after LOCK_WAIT_CYCLES. */
static uint64_t wait_unlocked(orec_t *o)
{
    uint64_t until = tm_cycles() + LOCK_WAIT_CYCLES, v;
    do {
        for (int i = 0; i < 8; i++)
            __builtin_ia32_pause();
        v = atomic_load_explicit(o, memory_order_acquire);
    } while (is_locked(v) && tm_cycles() < until);
    return v;
}

/* Value revalidation, NOrec's check made to fit orecs: every read not under our own lock is
 * checked, in one pass after the caller read the clock (`bound`): its orec unlocked at a
 * version v <= bound, its words equal to the logged value, the orec still v after them. Then
 * each location held the logged value at time `bound`: commits up to the bound locked before
 * the clock was read and show in v (or as a lock); a later writer shows as a version above the
 * bound, or locks after the check and serialises after the bound.
 *
 * Every read is checked by value, not only those whose orec moved: data that a privatizing
 * commit made private is written with plain stores that no orec shows, and a pointer to it
 * may be published again with the same value (what 82f6087 missed: a node's word kept its
 * orec but not its value while its slot went from the node to NULL and back). The slot's
 * republishing commit happens after the word's check, so its version is above the bound and
 * the pass is redone at a later bound, where the word no longer matches. Skipped: reads of
 * frames called inside the transaction (between the thread's stack bottom and the outermost
 * begin's CFA, as norec does), which only this thread writes, with direct stores that change
 * their values; and reads under our own lock: once a transaction is dirty a privatizer waits
 * for it (privatization.c) and writes nothing it read until it has validated past the
 * privatizing commit; a lock taken while such a request was pending is validated by versions
 * alone (acquire_slow). */
static enum validation values_hold(struct tm_tx *tx, const struct orec_tx *s, uint64_t bound,
                                   uint64_t *later)
{
    uint64_t mine = tm_orec_locked_by(tx), newest = 0;
    uintptr_t frames_lo = tx->stack_lo, frames_hi = (uintptr_t)tx->jb.cfa;
    if (frames_lo == 0) /* the thread library did not say: the live frames only */
        __asm__("movq %%rsp, %0" : "=r"(frames_lo));
    for (const struct orec_read *e = s->read_base; e < s->read_next; e++) {
        orec_t *o = tm_orec_for(e->addr_len);
        uint64_t v = atomic_load_explicit(o, memory_order_acquire);
        uintptr_t addr = e->addr_len & (((uintptr_t)1 << OREC_READ_LEN_SHIFT) - 1);
        if (v == mine || (addr >= frames_lo && addr < frames_hi))
            continue;
        if (is_locked(v) && is_locked(v = wait_unlocked(o)))
            return READS_CHANGED;
        uint64_t now = load_logged(e);
        atomic_thread_fence(memory_order_acquire);
        if (now != e->value || atomic_load_explicit(o, memory_order_relaxed) != v)
            return READS_CHANGED;
        if (version_of(v) > bound && version_of(v) > newest)
            newest = version_of(v);
    }
    *later = newest;
    return newest ? READS_NEED_LATER : READS_HOLD;
}

/* Value revalidations that ask for a later bound before giving up (each moves the clock). */
#define VALUE_ROUNDS 4

/* Whether every read holds at *time, a time the clock reached after every lock was held
 * (the caller read it); *time may move forward. By versions first (nothing moved: the usual
 * case), then, unless `by_value` is false, by values. */
static bool reads_hold(struct tm_tx *tx, const struct orec_tx *s, uint64_t *time, bool by_value)
{
    if (likely(versions_hold(tx, s)))
        return true;
    if (!by_value)
        return false;
    for (int round = 0; round < VALUE_ROUNDS; round++) {
        uint64_t later;
        switch (values_hold(tx, s, *time, &later)) {
        case READS_HOLD:
            return true;
        case READS_CHANGED:
            return false;
        case READS_NEED_LATER:
            clock_reach(later);
            *time = atomic_load_explicit(&global_clock.now, memory_order_seq_cst);
            break;
        }
    }
    return false;
}

/* Raises the read fast path's limit to the snapshot, unless a waiting thread just set it to
 * 0 (then the next read moves the snapshot). */
static void raise_limit(struct tm_tx *tx, uint64_t seen, uint64_t snapshot)
{
    atomic_compare_exchange_strong_explicit(&tx->read_limit, &seen, tm_orec_limit(snapshot),
                                            memory_order_relaxed, memory_order_relaxed);
}

/* Moves the snapshot to the current time if everything read so far still holds.
 *
 * A waiting thread's request (read limit 0) must never be lost: the limit is raised at the end
 * by a compare-and-swap from the value seen here, which fails if a request arrived meanwhile.
 * A request already pending would make that value 0 again, so that a second request arriving
 * during the extension left the limit unchanged and the compare-and-swap succeeded: the second
 * requester's commit (newer than the clock read here) then went unseen, and this transaction
 * went on reading data that thread had privatized (orec's rare privatization failures). So a
 * pending request is taken first, by exchanging it for the limit of snapshot 0 (no version
 * passes the fast path but the never-written 0) before the clock is read: the requests it
 * takes are older than the new snapshot, and any later one changes the limit again.
 *
 * "Older than the new snapshot" needs one more step with commits that do not advance the
 * clock (top of the file): a requester's time is its commit's, the clock + 1 as it read it
 * before its request, and the clock may still be there. So a transaction that takes a
 * request advances the clock by one and moves to that: every requester it took read the
 * clock before (its request is a release store after its commit), so its commit time is at
 * most the new snapshot, and the requester, which waits until the dirty transactions it
 * asked have published at least its commit time, is not kept waiting until they end. */
static void extend(struct tm_tx *tx, bool by_value)
{
    struct orec_tx *s = tm_orec_state(tx);
    uint64_t seen = atomic_load_explicit(&tx->read_limit, memory_order_relaxed);
    uint64_t now;
    if (seen == 0) {
        seen = tm_orec_limit(0);
        atomic_exchange_explicit(&tx->read_limit, seen, memory_order_seq_cst);
        now = atomic_fetch_add_explicit(&global_clock.now, 1, memory_order_seq_cst) + 1;
    } else {
        now = atomic_load_explicit(&global_clock.now, memory_order_seq_cst);
    }
    if (!reads_hold(tx, s, &now, by_value))
        tm_restart(tx, ABORT_VALIDATE);
    s->snapshot = now;
    tm_publish(tx, now);
    raise_limit(tx, seen, now);
}

static void extend_or_restart(struct tm_tx *tx)
{
    extend(tx, true);
}

static void orec_begin(struct tm_tx *tx)
{
    struct orec_tx *s = tm_orec_state(tx);
    uint64_t now = atomic_load_explicit(&global_clock.now, memory_order_acquire);
    /* Published before the first read. A committer that saw this thread inactive read its
     * flag before this seq_cst store, so its commit time is not newer than the clock we read
     * next; publish that if it moved. */
    atomic_store_explicit(&tx->published, now, memory_order_seq_cst);
    s->snapshot = atomic_load_explicit(&global_clock.now, memory_order_acquire);
    if (s->snapshot != now)
        tm_publish(tx, s->snapshot);
    /* A new thread registers under the serial lock's write side, which waits for this
     * transaction (a reader): while it runs, nobody else can commit. */
    s->alone = tm_thread_count() == 1;
    /* The read fast path's limit stays below what the previous snapshot allowed; reads of
     * newer versions take the slow path once and raise it. */
}

void tm_orec_log_grow(struct orec_tx *s)
{
    size_t used = (size_t)(s->read_next - s->read_base);
    size_t cap = s->read_base ? (size_t)(s->read_end - s->read_base) * 2 : 256;
    struct orec_read *base = realloc(s->read_base, cap * sizeof *base);
    if (!base)
        tm_fatal("out of memory growing a read log to %zu entries", cap);
    s->read_base = base;
    s->read_next = base + used;
    s->read_end = base + cap;
}

static inline void copy_small(void *dst, const void *src, size_t n)
{
    switch (n) {
    case 1: __builtin_memcpy(dst, src, 1); break;
    case 2: __builtin_memcpy(dst, src, 2); break;
    case 4: __builtin_memcpy(dst, src, 4); break;
    case 8: __builtin_memcpy(dst, src, 8); break;
    default: memcpy(dst, src, n); break;
    }
}

/* Logs the `n` bytes read at `src` (copied to `dst`), as entries of at most 8 bytes. */
static void log_bytes(struct orec_tx *s, const uint8_t *src, const uint8_t *dst, size_t n)
{
    while (n) {
        size_t k = n < 8 ? n : 8;
        uint64_t value = 0;
        copy_small(&value, dst, k);
        tm_orec_log_read(s, (uintptr_t)src, value, k);
        src += k;
        dst += k;
        n -= k;
    }
}

/* Reads bytes that lie within one stripe, handling every case: locked, newer, requested. */
static void read_chunk(struct tm_tx *tx, const uint8_t *src, uint8_t *dst, size_t n)
{
    struct orec_tx *s = tm_orec_state(tx);
    orec_t *o = tm_orec_for((uintptr_t)src);
    for (;;) {
        uint64_t v = atomic_load_explicit(o, memory_order_acquire);
        if (unlikely(is_locked(v))) {
            if (v == tm_orec_locked_by(tx)) {
                copy_small(dst, src, n);
                return;
            }
            if (!tm_event_conflict(tx, (struct tm_tx *)(uintptr_t)(v & ~(uint64_t)1),
                                   ABORT_CONFLICT_READ))
                tm_restart(tx, ABORT_CONFLICT_READ);
            continue; /* the contention manager waited: look again */
        }
        uint64_t limit = atomic_load_explicit(&tx->read_limit, memory_order_relaxed);
        if (unlikely(version_of(v) > s->snapshot || limit == 0)) {
            clock_reach(version_of(v));
            extend_or_restart(tx);
            continue;
        }
        if (v >= limit)
            raise_limit(tx, limit, s->snapshot);
        copy_small(dst, src, n);
        atomic_thread_fence(memory_order_acquire);
        if (likely(atomic_load_explicit(o, memory_order_relaxed) == v && !tm_move_requested(tx))) {
            log_bytes(s, src, dst, n);
            return;
        }
    }
}

static void orec_read(struct tm_tx *tx, const void *addr, void *dst, size_t len)
{
    const uint8_t *src = addr;
    uint8_t *out = dst;
    while (len) {
        size_t room = STRIPE_SIZE - ((uintptr_t)src & (STRIPE_SIZE - 1));
        size_t n = len < room ? len : room;
        read_chunk(tx, src, out, n);
        src += n;
        out += n;
        len -= n;
    }
}

uint64_t tm_orec_load_slow(const void *addr, struct tm_tx *tx, size_t len)
{
    uint64_t value = 0;
    orec_read(tx, addr, &value, len);
    return value;
}

void tm_orec_acquire_slow(struct tm_tx *tx, orec_t *o)
{
    struct orec_tx *s = tm_orec_state(tx);
    uint64_t mine = tm_orec_locked_by(tx);
    for (;;) {
        uint64_t v = atomic_load_explicit(o, memory_order_relaxed);
        if (v == mine)
            return;
        if (unlikely(is_locked(v))) {
            if (!tm_event_conflict(tx, (struct tm_tx *)(uintptr_t)(v & ~(uint64_t)1),
                                   ABORT_CONFLICT_WRITE))
                tm_restart(tx, ABORT_CONFLICT_WRITE);
            continue;
        }
        if (unlikely(version_of(v) > s->snapshot || tm_move_requested(tx))) {
            clock_reach(version_of(v));
            extend_or_restart(tx);
            continue;
        }
        /* Before the first lock: the turn, while writers take turns (orec_turns.c). */
        if (unlikely(atomic_load_explicit(&tm_orec_turns_on, memory_order_relaxed)) &&
            s->locks.len == 0 && s->turns.turn == TURN_NONE && !s->alone) {
            tm_orec_turn_take(tx, &s->turns);
            continue; /* look at the orec again: it may have moved while we waited */
        }
        tm_mark_dirty(tx);
        if (atomic_compare_exchange_weak_explicit(o, &v, mine, memory_order_seq_cst,
                                                  memory_order_relaxed)) {
            /* Later stores to the data must not become visible before the lock. */
            atomic_thread_fence(memory_order_release);
            struct lock_entry *e = TM_LOG_PUSH(&s->locks, struct lock_entry);
            e->orec = o;
            e->previous = v;
            /* A privatizing committer that did not see the dirty flag has lowered the limit
             * before looking: validate before writing (privatization.c). By versions only:
             * the committer did not wait for us, so plain stores may have changed what we
             * read in this stripe, which values_hold would skip as ours. */
            if (unlikely(tm_move_requested(tx)))
                extend(tx, false);
            return;
        }
    }
}

void tm_orec_write(struct tm_tx *tx, void *addr, const void *src, size_t len)
{
    uint8_t *p = addr;
    size_t left = len;
    while (left) {
        size_t room = STRIPE_SIZE - ((uintptr_t)p & (STRIPE_SIZE - 1));
        size_t n = left < room ? left : room;
        tm_orec_acquire(tx, tm_orec_for((uintptr_t)p));
        p += n;
        left -= n;
    }
    tm_undo_record(tx, addr, len);
    memcpy(addr, src, len);
}


static void release_all(struct orec_tx *s, uint64_t version)
{
    uint64_t v = version << 1;
    size_t n = TM_LOG_COUNT(&s->locks, struct lock_entry);
    struct lock_entry *e = (struct lock_entry *)(void *)s->locks.data;
    for (size_t i = 0; i < n; i++)
        atomic_store_explicit(e[i].orec, v, memory_order_release);
    s->locks.len = 0;
}

static void end(struct tm_tx *tx, struct orec_tx *s)
{
    s->read_next = s->read_base;
    tm_publish_end(tx);
}

static bool orec_commit(struct tm_tx *tx, uint64_t *privatization_time)
{
    struct orec_tx *s = tm_orec_state(tx);
    if (s->locks.len == 0) {
        /* Read-only: serialised at its snapshot. It may have privatized data by seeing
         * another thread's commit: older transactions must move past its snapshot (a bound
         * on what it read; tracking the newest version read costs every read more than the
         * few extra validations this asks of others). */
        *privatization_time = s->snapshot;
        end(tx, s);
        return true;
    }
    /* Every lock is held (their compare-and-swaps came first): see the top of the file. A
     * thread alone has nobody to share the clock's line with, and its next transaction, which
     * often reads what this one wrote, then needs no extension. */
    uint64_t ct;
    if (s->alone) {
        ct = atomic_fetch_add_explicit(&global_clock.now, 1, memory_order_acq_rel) + 1;
    } else {
        uint64_t time = atomic_load_explicit(&global_clock.now, memory_order_seq_cst);
        if (!reads_hold(tx, s, &time, true))
            return false;
        ct = time + 1;
    }
    release_all(s, ct);
    if (!s->alone) {
        tm_orec_turn_end(&s->turns);
        tm_orec_turns_commit(&s->turns);
    }
    end(tx, s);
    *privatization_time = ct;
    return true;
}

static void orec_rollback(struct tm_tx *tx)
{
    struct orec_tx *s = tm_orec_state(tx);
    if (s->locks.len) {
        uint64_t fresh = atomic_fetch_add_explicit(&global_clock.now, 1, memory_order_acq_rel) + 1;
        release_all(s, fresh);
    }
    tm_orec_turn_end(&s->turns);
    s->turns.aborts++;
    end(tx, s);
}

static bool orec_validate(struct tm_tx *tx)
{
    uint64_t time = atomic_load_explicit(&global_clock.now, memory_order_seq_cst);
    return reads_hold(tx, tm_orec_state(tx), &time, true);
}

TM_SIZED_LOADS(tm_orec_load)
TM_SIZED_STORES(tm_orec_store)

/* Writable: with LIBTM_CONFLICTS on, conflict_watch.c puts its watching barrier entries in
 * before the first transaction; off, these stay as they are (no cost). */
struct tm_algo tm_orec_entries __attribute__((visibility("hidden"))) = {
    .name = "orec",
    .id = TM_ALGO_orec,
    .speculative = true,
    .read_path = TM_READ_OREC,
    .write_path = TM_WRITE_OREC,
    .begin = orec_begin,
    .load = TM_SIZED(tm_orec_load),
    .store = TM_SIZED(tm_orec_store),
    .read = orec_read,
    .write = tm_orec_write,
    .commit = orec_commit,
    .rollback = orec_rollback,
    .validate = orec_validate,
    .move_snapshot = extend_or_restart,
};
extern const struct tm_algo tm_algo_orec __attribute__((alias("tm_orec_entries")));
