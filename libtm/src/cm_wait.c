/* Waiting for an owner's transaction to end (cm_wait.h), and the three managers that do it:
 *   spin      wait for the owner's transaction to end by spinning (bounded), then look again
 *   block     the same on a futex (bounded, 200 us)
 *   handoff   serialises the loser behind the winner with the kernel's help: the loser rolls
 *             back (so it holds nothing) and sleeps on a futex in the winner's descriptor
 *             until the winner's transaction ends; the winner's end wakes it. The winner either
 *             commits or rolls back, and both wake; a backstop of 1 ms covers a winner that
 *             waits for the loser's thread: an open transaction (libtm_open) sleeps while its
 *             parent, suspended until it ends, holds data the winner's commit must wait for.
 * handoff follows "Scheduling support for transactional memory contention management"
 * (Maldonado et al., PPoPP 2010). */
#include "cm_wait.h"
#include "cm.h"
#include "wait.h"

#include <sched.h>

#define MAX_WAITS_PER_TRY 4    /* waits for owners before one attempt gives up */
#define SPIN_LIMIT 4096        /* pause instructions per spin wait */
#define BLOCK_TIMEOUT_NS 200000
#define HANDOFF_BACKSTOP_NS 1000000

void tm_cm_announce_end(struct tm_cm_end_count *count, bool sleepers)
{
    uint32_t seq = atomic_load_explicit(&count->seq, memory_order_relaxed) + 1;
    if (sleepers) {
        atomic_exchange_explicit(&count->seq, seq, memory_order_seq_cst);
        if (atomic_load_explicit(&count->waiters, memory_order_relaxed))
            tm_futex_wake(&count->seq);
    } else {
        atomic_store_explicit(&count->seq, seq, memory_order_release);
    }
}

/* The waiter count is raised with a full barrier and the ender publishes its count with one
 * (tm_cm_announce_end), so one of them always sees the other: no wake-up is lost. seq may have
 * been read just after the owner's transaction ended (the conflict was seen before): then it
 * counts the owner's next end, which never comes if the owner is idle or gone. So it sleeps
 * only while the owner runs a transaction, whose end will wake it. */
void tm_cm_sleep_until_end(struct tm_tx *owner, struct tm_cm_end_count *count, uint32_t seq,
                           long timeout_ns)
{
    atomic_fetch_add_explicit(&count->waiters, 1, memory_order_seq_cst);
    if (atomic_load_explicit(&count->seq, memory_order_seq_cst) == seq &&
        atomic_load_explicit(&owner->reader, memory_order_seq_cst))
        tm_futex_wait(&count->seq, seq, timeout_ns);
    atomic_fetch_sub_explicit(&count->waiters, 1, memory_order_relaxed);
}

void tm_cm_wait_for_end(struct tm_tx *tx, struct tm_tx *owner, struct tm_cm_end_count *count,
                        bool block)
{
    tm_cm_answer_move_request(tx);
    uint32_t seq = atomic_load_explicit(&count->seq, memory_order_acquire);
    if (block) {
        tm_cm_sleep_until_end(owner, count, seq, BLOCK_TIMEOUT_NS);
    } else {
        unsigned i = 0;
        while (i < SPIN_LIMIT && atomic_load_explicit(&count->seq, memory_order_acquire) == seq) {
            __builtin_ia32_pause();
            i++;
        }
        if (i == SPIN_LIMIT)
            sched_yield(); /* the owner is probably preempted: let it run */
    }
    tm_cm_answer_move_request(tx);
}

/* ---- spin and block -------------------------------------------------------------------- */

struct waiting_state {
    uint32_t waits; /* waits for owners in the current attempt */
};
_Static_assert(sizeof(struct waiting_state) <= TM_CM_STATE_SIZE, "spin/block state too large");
_Static_assert(sizeof(struct tm_cm_end_count) <= TM_CM_SHARED_SIZE, "end count too large");

static inline bool wait_for_owner(struct tm_tx *tx, struct tm_tx *owner, enum tm_cm_id id)
{
    struct waiting_state *s = tm_cm_state(tx, id, struct waiting_state);
    if (s->waits >= MAX_WAITS_PER_TRY)
        return false;
    s->waits++;
    tm_cm_wait_for_end(tx, owner, tm_cm_shared(owner, id, struct tm_cm_end_count),
                       id == TM_CM_block);
    return true;
}

static bool spin_conflict(struct tm_tx *tx, struct tm_tx *owner)
{
    return wait_for_owner(tx, owner, TM_CM_spin);
}
static bool block_conflict(struct tm_tx *tx, struct tm_tx *owner)
{
    return wait_for_owner(tx, owner, TM_CM_block);
}
static void spin_before_restart(struct tm_tx *tx)
{
    tm_cm_state(tx, TM_CM_spin, struct waiting_state)->waits = 0;
}
static void block_before_restart(struct tm_tx *tx)
{
    tm_cm_state(tx, TM_CM_block, struct waiting_state)->waits = 0;
}
static void spin_ended(struct tm_tx *tx, bool committed)
{
    (void)committed;
    tm_cm_state(tx, TM_CM_spin, struct waiting_state)->waits = 0;
    tm_cm_announce_end(tm_cm_shared(tx, TM_CM_spin, struct tm_cm_end_count), false);
}
static void block_ended(struct tm_tx *tx, bool committed)
{
    (void)committed;
    tm_cm_state(tx, TM_CM_block, struct waiting_state)->waits = 0;
    tm_cm_announce_end(tm_cm_shared(tx, TM_CM_block, struct tm_cm_end_count), true);
}

const struct tm_cm tm_cm_spin = {
    .name = "spin",
    .id = TM_CM_spin,
    .conflict = spin_conflict,
    .before_restart = spin_before_restart,
    .ended = spin_ended,
};

const struct tm_cm tm_cm_block = {
    .name = "block",
    .id = TM_CM_block,
    .conflict = block_conflict,
    .before_restart = block_before_restart,
    .ended = block_ended,
};

/* ---- handoff --------------------------------------------------------------------------- */

struct handoff_state {
    struct tm_tx *owner; /* the winner of the last conflict */
    uint32_t owner_seq;  /* ... and its end count when the conflict happened */
};
_Static_assert(sizeof(struct handoff_state) <= TM_CM_STATE_SIZE, "handoff state too large");

static bool handoff_conflict(struct tm_tx *tx, struct tm_tx *owner)
{
    struct handoff_state *s = tm_cm_state(tx, TM_CM_handoff, struct handoff_state);
    s->owner = owner;
    s->owner_seq = atomic_load_explicit(
        &tm_cm_shared(owner, TM_CM_handoff, struct tm_cm_end_count)->seq, memory_order_acquire);
    return false;
}

static void handoff_before_restart(struct tm_tx *tx)
{
    struct handoff_state *s = tm_cm_state(tx, TM_CM_handoff, struct handoff_state);
    if (s->owner) {
        tm_cm_sleep_until_end(s->owner, tm_cm_shared(s->owner, TM_CM_handoff,
                                                     struct tm_cm_end_count),
                              s->owner_seq, HANDOFF_BACKSTOP_NS);
        s->owner = NULL;
    }
}

static void handoff_ended(struct tm_tx *tx, bool committed)
{
    (void)committed;
    tm_cm_announce_end(tm_cm_shared(tx, TM_CM_handoff, struct tm_cm_end_count), true);
}

static void handoff_thread_start(struct tm_tx *tx)
{
    tm_cm_state(tx, TM_CM_handoff, struct handoff_state)->owner = NULL;
}

const struct tm_cm tm_cm_handoff = {
    .name = "handoff",
    .id = TM_CM_handoff,
    .conflict = handoff_conflict,
    .before_restart = handoff_before_restart,
    .ended = handoff_ended,
    .thread_start = handoff_thread_start,
};
