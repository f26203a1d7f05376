/* Spin-then-sleep barrier (see sync/barrier.h). */
#include "sync/barrier.h"

#include <limits.h>
#include <linux/futex.h>
#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "clock.h"

static void futex(atomic_uint *word, int op, unsigned value)
{
    syscall(SYS_futex, (unsigned *)word, op | FUTEX_PRIVATE_FLAG, value, NULL, NULL, 0);
}

void sv_barrier_init(sv_barrier *b, unsigned count)
{
    b->count = count;
    b->spin = count <= (unsigned)sysconf(_SC_NPROCESSORS_ONLN);
    atomic_init(&b->arrived, 0);
    atomic_init(&b->generation, 0);
    atomic_init(&b->sleepers, 0);
    atomic_init(&b->spin_budget, SV_BARRIER_SPIN_MAX / 4);
}

/* Spins until the generation moves on (true) or the budget is spent (false), and adapts the
 * budget to what happened: a little more after a wait that spinning caught, half after one
 * it did not (so occasional catches do not keep it high while the cores are taken). After
 * the first microsecond the spin yields the core each time round: if the thread it waits for
 * is queued on this core, it runs at once. */
static bool spin(sv_barrier *b, unsigned generation)
{
    double budget = atomic_load_explicit(&b->spin_budget, memory_order_relaxed);
    double start = sv_clock(), now = start;
    for (unsigned i = 1;; i++) {
        if (atomic_load_explicit(&b->generation, memory_order_acquire) != generation) {
            if (budget < SV_BARRIER_SPIN_MAX)
                atomic_store_explicit(&b->spin_budget, budget + SV_BARRIER_SPIN_MIN,
                                      memory_order_relaxed);
            return true;
        }
        if (i % 16 == 0) {
            now = sv_clock();
            if (now - start > budget) {
                if (budget > SV_BARRIER_SPIN_MIN)
                    atomic_store_explicit(&b->spin_budget, budget / 2, memory_order_relaxed);
                return false;
            }
        }
        if (now - start > 1e-6)
            sched_yield();
        else
            __builtin_ia32_pause();
    }
}

void sv_barrier_wait(sv_barrier *b)
{
    unsigned generation = atomic_load(&b->generation);
    if (atomic_fetch_add(&b->arrived, 1) + 1 == b->count) {
        atomic_store(&b->arrived, 0);
        atomic_fetch_add(&b->generation, 1);
        if (atomic_load(&b->sleepers))
            futex(&b->generation, FUTEX_WAKE, INT_MAX);
        return;
    }
    if (b->spin && spin(b, generation))
        return;
    /* sleepers before generation, as the last one does the reverse (both sequentially
     * consistent): either it sees a sleeper and wakes it, or the sleeper sees the new
     * generation */
    atomic_fetch_add(&b->sleepers, 1);
    while (atomic_load(&b->generation) == generation)
        futex(&b->generation, FUTEX_WAIT, generation);
    atomic_fetch_sub(&b->sleepers, 1);
}
