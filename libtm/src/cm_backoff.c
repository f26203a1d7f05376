/* The managers that restart the loser, after at most a brief wait for a running owner:
 *   backoff    (the default) while threads are no more than processors, wait briefly for the
 *              owner to end; else, or after a few waits, restart after a randomized
 *              exponential backoff
 *   immediate  restart at once
 *   yield      restart after yielding the processor
 *   slice      backoff, and a thread that has run for a scheduler time slice since it last gave
 *              up the processor yields right after its next commit, so that it is preempted
 *              between transactions rather than inside one (the user-level stand-in for
 *              Linux's rseq time-slice extension, which this kernel may lack: README).
 * slice follows "Scheduling support for transactional memory contention management"
 * (Maldonado et al., PPoPP 2010). */
#include "cm.h"
#include "cm_wait.h"
#include "registry.h"
#include "wait.h"

#include <sched.h>
#include <time.h>

#define MAX_WAITS_PER_TRY 4     /* brief waits for owners before one attempt gives up */
#define SLICE_NS 1000000LL      /* slice: a time slice of the kernel's scheduler (about) */
#define CROWDED_BACKOFF_SHIFT 4 /* backoff: at most 256 pauses while threads outnumber processors */
#define BRIEF_WAIT_CYCLES 20000 /* backoff: how long a conflict waits for a running owner */

struct backoff_state {
    uint64_t rng;
    uint32_t waits; /* brief waits in the current attempt */
};
struct slice_state {
    struct backoff_state backoff;
    int64_t slice_start; /* monotonic ns at the thread's last yield */
};
_Static_assert(sizeof(struct slice_state) <= TM_CM_STATE_SIZE, "slice state too large");

static int64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static uint64_t next_random(struct backoff_state *s)
{
    uint64_t x = s->rng;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return s->rng = x;
}

/* The first answer to a conflict: while there are no more threads than processors the owner is
 * most likely running and about to commit, and waiting a few microseconds for it costs less
 * than a restart. A preempted owner would not end soon: crowded, the loser restarts at once.
 * The owner's end shows in what it publishes for privatization (tx.h: an owner of locks is
 * dirty until it ends; its published snapshot changes when it ends or moves on), so the owner
 * pays nothing for being waited for; the caller then looks at the location again. */
static bool wait_briefly(struct tm_tx *tx, struct backoff_state *s, struct tm_tx *owner)
{
    if (s->waits >= MAX_WAITS_PER_TRY || tm_thread_count() > tm_processors())
        return false;
    s->waits++;
    tm_cm_answer_move_request(tx);
    uint64_t snapshot = atomic_load_explicit(&owner->published, memory_order_acquire);
    uint64_t until = tm_cycles() + BRIEF_WAIT_CYCLES;
    while (atomic_load_explicit(&owner->dirty, memory_order_acquire) &&
           atomic_load_explicit(&owner->published, memory_order_acquire) == snapshot &&
           tm_cycles() < until)
        __builtin_ia32_pause();
    tm_cm_answer_move_request(tx);
    return true;
}

/* Randomized exponential backoff. While threads outnumber processors the transaction that won
 * is often preempted: a long spin only keeps it from running, so the loser spins briefly and
 * then gives its processor away. */
static void back_off(struct tm_tx *tx, struct backoff_state *s)
{
    s->waits = 0;
    bool crowded = tm_thread_count() > tm_processors();
    unsigned shift = tx->restarts < 10 ? tx->restarts : 10;
    if (crowded && shift > CROWDED_BACKOFF_SHIFT)
        shift = CROWDED_BACKOFF_SHIFT;
    uint64_t spins = next_random(s) & ((16ull << shift) - 1);
    for (uint64_t i = 0; i < spins; i++)
        __builtin_ia32_pause();
    if (tx->restarts > 6 || (crowded && tx->restarts > 1))
        sched_yield();
}

static void seed(struct backoff_state *s, struct tm_tx *tx)
{
    s->rng = (uint64_t)(uintptr_t)tx * 0x9E3779B97F4A7C15ull ^ tm_cycles();
}

/* ---- backoff --------------------------------------------------------------------------- */

static struct backoff_state *backoff_state(struct tm_tx *tx)
{
    return tm_cm_state(tx, TM_CM_backoff, struct backoff_state);
}
static bool backoff_conflict(struct tm_tx *tx, struct tm_tx *owner)
{
    return wait_briefly(tx, backoff_state(tx), owner);
}
static void backoff_before_restart(struct tm_tx *tx)
{
    back_off(tx, backoff_state(tx));
}
static void backoff_thread_start(struct tm_tx *tx)
{
    seed(backoff_state(tx), tx);
}

const struct tm_cm tm_cm_backoff = {
    .name = "backoff",
    .id = TM_CM_backoff,
    .conflict = backoff_conflict,
    .before_restart = backoff_before_restart,
    .thread_start = backoff_thread_start,
};

/* ---- immediate and yield ---------------------------------------------------------------- */

const struct tm_cm tm_cm_immediate = {
    .name = "immediate",
    .id = TM_CM_immediate,
};

static void yield_before_restart(struct tm_tx *tx)
{
    (void)tx;
    sched_yield();
}

const struct tm_cm tm_cm_yield = {
    .name = "yield",
    .id = TM_CM_yield,
    .before_restart = yield_before_restart,
};

/* ---- slice ----------------------------------------------------------------------------- */

static struct slice_state *slice_state(struct tm_tx *tx)
{
    return tm_cm_state(tx, TM_CM_slice, struct slice_state);
}
static bool slice_conflict(struct tm_tx *tx, struct tm_tx *owner)
{
    return wait_briefly(tx, &slice_state(tx)->backoff, owner);
}
static void slice_before_restart(struct tm_tx *tx)
{
    back_off(tx, &slice_state(tx)->backoff);
}
static void slice_ended(struct tm_tx *tx, bool committed)
{
    struct slice_state *s = slice_state(tx);
    s->backoff.waits = 0;
    if (committed && now_ns() - s->slice_start > SLICE_NS) {
        sched_yield();
        s->slice_start = now_ns();
    }
}
static void slice_thread_start(struct tm_tx *tx)
{
    struct slice_state *s = slice_state(tx);
    seed(&s->backoff, tx);
    s->slice_start = now_ns();
}

const struct tm_cm tm_cm_slice = {
    .name = "slice",
    .id = TM_CM_slice,
    .conflict = slice_conflict,
    .before_restart = slice_before_restart,
    .ended = slice_ended,
    .thread_start = slice_thread_start,
};
