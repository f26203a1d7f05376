/* The -sync switch's locks: the global re-entrant lock of the lock and stmlock modes, and the
 * count of section entries (sync/critical_sections.h lists the sections). */
#include <pthread.h>

#include "clock.h"
#include "stats/counters.h"
#include "sync/critical_sections.h"

static pthread_mutex_t global_lock;

void sv_sync_init(sv_sync_mode mode)
{
    pthread_mutexattr_t attr;
    pthread_mutexattr_init(&attr);
    pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_RECURSIVE);
    pthread_mutex_init(&global_lock, &attr);
    pthread_mutexattr_destroy(&attr);
    sv_sync = mode;
}

void sv_global_lock(void)
{
    if (pthread_mutex_trylock(&global_lock) == 0)
        return;
    /* contended: measure how long we wait (statistics key lock_wait_ms) */
    double t0 = sv_clock();
    pthread_mutex_lock(&global_lock);
    sv_stats_thread()->lock_wait_seconds += sv_clock() - t0;
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
