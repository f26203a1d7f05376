/* The -sync switch's locks: the global re-entrant lock of the lock and stmlock modes, and the
 * count of section entries (sync/critical_sections.h lists the sections). */
#include <pthread.h>
#include <unistd.h>

#include "clock.h"
#include "server.h"
#include "stats/counters.h"
#include "sync/critical_sections.h"

/* How long a thread that finds the global lock taken tries again before it sleeps: a move
 * command holds it for about 10 us, and a sleeping waiter took as long again to wake up
 * (futex), every time the lock changed hands between the workers of a frame. Only while
 * every thread has a core of its own: otherwise the holder may be the one waiting for it. */
#define GLOBAL_LOCK_SPIN_SECONDS 20e-6

static pthread_mutex_t global_lock;
static bool spin_first;

void sv_sync_init(sv_sync_mode mode)
{
    pthread_mutexattr_t attr;
    pthread_mutexattr_init(&attr);
    pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_RECURSIVE);
    pthread_mutex_init(&global_lock, &attr);
    pthread_mutexattr_destroy(&attr);
    sv_sync = mode;
    spin_first = sv.opt.threads > 1 && sv.opt.threads <= sysconf(_SC_NPROCESSORS_ONLN);
}

void sv_global_lock(void)
{
    if (pthread_mutex_trylock(&global_lock) == 0)
        return;
    /* contended: measure how long we wait (statistics key lock_wait_ms); the spin's bound is
     * on the clock, read every 8 tries */
    uint64_t t0 = sv_stats_ticks();
    double c0 = sv_clock();
    if (spin_first)
        for (unsigned i = 1;; i++) {
            __builtin_ia32_pause();
            if (i % 8 == 0) {
                if (pthread_mutex_trylock(&global_lock) == 0) {
                    sv_stats_thread()->lock_wait_ticks += sv_stats_ticks() - t0;
                    return;
                }
                if (sv_clock() - c0 > GLOBAL_LOCK_SPIN_SECONDS)
                    break;
            }
        }
    pthread_mutex_lock(&global_lock);
    sv_stats_thread()->lock_wait_ticks += sv_stats_ticks() - t0;
}

bool sv_global_lock_try(void)
{
    return pthread_mutex_trylock(&global_lock) == 0;
}

void sv_global_unlock(void)
{
    pthread_mutex_unlock(&global_lock);
}

__thread int sv_cs_depth;

LIBTM_PURE void sv_cs_count(sv_cs_id id)
{
    sv_stats_thread()->cs_entries[id]++;
}
