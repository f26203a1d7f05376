/* -sync region (see sync/region.h). */
#include "sync/region.h"

#include <pthread.h>

#include "stats/counters.h"

/* Players are 32 units wide and items 62 (their trigger box widened for pickup): any object
 * that meets a reach box lies whole within the box widened by this much, so every leaf such
 * an object overlaps is locked by whoever touches it. */
#define REGION_MARGIN 64.0f

static pthread_mutex_t leaf_locks[QW_AREA_NODES];
static pthread_mutex_t client_locks[SV_MAX_CLIENTS];
static pthread_mutex_t events_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t entities_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t movers_lock = PTHREAD_MUTEX_INITIALIZER;
static qw_area_nodeset all_leaves;

/* The calling thread's planned command and the leaves it holds. */
static __thread struct {
    bool planned;
    int slot;
    sv_reach reach;
    qw_area_nodeset held;
} current;

void sv_region_init(void)
{
    for (int i = 0; i < QW_AREA_NODES; i++)
        pthread_mutex_init(&leaf_locks[i], NULL);
    for (int i = 0; i < SV_MAX_CLIENTS; i++)
        pthread_mutex_init(&client_locks[i], NULL);
    qw_area_enable_list_locks(&sv.area);
    all_leaves = qw_area_all_leaves(&sv.area);
}

/* Locks m, counting the time spent waiting when another thread holds it. */
static void lock_counted(pthread_mutex_t *m)
{
    if (pthread_mutex_trylock(m) == 0)
        return;
    uint64_t t0 = sv_stats_ticks();
    pthread_mutex_lock(m);
    sv_stats_thread()->lock_wait_ticks += sv_stats_ticks() - t0;
}

static void lock_leaves(qw_area_nodeset set)
{
    for (int n = 0; n < QW_AREA_NODES; n++)
        if (set & ((qw_area_nodeset)1 << n))
            lock_counted(&leaf_locks[n]);
    current.held = set;
}

static void unlock_leaves(void)
{
    for (int n = QW_AREA_NODES - 1; n >= 0; n--)
        if (current.held & ((qw_area_nodeset)1 << n))
            pthread_mutex_unlock(&leaf_locks[n]);
    current.held = 0;
}

static qw_area_nodeset leaves_of_reach(const sv_reach *r)
{
    if (r->everywhere)
        return all_leaves;
    qw_area_nodeset set = 0;
    for (int b = 0; b < r->num_boxes; b++) {
        float mins[3], maxs[3];
        for (int i = 0; i < 3; i++) {
            mins[i] = r->mins[b][i] - REGION_MARGIN;
            maxs[i] = r->maxs[b][i] + REGION_MARGIN;
        }
        set |= qw_area_nodes_meeting(&sv.area, mins, maxs, 1);
    }
    return set;
}

void sv_region_plan_move(int slot, const sv_reach *reach)
{
    current.planned = true;
    current.slot = slot;
    current.reach = *reach;
}

void sv_region_enter(sv_cs_id id)
{
    if (id == CS_CLIENT_MESSAGE || id == CS_BROADCAST)
        return; /* they only append to reliable queues, each under its own lock */
    if (id != CS_MOVE_COMMAND || !current.planned) {
        lock_leaves(all_leaves);
        return;
    }
    lock_leaves(leaves_of_reach(&current.reach));
    /* A dead player's command may respawn it, which looks at every player. Whether it is
     * dead is written by whoever kills it, under leaves its box meets: held now. */
    if (sv.players[current.slot].dead && current.held != all_leaves) {
        unlock_leaves();
        lock_leaves(all_leaves);
    }
}

void sv_region_leave(void)
{
    unlock_leaves();
    current.planned = false;
}

/* The small locks beside the leaves (a client's reliable queue, the events, the entities,
 * the movers): held only under -sync region; the other modes' sections cover them. */
static void lock_small(pthread_mutex_t *m)
{
    if (sv_sync == SYNC_REGION)
        lock_counted(m);
}

static void unlock_small(pthread_mutex_t *m)
{
    if (sv_sync == SYNC_REGION)
        pthread_mutex_unlock(m);
}

LIBTM_PURE void sv_region_lock_client(int slot) { lock_small(&client_locks[slot]); }
LIBTM_PURE void sv_region_unlock_client(int slot) { unlock_small(&client_locks[slot]); }
LIBTM_PURE void sv_region_lock_events(void) { lock_small(&events_lock); }
LIBTM_PURE void sv_region_unlock_events(void) { unlock_small(&events_lock); }
LIBTM_PURE void sv_region_lock_entities(void) { lock_small(&entities_lock); }
LIBTM_PURE void sv_region_unlock_entities(void) { unlock_small(&entities_lock); }
LIBTM_PURE void sv_region_lock_movers(void) { lock_small(&movers_lock); }
LIBTM_PURE void sv_region_unlock_movers(void) { unlock_small(&movers_lock); }
