/* The contention managers; see contention.h. */
#include "contention.h"

#include <sched.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

const char *const tm_cm_names[CM_POLICY_COUNT] = {
    [CM_BACKOFF] = "backoff", [CM_IMMEDIATE] = "immediate", [CM_SPIN] = "spin",
    [CM_BLOCK] = "block",     [CM_YIELD] = "yield",         [CM_PRIORITY] = "priority",
};

#define MAX_WAITS_PER_TRY 4    /* waits for owners before one attempt gives up */
#define SPIN_LIMIT 4096        /* pause instructions per spin wait */
#define BLOCK_TIMEOUT_NS 200000

static __thread int lowered_nice = -1; /* CM_PRIORITY: nice value to restore, -1 if none */

static uint64_t next_random(struct tm_tx *tx)
{
    tx->rng ^= tx->rng << 13;
    tx->rng ^= tx->rng >> 7;
    tx->rng ^= tx->rng << 17;
    return tx->rng;
}

/* A thread waiting in privatization.c for this transaction to move on is answered before and
 * after each wait, so that waits do not chain. */
static void answer_move_request(struct tm_tx *tx)
{
    if (tx->algo->move_snapshot && tm_move_requested(tx))
        tx->algo->move_snapshot(tx);
}

static void wait_for_end(struct tm_tx *tx, struct tm_tx *owner, bool block)
{
    answer_move_request(tx);
    uint32_t seq = atomic_load_explicit(&owner->end_seq, memory_order_acquire);
    if (block) {
        atomic_fetch_add(&owner->end_waiters, 1);
        tm_futex_wait(&owner->end_seq, seq, BLOCK_TIMEOUT_NS);
        atomic_fetch_sub(&owner->end_waiters, 1);
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

bool tm_cm_conflict(struct tm_tx *tx, struct tm_tx *owner, enum tm_abort_reason reason)
{
    (void)reason;
    int cm = tm_config.cm;
    if ((cm == CM_SPIN || cm == CM_BLOCK) && tx->cm_waits < MAX_WAITS_PER_TRY) {
        tx->cm_waits++;
        wait_for_end(tx, owner, cm == CM_BLOCK);
        return true;
    }
    return false;
}

void tm_cm_before_restart(struct tm_tx *tx)
{
    switch (tm_config.cm) {
    case CM_BACKOFF: {
        unsigned shift = tx->restarts < 10 ? tx->restarts : 10;
        uint64_t spins = next_random(tx) & ((16ull << shift) - 1);
        for (uint64_t i = 0; i < spins; i++)
            __builtin_ia32_pause();
        if (tx->restarts > 6)
            sched_yield();
        break;
    }
    case CM_YIELD:
        sched_yield();
        break;
    case CM_PRIORITY:
        if (lowered_nice < 0) {
            pid_t tid = (pid_t)syscall(SYS_gettid);
            int old = getpriority(PRIO_PROCESS, (id_t)tid);
            if (setpriority(PRIO_PROCESS, (id_t)tid, old + 5) == 0)
                lowered_nice = old + 20; /* stored biased so that -20..19 fits >= 0 */
        }
        sched_yield();
        break;
    default:
        break;
    }
}

void tm_cm_restore_priority(struct tm_tx *tx)
{
    (void)tx;
    if (lowered_nice >= 0) {
        /* Raising the priority back needs CAP_SYS_NICE or RLIMIT_NICE; without them the
         * thread stays lowered, which the README says. */
        pid_t tid = (pid_t)syscall(SYS_gettid);
        setpriority(PRIO_PROCESS, (id_t)tid, lowered_nice - 20);
        lowered_nice = -1;
    }
}
