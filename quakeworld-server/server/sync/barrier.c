/* Spin-then-sleep barriers (see sync/barrier.h). */
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
    atomic_init(&b->master_sleeping, 0);
}

/* Spins until done(b, arg) (true) or the waiter's budget is spent (false), and adapts the
 * budget to what happened: a little more after a wait that spinning caught, half after one it
 * did not (so occasional catches do not keep it high while the cores are taken). After the
 * first microsecond the spin yields the core each time round: if the thread it waits for is
 * queued on this core, it runs at once. */
static bool spin(sv_barrier_waiter *w, bool (*done)(sv_barrier *, unsigned), sv_barrier *b,
                 unsigned arg)
{
    if (w->budget <= 0)
        w->budget = SV_BARRIER_SPIN_MAX / 4;
    double start = sv_clock(), now = start;
    for (unsigned i = 1;; i++) {
        if (done(b, arg)) {
            if (w->budget < SV_BARRIER_SPIN_MAX)
                w->budget += SV_BARRIER_SPIN_MIN;
            w->spin_seconds += sv_clock() - start;
            return true;
        }
        if (i % 16 == 0) {
            now = sv_clock();
            if (now - start > w->budget) {
                if (w->budget > SV_BARRIER_SPIN_MIN)
                    w->budget /= 2;
                w->spin_seconds += now - start;
                return false;
            }
        }
        if (now - start > 1e-6)
            sched_yield();
        else
            __builtin_ia32_pause();
    }
}

static bool generation_moved(sv_barrier *b, unsigned generation)
{
    return atomic_load_explicit(&b->generation, memory_order_acquire) != generation;
}

static bool all_others_arrived(sv_barrier *b, unsigned unused)
{
    (void)unused;
    return atomic_load_explicit(&b->arrived, memory_order_acquire) == b->count - 1;
}

static void let_go(sv_barrier *b)
{
    atomic_store(&b->arrived, 0);
    atomic_fetch_add(&b->generation, 1);
    if (atomic_load(&b->sleepers))
        futex(&b->generation, FUTEX_WAKE, INT_MAX);
}

void sv_barrier_wait(sv_barrier *b, sv_barrier_waiter *w)
{
    unsigned generation = atomic_load(&b->generation);
    unsigned arrived = atomic_fetch_add(&b->arrived, 1) + 1;
    if (arrived == b->count) {
        let_go(b);
        return;
    }
    /* the master of sv_barrier_join may be asleep, waiting for this last arrival */
    if (arrived == b->count - 1 && atomic_load(&b->master_sleeping))
        futex(&b->arrived, FUTEX_WAKE, 1);
    if (b->spin && spin(w, generation_moved, b, generation))
        return;
    /* sleepers before generation, as the last one does the reverse (both sequentially
     * consistent): either it sees a sleeper and wakes it, or the sleeper sees the new
     * generation */
    double t0 = sv_clock();
    atomic_fetch_add(&b->sleepers, 1);
    while (atomic_load(&b->generation) == generation) {
        futex(&b->generation, FUTEX_WAIT, generation);
        /* woken ahead of the release (sv_barrier_prewake): it is near */
        sv_barrier_waiter after_wake = {.budget = SV_BARRIER_SPIN_MAX};
        if (b->spin && spin(&after_wake, generation_moved, b, generation)) {
            w->spin_seconds += after_wake.spin_seconds;
            t0 += after_wake.spin_seconds; /* counted as spinning, not asleep */
            break;
        }
        w->spin_seconds += after_wake.spin_seconds;
        t0 += after_wake.spin_seconds;
    }
    atomic_fetch_sub(&b->sleepers, 1);
    w->sleep_seconds += sv_clock() - t0;
    w->sleeps++;
}

void sv_barrier_prewake(sv_barrier *b)
{
    if (atomic_load(&b->sleepers))
        futex(&b->generation, FUTEX_WAKE, INT_MAX);
}

void sv_barrier_join(sv_barrier *b, sv_barrier_waiter *w)
{
    if (b->count == 1 || (b->spin && spin(w, all_others_arrived, b, 0)))
        return;
    /* the same handshake as above, on `arrived`: the last arrival sees the flag, or the
     * master sees the arrival */
    double t0 = sv_clock();
    atomic_store(&b->master_sleeping, 1);
    unsigned arrived;
    while ((arrived = atomic_load(&b->arrived)) != b->count - 1)
        futex(&b->arrived, FUTEX_WAIT, arrived);
    atomic_store(&b->master_sleeping, 0);
    w->sleep_seconds += sv_clock() - t0;
    w->sleeps++;
}

void sv_barrier_release(sv_barrier *b)
{
    let_go(b);
}
