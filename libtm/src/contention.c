/* The contention managers; see contention.h.
 *
 * The three that use the scheduler follow "Scheduling support for transactional memory
 * contention management" (Maldonado et al., PPoPP 2010):
 *   handoff   serialises the loser behind the winner with the kernel's help: the loser rolls
 *             back (so it holds nothing) and sleeps on a futex in the winner's descriptor
 *             until the winner's transaction ends; the winner's end wakes it. No timeout: the
 *             winner either commits or rolls back, and both wake.
 *   softprio  soft serialisation: the loser's nice value is raised (its priority lowered)
 *             while the winner's transaction runs. A conflict matrix, one bit per thread in
 *             the winner's descriptor, remembers who lost to whom; the winner's end restores
 *             the priority of every loser that no other running winner keeps lowered.
 *   slice     a thread that has run for a scheduler time slice since it last gave up the
 *             processor yields right after its next commit, so that it is preempted between
 *             transactions rather than inside one (the user-level stand-in for Linux's rseq
 *             time-slice extension, which this kernel may lack: README).
 * Raising a nice value back needs CAP_SYS_NICE or RLIMIT_NICE; without them a lowered thread
 * stays lowered (priority, softprio). */
#include "contention.h"
#include "config.h"
#include "fatal.h"
#include "privatization.h"
#include "registry.h"
#include "wait.h"
#include "../include/libtm.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

const char *const tm_cm_names[CM_POLICY_COUNT] = {
    [CM_BACKOFF] = "backoff", [CM_IMMEDIATE] = "immediate", [CM_SPIN] = "spin",
    [CM_BLOCK] = "block",     [CM_YIELD] = "yield",         [CM_PRIORITY] = "priority",
    [CM_HANDOFF] = "handoff", [CM_SOFTPRIO] = "softprio",   [CM_SLICE] = "slice",
};

#define MAX_WAITS_PER_TRY 4    /* waits for owners before one attempt gives up */
#define SPIN_LIMIT 4096        /* pause instructions per spin wait */
#define BLOCK_TIMEOUT_NS 200000
#define LOWER_NICE 5           /* how much priority, softprio lower a loser's priority */
#define SLICE_NS 1000000LL     /* slice: a time slice of the kernel's scheduler (about) */
#define CROWDED_BACKOFF_SHIFT 4 /* backoff: at most 256 pauses while threads outnumber processors */
#define BRIEF_WAIT_CYCLES 20000 /* backoff: how long a conflict waits for a running owner */

static int64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static uint64_t next_random(struct tm_tx *tx)
{
    uint64_t x = tx->cm.rng;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return tx->cm.rng = x;
}

/* ---- waiting for an owner's transaction to end ------------------------------------------ */

/* A thread waiting in privatization.c for this transaction to move on is answered before and
 * after each wait, so that waits do not chain. */
static void answer_move_request(struct tm_tx *tx)
{
    if (tx->algo->move_snapshot && tm_move_requested(tx))
        tx->algo->move_snapshot(tx);
}

/* Sleeps until owner's end count differs from seq (or timeout_ns passes, if > 0). The waiter
 * count is raised with a full barrier and the ender publishes its count with one (see
 * tm_cm_transaction_end), so one of them always sees the other: no wake-up is lost.
 * seq may have been read just after the owner's transaction ended (the conflict was seen
 * before): then it counts the owner's next end, which never comes if the owner is idle or
 * gone. So it sleeps only while the owner runs a transaction, whose end will wake it. */
static void sleep_until_end(struct tm_tx *owner, uint32_t seq, long timeout_ns)
{
    atomic_fetch_add_explicit(&owner->end_waiters, 1, memory_order_seq_cst);
    if (atomic_load_explicit(&owner->end_seq, memory_order_seq_cst) == seq &&
        atomic_load_explicit(&owner->reader, memory_order_seq_cst))
        tm_futex_wait(&owner->end_seq, seq, timeout_ns);
    atomic_fetch_sub_explicit(&owner->end_waiters, 1, memory_order_relaxed);
}

static void wait_for_end(struct tm_tx *tx, struct tm_tx *owner, bool block)
{
    answer_move_request(tx);
    uint32_t seq = atomic_load_explicit(&owner->end_seq, memory_order_acquire);
    if (block) {
        sleep_until_end(owner, seq, BLOCK_TIMEOUT_NS);
    } else {
        unsigned i = 0;
        while (i < SPIN_LIMIT && atomic_load_explicit(&owner->end_seq, memory_order_acquire) == seq) {
            __builtin_ia32_pause();
            i++;
        }
        if (i == SPIN_LIMIT)
            sched_yield(); /* the owner is probably preempted: let it run */
    }
    answer_move_request(tx);
}

/* ---- priorities ------------------------------------------------------------------------- */

static int thread_id(void)
{
    return (int)syscall(SYS_gettid);
}

static void lower_priority(struct tm_tx *tx)
{
    if (tx->cm.lowered)
        return;
    errno = 0;
    int now = getpriority(PRIO_PROCESS, (id_t)tx->cm.tid);
    if (errno == 0 && setpriority(PRIO_PROCESS, (id_t)tx->cm.tid, now + LOWER_NICE) == 0) {
        tx->cm.nice = now;
        tx->cm.lowered = true;
    }
}

/* Also called by another thread (softprio: the winner restores its losers). */
static void restore_priority(struct tm_tx *tx)
{
    if (tx->cm.lowered && setpriority(PRIO_PROCESS, (id_t)tx->cm.tid, tx->cm.nice) == 0)
        tx->cm.lowered = false;
}

static uint64_t thread_bit(const struct tm_tx *tx)
{
    return 1ull << (tx->thread_index % 64);
}

/* softprio: the winner's transaction ended; its losers that no other winner holds back get
 * their priority again. */
static void release_losers(struct tm_tx *winner)
{
    uint64_t losers = atomic_exchange_explicit(&winner->losers, 0, memory_order_acq_rel);
    uint64_t me = thread_bit(winner);
    for (struct tm_tx *d = tm_all_descriptors(); d && losers; d = d->next_all) {
        if (!(losers & thread_bit(d)) || !atomic_load_explicit(&d->in_use, memory_order_acquire))
            continue;
        if ((atomic_fetch_and_explicit(&d->lowered_by, ~me, memory_order_acq_rel) & ~me) == 0)
            restore_priority(d);
    }
}

/* ---- the events --------------------------------------------------------------------------- */

/* backoff's first answer to a conflict: while there are no more threads than processors the
 * owner is most likely running and about to commit, and waiting a few microseconds for it
 * costs less than a restart. A preempted owner would not end soon: crowded, the loser restarts
 * at once. The owner's end shows in what it publishes for privatization (tx.h: an owner of
 * locks is dirty until it ends; its published snapshot changes when it ends or moves on), so
 * the owner pays nothing for being waited for; the caller then looks at the location again. */
static bool wait_briefly(struct tm_tx *tx, struct tm_tx *owner)
{
    if (tx->cm.waits >= MAX_WAITS_PER_TRY || tm_thread_count() > tm_processors())
        return false;
    tx->cm.waits++;
    answer_move_request(tx);
    uint64_t snapshot = atomic_load_explicit(&owner->published, memory_order_acquire);
    uint64_t until = tm_cycles() + BRIEF_WAIT_CYCLES;
    while (atomic_load_explicit(&owner->dirty, memory_order_acquire) &&
           atomic_load_explicit(&owner->published, memory_order_acquire) == snapshot &&
           tm_cycles() < until)
        __builtin_ia32_pause();
    answer_move_request(tx);
    return true;
}

bool tm_cm_conflict(struct tm_tx *tx, struct tm_tx *owner, enum tm_abort_reason reason)
{
    (void)reason;
    switch (tm_config.cm) {
    case CM_BACKOFF:
    case CM_SLICE:
        return wait_briefly(tx, owner);
    case CM_SPIN:
    case CM_BLOCK:
        if (tx->cm.waits >= MAX_WAITS_PER_TRY)
            return false;
        tx->cm.waits++;
        wait_for_end(tx, owner, tm_config.cm == CM_BLOCK);
        return true;
    case CM_HANDOFF:
        tx->cm.owner = owner;
        tx->cm.owner_seq = atomic_load_explicit(&owner->end_seq, memory_order_acquire);
        return false;
    case CM_SOFTPRIO:
        atomic_fetch_or_explicit(&owner->losers, thread_bit(tx), memory_order_acq_rel);
        atomic_fetch_or_explicit(&tx->lowered_by, thread_bit(owner), memory_order_acq_rel);
        tx->cm.owner = owner;
        tx->cm.owner_seq = atomic_load_explicit(&owner->end_seq, memory_order_acquire);
        return false;
    default:
        return false;
    }
}

/* Randomized exponential backoff. While threads outnumber processors the transaction that won
 * is often preempted: a long spin only keeps it from running, so the loser spins briefly and
 * then gives its processor away. */
static void backoff(struct tm_tx *tx)
{
    bool crowded = tm_thread_count() > tm_processors();
    unsigned shift = tx->restarts < 10 ? tx->restarts : 10;
    if (crowded && shift > CROWDED_BACKOFF_SHIFT)
        shift = CROWDED_BACKOFF_SHIFT;
    uint64_t spins = next_random(tx) & ((16ull << shift) - 1);
    for (uint64_t i = 0; i < spins; i++)
        __builtin_ia32_pause();
    if (tx->restarts > 6 || (crowded && tx->restarts > 1))
        sched_yield();
}

void tm_cm_before_restart(struct tm_tx *tx)
{
    tx->cm.waits = 0;
    switch (tm_config.cm) {
    case CM_BACKOFF:
    case CM_SLICE:
        backoff(tx);
        break;
    case CM_YIELD:
        sched_yield();
        break;
    case CM_PRIORITY:
        lower_priority(tx);
        sched_yield();
        break;
    case CM_HANDOFF:
        if (tx->cm.owner) {
            sleep_until_end(tx->cm.owner, tx->cm.owner_seq, 0);
            tx->cm.owner = NULL;
        }
        break;
    case CM_SOFTPRIO:
        if (tx->cm.owner) {
            lower_priority(tx);
            /* The winner may have ended before it could see us in its matrix. */
            if (atomic_load_explicit(&tx->cm.owner->end_seq, memory_order_acquire) !=
                tx->cm.owner_seq) {
                atomic_fetch_and_explicit(&tx->lowered_by, ~thread_bit(tx->cm.owner),
                                          memory_order_acq_rel);
                if (atomic_load_explicit(&tx->lowered_by, memory_order_acquire) == 0)
                    restore_priority(tx);
            }
            tx->cm.owner = NULL;
        }
        sched_yield();
        break;
    default:
        break;
    }
}

void tm_cm_ended(struct tm_tx *tx, bool committed)
{
    tx->cm.waits = 0;
    /* The end count tells waiters (spin, block, handoff, softprio) that this transaction
     * ended. Only this thread writes it; the managers that sleep need the full barrier
     * between it and the waiter count (sleep_until_end). */
    uint32_t seq = atomic_load_explicit(&tx->end_seq, memory_order_relaxed) + 1;
    int cm = tm_config.cm;
    if (cm == CM_BLOCK || cm == CM_HANDOFF) {
        atomic_exchange_explicit(&tx->end_seq, seq, memory_order_seq_cst);
        if (atomic_load_explicit(&tx->end_waiters, memory_order_relaxed))
            tm_futex_wake(&tx->end_seq);
    } else {
        atomic_store_explicit(&tx->end_seq, seq, memory_order_release);
    }
    if (cm == CM_SOFTPRIO && atomic_load_explicit(&tx->losers, memory_order_relaxed))
        release_losers(tx);
    if (!committed)
        return;
    if (cm == CM_PRIORITY)
        restore_priority(tx);
    if (cm == CM_SLICE && now_ns() - tx->cm.slice_start > SLICE_NS) {
        sched_yield();
        tx->cm.slice_start = now_ns();
    }
}

void tm_cm_thread_start(struct tm_tx *tx)
{
    tx->cm.rng = (uint64_t)(uintptr_t)tx * 0x9E3779B97F4A7C15ull ^ tm_cycles();
    tx->cm.tid = thread_id();
    tx->cm.lowered = false;
    tx->cm.owner = NULL;
    tx->cm.slice_start = now_ns();
    atomic_store(&tx->losers, 0);
    atomic_store(&tx->lowered_by, 0);
}

void tm_cm_thread_exit(struct tm_tx *tx)
{
    if (atomic_load(&tx->losers))
        release_losers(tx);
    restore_priority(tx);
}

int libtm_set_contention_manager(const char *name)
{
    for (int i = 0; i < CM_POLICY_COUNT; i++) {
        if (name && strcmp(name, tm_cm_names[i]) == 0) {
            tm_config.cm = i;
            tm_config.cm_hears_ends = tm_cm_hears_ends(i);
            return 0;
        }
    }
    return -1;
}

/* LIBTM_CM: the manager, backoff unless it names another. */
void tm_cm_init(void)
{
    const char *s = getenv("LIBTM_CM");
    if (s && *s && libtm_set_contention_manager(s) != 0) {
        char names[256];
        size_t n = 0;
        for (int i = 0; i < CM_POLICY_COUNT; i++)
            n += (size_t)snprintf(names + n, sizeof names - n, "%s%s", i ? ", " : "",
                                  tm_cm_names[i]);
        tm_warn("LIBTM_CM=%s is unknown; use one of %s (keeping %s)", s, names,
                tm_cm_names[tm_config.cm]);
    }
}
