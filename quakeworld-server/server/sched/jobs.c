/* The frame's jobs (see sched/jobs.h). */
#include "sched/jobs.h"

#include <string.h>

#include "game/game.h"
#include "sched/union_find.h"

/* Union-find elements: player slots first, then entity numbers. */
#define ELEMENTS (SV_MAX_CLIENTS + SV_MAX_ENTITIES)
/* Until a client's first command tells: QuakeWorld clients send one every 13 ms (77/s). */
#define DEFAULT_MSEC 13
/* A job's cost weight when its clients have not been measured yet. */
#define UNMEASURED_COST 10e-6

const sv_choice sv_job_weights[] = {
    {"clients", JOB_WEIGHT_CLIENTS, "its clients with packets"},
    {"cost", JOB_WEIGHT_COST, "their measured processing time"},
    {NULL, 0, NULL},
};

static bool has_packets(const sv_client *cl)
{
    return cl->state >= CL_CONNECTED && cl->inbox_count > 0;
}

/* The union-find element of a linked object that a job may write, or -1 (read-only in RP). */
static int element_of(const qw_area_object *obj)
{
    const sv_player *p = sv_player_for_object(obj);
    if (p)
        return (int)(p - sv.players);
    const sv_entity *e = obj->user;
    if (e && (e->kind == ENT_ITEM || e->kind == ENT_TRIGGER))
        return SV_MAX_CLIENTS + e->number;
    return -1;
}

/* Joins client `slot` with every object of the given kind (areanode list) in the box. A
 * teleporter there may send the player to its far side within one command: what lies around
 * its destination joins too (the game's arrival_box). */
static void join_objects_in_box(sv_union_find *uf, int slot, const float mins[3],
                                const float maxs[3], int kind)
{
    qw_area_object *found[ELEMENTS];
    int n = qw_area_query_box(&sv.area, mins, maxs, kind, found, ELEMENTS);
    for (int i = 0; i < n && i < ELEMENTS; i++) {
        int element = element_of(found[i]);
        const sv_entity *e = found[i]->user;
        if (element >= 0) {
            sv_uf_union(uf, slot, element);
        } else if (e && e->kind == ENT_TELEPORT && !sv_player_for_object(found[i])) {
            float arrival_mins[3], arrival_maxs[3];
            sv_game->arrival_box(e, arrival_mins, arrival_maxs);
            join_objects_in_box(uf, slot, arrival_mins, arrival_maxs, QW_SOLID_BBOX);
            join_objects_in_box(uf, slot, arrival_mins, arrival_maxs, QW_SOLID_TRIGGER);
        }
    }
}

/* Client `slot`'s action box for the packets it has queued, and the objects in it. */
static void join_client(sv_union_find *uf, sv_job_plan *plan, int slot)
{
    const sv_client *cl = &sv.clients[slot];
    const sv_player *p = &sv.players[slot];
    float *mins = plan->box_mins[slot], *maxs = plan->box_maxs[slot];
    if (!p->active || p->spectator) {
        /* touches nothing in the world (the game's command_fits lets it run) */
        memcpy(mins, p->origin, sizeof p->origin);
        memcpy(maxs, p->origin, sizeof p->origin);
        return;
    }
    int msec = cl->lastcmd.msec ? cl->lastcmd.msec : DEFAULT_MSEC;
    sv_game->action_box(slot, cl->inbox_count * msec / 1000.0f, cl->inbox_count, mins, maxs);
    join_objects_in_box(uf, slot, mins, maxs, QW_SOLID_BBOX);
    join_objects_in_box(uf, slot, mins, maxs, QW_SOLID_TRIGGER);
}

double sv_jobs_client_weight(const sv_client *cl, sv_job_weight weight)
{
    if (weight == JOB_WEIGHT_CLIENTS)
        return 1;
    double cost = cl->cost_per_packet > 0 ? cl->cost_per_packet : UNMEASURED_COST;
    return cost * cl->inbox_count * 1e6;
}

void sv_jobs_build(sv_job_plan *plan, sv_job_weight weight)
{
    static int parent[ELEMENTS], job_of_root[ELEMENTS];
    static uint8_t rank[ELEMENTS];
    sv_union_find uf;
    sv_uf_init(&uf, parent, rank, ELEMENTS);
    for (int i = 0; i < SV_MAX_CLIENTS; i++)
        if (has_packets(&sv.clients[i]))
            join_client(&uf, plan, i);

    /* one job per set holding a client with packets: count them, then place the clients */
    for (int i = 0; i < ELEMENTS; i++)
        job_of_root[i] = -1;
    plan->num_jobs = 0;
    for (int i = 0; i < SV_MAX_CLIENTS; i++) {
        const sv_client *cl = &sv.clients[i];
        if (!has_packets(cl))
            continue;
        int root = sv_uf_find(&uf, i);
        if (job_of_root[root] < 0) {
            job_of_root[root] = plan->num_jobs;
            plan->jobs[plan->num_jobs++] = (sv_job){0, 0, 0};
        }
        sv_job *job = &plan->jobs[job_of_root[root]];
        job->weight += sv_jobs_client_weight(cl, weight);
        job->count++;
    }
    int placed = 0;
    for (int j = 0; j < plan->num_jobs; j++) {
        plan->jobs[j].first = placed;
        placed += plan->jobs[j].count;
        plan->jobs[j].count = 0;
    }
    for (int i = 0; i < SV_MAX_CLIENTS; i++)
        if (has_packets(&sv.clients[i])) {
            sv_job *job = &plan->jobs[job_of_root[sv_uf_find(&uf, i)]];
            plan->clients[job->first + job->count++] = i;
        }
    /* every player in a set with a job belongs to it (victims, bystanders); others to none */
    for (int i = 0; i < SV_MAX_CLIENTS; i++)
        plan->job_of_player[i] = sv.players[i].active ? job_of_root[sv_uf_find(&uf, i)] : -1;
}
