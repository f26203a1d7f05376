/* orec's writers in turns: norec's writers run one at a time (the first write takes the
 * sequence lock until commit), orec's run side by side. Where writers share data, as the move
 * commands of a game do (each reads every player's position while it moves its own), side by
 * side means that one's commit invalidates what the other read: on id's game at 2 threads
 * orec aborted 3-4 % of its attempts, norec none. So orec measures its own writers: each
 * thread counts, over a window of OREC_TURNS_WINDOW writing commits, the transactions that
 * rolled back; more than OREC_TURNS_ABORT_PER_MILLE of them switch turns on for the process.
 * Then a transaction takes the turn (a token) before its first lock and gives it back at its
 * end; read-only transactions and the reads before a first write run as before. After
 * OREC_TURNS_SPAN turns the process goes back to writers side by side, and the threads'
 * windows judge again (the windows that saw a switch begin anew), so a workload whose
 * writers stop conflicting gets its parallel writers back. LIBTM_TURNS=0 keeps them side by
 * side always (config.c).
 *
 * The token is a hint, never a lock that correctness needs: the orecs still decide every
 * conflict. So a waiter gives up after OREC_TURN_WAIT_CYCLES (a holder that is preempted,
 * or that waits to become irrevocable for the waiter to end) and goes on without the turn,
 * an open transaction whose parent holds it goes on at once, and a transaction that holds
 * locks never waits for it (it is taken before the first). */
#include "orec_turns.h"

#include "cm_wait.h"
#include "config.h"
#include "registry.h"
#include "wait.h"

#include <sched.h>

_Atomic uint32_t tm_orec_turns_on;

/* The token's line: written by each writer in turn, so apart from the flag that every first
 * lock reads. */
static struct {
    _Alignas(TM_CACHELINE) _Atomic(struct tm_tx *) holder;
    _Atomic uint32_t given;   /* turns since they were switched on (written by the holder) */
    _Atomic uint32_t epoch;   /* switches so far */
    char pad[TM_CACHELINE - sizeof(void *) - 2 * sizeof(uint32_t)];
} token;

void tm_orec_turn_take(struct tm_tx *tx, struct orec_turns_window *w)
{
    w->turn = TURN_WITHOUT;
    if (tm_thread_count() > tm_processors())
        return; /* the holder may be waiting for a processor: spinning only delays it */
    uint64_t until = tm_cycles() + OREC_TURN_WAIT_CYCLES;
    for (;;) {
        struct tm_tx *none = NULL;
        if (atomic_compare_exchange_weak_explicit(&token.holder, &none, tx, memory_order_acquire,
                                                  memory_order_relaxed)) {
            w->turn = TURN_HELD;
            return;
        }
        struct tm_tx *holder;
        while ((holder = atomic_load_explicit(&token.holder, memory_order_relaxed))) {
            if (tm_open_ancestor(tx, holder))
                return; /* an open transaction's parent, suspended until it ends */
            __builtin_ia32_pause();
            tm_cm_answer_move_request(tx);
            if (tm_cycles() > until)
                return;
        }
    }
}

void tm_orec_turn_give(void)
{
    uint32_t given = atomic_load_explicit(&token.given, memory_order_relaxed) + 1;
    atomic_store_explicit(&token.given, given, memory_order_relaxed);
    if (given >= OREC_TURNS_SPAN && atomic_load_explicit(&tm_orec_turns_on,
                                                                   memory_order_relaxed)) {
        atomic_store_explicit(&tm_orec_turns_on, 0, memory_order_relaxed);
        atomic_fetch_add_explicit(&token.epoch, 1, memory_order_relaxed);
    }
    atomic_store_explicit(&token.holder, NULL, memory_order_release);
}

void tm_orec_turns_judge(struct orec_turns_window *w)
{
    uint32_t epoch = atomic_load_explicit(&token.epoch, memory_order_relaxed);
    bool frequent = (uint64_t)w->aborts * 1000 >
                    (uint64_t)(w->commits + w->aborts) * OREC_TURNS_ABORT_PER_MILLE;
    if (epoch == w->epoch && frequent && tm_config.turns && !atomic_load_explicit(&tm_orec_turns_on,
                                                                memory_order_relaxed)) {
        atomic_store_explicit(&token.given, 0, memory_order_relaxed); /* may race a holder's count: a span's length only */
        atomic_fetch_add_explicit(&token.epoch, 1, memory_order_relaxed);
        atomic_store_explicit(&tm_orec_turns_on, 1, memory_order_relaxed);
        epoch++;
    }
    w->commits = w->aborts = 0;
    w->epoch = epoch;
}
