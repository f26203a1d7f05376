/* The -sync switch: the global re-entrant lock and the section names (see
 * critical_sections.h, which holds the list of sections). */
#include <pthread.h>

#include "critical_sections.h"
#include "sv_stats.h"

double sv_clock(void);

const char *const sv_cs_names[CS_COUNT] = {
    [CS_MOVE_COMMAND] = "move_command",
    [CS_CLIENT_MESSAGE] = "client_message",
    [CS_BROADCAST] = "broadcast",
    [CS_SPAWN_PLAYER] = "spawn_player",
    [CS_USERINFO] = "userinfo",
    [CS_SCOREBOARD] = "scoreboard",
};

sv_sync_mode sv_sync = SYNC_NONE;
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

const char *sv_sync_name(sv_sync_mode mode)
{
    switch (mode) {
    case SYNC_LOCK: return "lock";
    case SYNC_STM: return "stm";
    case SYNC_STMLOCK: return "stmlock";
    default: return "none";
    }
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

void sv_cs_count(sv_cs_id id)
{
    sv_stats_thread()->cs_entries[id]++;
}
