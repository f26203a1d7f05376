/* The managers that lower a loser's scheduling priority:
 *   priority  restart, with the thread's priority lowered (nice + 5) until it commits
 *   softprio  soft serialisation: the loser's nice value is raised (its priority lowered)
 *             while the winner's transaction runs. A conflict matrix, one bit per thread in
 *             the winner's descriptor, remembers who lost to whom; the winner's end restores
 *             the priority of every loser that no other running winner keeps lowered.
 * softprio follows "Scheduling support for transactional memory contention management"
 * (Maldonado et al., PPoPP 2010). Raising a nice value back needs CAP_SYS_NICE or
 * RLIMIT_NICE; without them a lowered thread stays lowered. */
#include "cm.h"
#include "cm_wait.h"
#include "registry.h"

#include <errno.h>
#include <sched.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#define LOWER_NICE 5 /* how much a loser's priority is lowered */

/* A thread's nice value, and whether this manager lowered it. */
struct nice {
    int tid;      /* the thread's kernel id ... */
    int value;    /* ... and its nice value before it was lowered */
    bool lowered; /* the nice value is raised now */
};

static void lower_priority(struct nice *n)
{
    if (n->lowered)
        return;
    errno = 0;
    int now = getpriority(PRIO_PROCESS, (id_t)n->tid);
    if (errno == 0 && setpriority(PRIO_PROCESS, (id_t)n->tid, now + LOWER_NICE) == 0) {
        n->value = now;
        n->lowered = true;
    }
}

/* Also called by another thread (softprio: the winner restores its losers). */
static void restore_priority(struct nice *n)
{
    if (n->lowered && setpriority(PRIO_PROCESS, (id_t)n->tid, n->value) == 0)
        n->lowered = false;
}

static void start_nice(struct nice *n)
{
    n->tid = (int)syscall(SYS_gettid);
    n->lowered = false;
}

/* ---- priority -------------------------------------------------------------------------- */

_Static_assert(sizeof(struct nice) <= TM_CM_STATE_SIZE, "priority state too large");

static struct nice *priority_state(struct tm_tx *tx)
{
    return tm_cm_state(tx, TM_CM_priority, struct nice);
}
static void priority_before_restart(struct tm_tx *tx)
{
    lower_priority(priority_state(tx));
    sched_yield();
}
static void priority_ended(struct tm_tx *tx, bool committed)
{
    if (committed)
        restore_priority(priority_state(tx));
}
static void priority_thread_start(struct tm_tx *tx)
{
    start_nice(priority_state(tx));
}
static void priority_thread_exit(struct tm_tx *tx)
{
    restore_priority(priority_state(tx));
}

const struct tm_cm tm_cm_priority = {
    .name = "priority",
    .id = TM_CM_priority,
    .before_restart = priority_before_restart,
    .ended = priority_ended,
    .thread_start = priority_thread_start,
    .thread_exit = priority_thread_exit,
};

/* ---- softprio -------------------------------------------------------------------------- */

struct softprio_state {
    struct nice nice;
    struct tm_tx *owner; /* the winner of the last conflict ... */
    uint32_t owner_seq;  /* ... and its end count when the conflict happened */
};
_Static_assert(sizeof(struct softprio_state) <= TM_CM_STATE_SIZE, "softprio state too large");

/* What other threads read or write: the end count, and the conflict matrix's row and column. */
struct softprio_shared {
    struct tm_cm_end_count ends;
    _Atomic uint64_t losers;     /* threads (index % 64) that lost to this one */
    _Atomic uint64_t lowered_by; /* threads (index % 64) this one lost to */
};
_Static_assert(sizeof(struct softprio_shared) <= TM_CM_SHARED_SIZE, "softprio shared state too large");

static struct softprio_state *softprio_state(struct tm_tx *tx)
{
    return tm_cm_state(tx, TM_CM_softprio, struct softprio_state);
}
static struct softprio_shared *softprio_shared(struct tm_tx *tx)
{
    return tm_cm_shared(tx, TM_CM_softprio, struct softprio_shared);
}

static uint64_t thread_bit(const struct tm_tx *tx)
{
    return 1ull << (tx->thread_index % 64);
}

/* The winner's transaction ended; its losers that no other winner holds back get their
 * priority again. */
static void release_losers(struct tm_tx *winner)
{
    uint64_t losers = atomic_exchange_explicit(&softprio_shared(winner)->losers, 0,
                                               memory_order_acq_rel);
    uint64_t me = thread_bit(winner);
    for (struct tm_tx *d = tm_all_descriptors(); d && losers; d = d->next_all) {
        if (!(losers & thread_bit(d)) || !atomic_load_explicit(&d->in_use, memory_order_acquire))
            continue;
        if ((atomic_fetch_and_explicit(&softprio_shared(d)->lowered_by, ~me,
                                       memory_order_acq_rel) & ~me) == 0)
            restore_priority(&softprio_state(d)->nice);
    }
}

static bool softprio_conflict(struct tm_tx *tx, struct tm_tx *owner)
{
    struct softprio_state *s = softprio_state(tx);
    atomic_fetch_or_explicit(&softprio_shared(owner)->losers, thread_bit(tx), memory_order_acq_rel);
    atomic_fetch_or_explicit(&softprio_shared(tx)->lowered_by, thread_bit(owner),
                             memory_order_acq_rel);
    s->owner = owner;
    s->owner_seq = atomic_load_explicit(&softprio_shared(owner)->ends.seq, memory_order_acquire);
    return false;
}

static void softprio_before_restart(struct tm_tx *tx)
{
    struct softprio_state *s = softprio_state(tx);
    if (s->owner) {
        lower_priority(&s->nice);
        /* The winner may have ended before it could see us in its matrix. */
        if (atomic_load_explicit(&softprio_shared(s->owner)->ends.seq, memory_order_acquire) !=
            s->owner_seq) {
            struct softprio_shared *mine = softprio_shared(tx);
            atomic_fetch_and_explicit(&mine->lowered_by, ~thread_bit(s->owner),
                                      memory_order_acq_rel);
            if (atomic_load_explicit(&mine->lowered_by, memory_order_acquire) == 0)
                restore_priority(&s->nice);
        }
        s->owner = NULL;
    }
    sched_yield();
}

static void softprio_ended(struct tm_tx *tx, bool committed)
{
    (void)committed;
    struct softprio_shared *shared = softprio_shared(tx);
    tm_cm_announce_end(&shared->ends, false);
    if (atomic_load_explicit(&shared->losers, memory_order_relaxed))
        release_losers(tx);
}

static void softprio_thread_start(struct tm_tx *tx)
{
    struct softprio_state *s = softprio_state(tx);
    start_nice(&s->nice);
    s->owner = NULL;
    atomic_store(&softprio_shared(tx)->losers, 0);
    atomic_store(&softprio_shared(tx)->lowered_by, 0);
}

static void softprio_thread_exit(struct tm_tx *tx)
{
    if (atomic_load(&softprio_shared(tx)->losers))
        release_losers(tx);
    restore_priority(&softprio_state(tx)->nice);
}

const struct tm_cm tm_cm_softprio = {
    .name = "softprio",
    .id = TM_CM_softprio,
    .conflict = softprio_conflict,
    .before_restart = softprio_before_restart,
    .ended = softprio_ended,
    .thread_start = softprio_thread_start,
    .thread_exit = softprio_thread_exit,
};
