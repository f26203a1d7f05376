/* Weapons (see weapons.h). */
#include "cgame/weapons.h"

#include <string.h>

#include "cgame/combat.h"
#include "cgame/entities.h"
#include "cgame/cgame.h"
#include "cgame/random.h"
#include "net/events.h"
#include "qw_math.h"
#include "sched/job_plan.h"
#include "server.h"
#include "stats/counters.h"

static const float zero_vec[3] = {0, 0, 0};
#define SHOTGUN_PELLETS 6
#define SHOTGUN_DAMAGE 4
#define SHOTGUN_RANGE 2048.0f
#define SHOTGUN_SPREAD 0.04f
#define ROCKET_SPEED 1000.0f

/* Where shots leave a player (16 units above the origin) and the view vectors. */
static void weapon_aim(const sv_player *p, const float angles[3], float src[3], float forward[3],
                       float right[3], float up[3])
{
    qw_angle_vectors(angles, forward, right, up);
    qw_vec_copy(p->origin, src);
    src[2] += 16;
}

/* One instant hit from src toward end: blood and damage on a player, a puff on a wall. */
static bool hitscan(sv_client *cl, sv_player *p, const float src[3], const float end[3],
                    int damage, sv_damage_cause cause)
{
    qw_trace tr;
    qw_world_move(&sv.area, src, zero_vec, zero_vec, end, QW_MOVE_NORMAL, &p->link, &tr);
    sv_player *victim = sv_player_for_object(tr.ent);
    if (victim) {
        sv_event_temp_entity(TE_BLOOD, tr.endpos);
        return sv_game_damage((int)(victim - sv.players), cl->slot, damage, src, cause);
    }
    if (tr.fraction < 1.0f)
        sv_event_temp_entity(TE_GUNSHOT, tr.endpos);
    return true;
}

/* -sched lpt: what a job's shots leave for the serial phase (sv_weapons_run_deferred), one
 * list per worker. The shotgun's pellets fly 2048 units, to players of any job; a rocket
 * takes an entity number, which all jobs would allocate from. (The rocket then flies in U, as
 * every rocket does, so it belongs to no job.) A shot that finds its list full is not fired
 * (no ammunition spent); there is room for two per player and frame, and refiring takes half
 * a second of the player's own clock. */
#define DEFERRED_SHOTS (2 * SV_MAX_CLIENTS)
typedef struct deferred_shot {
    int slot;
    float src[3];
    float ends[SHOTGUN_PELLETS][3];
} deferred_shot;
typedef struct deferred_rocket {
    int slot;
    float start[3], angles[3];
} deferred_rocket;
static struct {
    int num_shots, num_rockets;
    deferred_shot shots[DEFERRED_SHOTS];
    deferred_rocket rockets[DEFERRED_SHOTS];
} __attribute__((aligned(64))) deferred[SV_MAX_THREADS];

static bool fire_shotgun(sv_client *cl, sv_player *p, const float angles[3])
{
    deferred_shot *later = NULL;
    if (sv_in_job()) {
        __typeof__(deferred[0]) *d = &deferred[sv_thread_index];
        if (d->num_shots == DEFERRED_SHOTS)
            return true;
        later = &d->shots[d->num_shots++];
        later->slot = cl->slot;
    }
    p->shells--;
    p->attack_finished = p->time + 0.5;
    float forward[3], right[3], up[3], src[3];
    weapon_aim(p, angles, src, forward, right, up);
    bool ok = true;
    for (int i = 0; i < SHOTGUN_PELLETS; i++) {
        float dir[3], end[3];
        qw_vec_ma(forward, SHOTGUN_SPREAD * sv_crandom(&p->random_state), right, dir);
        qw_vec_ma(dir, SHOTGUN_SPREAD * sv_crandom(&p->random_state), up, dir);
        qw_vec_ma(src, SHOTGUN_RANGE, dir, end);
        if (later)
            qw_vec_copy(end, later->ends[i]);
        else
            ok &= hitscan(cl, p, src, end, SHOTGUN_DAMAGE, DMG_SHOTGUN);
    }
    if (later)
        qw_vec_copy(src, later->src);
    sv_event_sound(sv_player_entnum(cl->slot), 1, sv.sound_shotgun, p->origin);
    return ok;
}

/* Where a rocket fired by p with these view angles starts. */
static void rocket_start(const sv_player *p, const float angles[3], float start[3])
{
    float forward[3], right[3], up[3], src[3];
    weapon_aim(p, angles, src, forward, right, up);
    qw_vec_ma(src, 8.0f, forward, start);
}

/* A new rocket, e, fired by player `slot` from `start` with these view angles. */
static void launch_rocket(sv_entity *e, int slot, const float start[3], const float angles[3])
{
    float forward[3], right[3], up[3];
    qw_angle_vectors(angles, forward, right, up);
    qw_vec_copy(start, e->origin);
    qw_vec_ma(zero_vec, ROCKET_SPEED, forward, e->velocity);
    e->angles[0] = -angles[0]; /* model pitch is the view pitch inverted */
    e->angles[1] = angles[1];
    e->angles[2] = 0;
    e->modelindex = sv.model_missile;
    e->frame = e->skinnum = 0;
    e->effects = 0;
    e->visible = true;
    e->owner_slot = slot;
    e->die_time = sv.time + 5.0;
    memset(&e->baseline, 0, sizeof e->baseline);
    e->baseline.number = e->number;
    memset(e->mins, 0, sizeof e->mins);
    memset(e->maxs, 0, sizeof e->maxs);
    sv_entity_link(e, QW_SOLID_NOT); /* linked only for its PVS leafs; it moves by traces */
    sv_stats_thread()->rockets++;
}

static void fire_rocket(sv_client *cl, sv_player *p, const float angles[3])
{
    if (sv_in_job()) {
        __typeof__(deferred[0]) *d = &deferred[sv_thread_index];
        if (d->num_rockets == DEFERRED_SHOTS)
            return;
        deferred_rocket *later = &d->rockets[d->num_rockets++];
        later->slot = cl->slot;
        rocket_start(p, angles, later->start);
        qw_vec_copy(angles, later->angles);
    } else {
        sv_entity *e = sv_entity_alloc(ENT_ROCKET);
        if (!e)
            return;
        float start[3];
        rocket_start(p, angles, start);
        launch_rocket(e, cl->slot, start, angles);
    }
    p->rockets--;
    p->attack_finished = p->time + 0.8;
    sv_event_sound(sv_player_entnum(cl->slot), 1, sv.sound_rocket_fire, p->origin);
}

static bool fire_axe(sv_client *cl, sv_player *p, const float angles[3])
{
    p->attack_finished = p->time + 0.5;
    float forward[3], right[3], up[3], src[3], end[3];
    weapon_aim(p, angles, src, forward, right, up);
    qw_vec_ma(src, 64.0f, forward, end);
    return hitscan(cl, p, src, end, 20, DMG_AXE);
}

/* The weapon in hand after an impulse (1 axe, 2 shotgun, 7 rocket launcher, if carried). */
LIBTM_SAFE static int weapon_after_impulse(const sv_player *p, int impulse)
{
    if (impulse == 1)
        return IT_AXE;
    if (impulse == 2 && (p->items & IT_SHOTGUN))
        return IT_SHOTGUN;
    if (impulse == 7 && (p->items & IT_ROCKET_LAUNCHER))
        return IT_ROCKET_LAUNCHER;
    return p->weapon;
}

/* What the attack button fires with this weapon and ammunition. */
LIBTM_SAFE static int weapon_that_fires(int weapon, int shells, int rockets)
{
    if (weapon == IT_ROCKET_LAUNCHER && rockets > 0)
        return IT_ROCKET_LAUNCHER;
    if (weapon != IT_AXE && shells > 0)
        return IT_SHOTGUN;
    return IT_AXE;
}

LIBTM_SAFE void sv_weapons_select(sv_player *p, int impulse)
{
    p->weapon = weapon_after_impulse(p, impulse);
}

LIBTM_SAFE bool sv_weapons_fire(sv_client *cl, sv_player *p, const float angles[3])
{
    if (p->time < p->attack_finished)
        return true;
    switch (weapon_that_fires(p->weapon, p->shells, p->rockets)) {
    case IT_ROCKET_LAUNCHER:
        fire_rocket(cl, p, angles);
        return true;
    case IT_SHOTGUN:
        return fire_shotgun(cl, p, angles);
    default:
        return fire_axe(cl, p, angles);
    }
}

bool sv_weapons_reach(const sv_player *p, const qw_usercmd *cmd, float mins[3], float maxs[3])
{
    if (!(cmd->buttons & QW_BUTTON_ATTACK) || p->time < p->attack_finished)
        return false;
    int weapon = weapon_after_impulse(p, cmd->impulse);
    if (weapon_that_fires(weapon, p->shells, p->rockets) != IT_SHOTGUN)
        return false; /* the axe and a new rocket stay within the player's surroundings */
    float forward[3], right[3], up[3], src[3], end[3];
    weapon_aim(p, cmd->angles, src, forward, right, up);
    qw_vec_ma(src, SHOTGUN_RANGE, forward, end);
    /* a pellet leaves the aim by up to spread * range in two directions */
    float spread = SHOTGUN_SPREAD * SHOTGUN_RANGE * 1.42f;
    for (int i = 0; i < 3; i++) {
        mins[i] = (src[i] < end[i] ? src[i] : end[i]) - spread;
        maxs[i] = (src[i] < end[i] ? end[i] : src[i]) + spread;
    }
    return true;
}

static void explode_rocket(sv_entity *e, const qw_trace *tr)
{
    float at[3];
    qw_vec_copy(tr->endpos, at);
    /* back off the surface so the explosion is not inside the wall */
    float dir[3];
    qw_vec_copy(e->velocity, dir);
    qw_vec_normalize(dir);
    qw_vec_ma(at, -8.0f, dir, at);
    sv_player *direct = sv_player_for_object(tr->ent);
    int attacker = e->owner_slot;
    if (direct)
        sv_game_damage((int)(direct - sv.players), attacker, 100, at, DMG_ROCKET);
    sv_combat_radius_damage(at, attacker, 120.0f, direct);
    sv_event_temp_entity(TE_EXPLOSION, at);
    sv_event_sound(e->number, 0, sv.sound_explode, at);
    sv_entity_free(e);
}

void sv_weapons_rocket_think(sv_entity *e, double dt)
{
    if (sv.time >= e->die_time) {
        sv_entity_free(e);
        return;
    }
    float end[3];
    qw_vec_ma(e->origin, (float)dt, e->velocity, end);
    const qw_area_object *owner = e->owner_slot >= 0 ? &sv.players[e->owner_slot].link : NULL;
    qw_trace tr;
    qw_world_move(&sv.area, e->origin, zero_vec, zero_vec, end, QW_MOVE_MISSILE, owner, &tr);
    if (tr.startsolid || tr.allsolid || tr.fraction < 1.0f) {
        explode_rocket(e, &tr);
        return;
    }
    qw_vec_copy(end, e->origin);
    qw_area_relink_object(&sv.area, &e->link, e->origin);
}

void sv_weapons_run_deferred(int threads)
{
    for (int t = 0; t < threads; t++) {
        __typeof__(deferred[0]) *d = &deferred[t];
        for (int k = 0; k < d->num_shots; k++) {
            const deferred_shot *shot = &d->shots[k];
            sv_client *cl = &sv.clients[shot->slot];
            sv_player *p = &sv.players[shot->slot];
            if (!p->active)
                continue; /* gone since (a kick, a reconnect, a map change) */
            bool ok = true;
            for (int i = 0; i < SHOTGUN_PELLETS; i++)
                ok &= hitscan(cl, p, shot->src, shot->ends[i], SHOTGUN_DAMAGE, DMG_SHOTGUN);
            if (!ok)
                sv_client_request_drop(cl, "reliable message overflow");
        }
        for (int k = 0; k < d->num_rockets; k++) {
            const deferred_rocket *r = &d->rockets[k];
            sv_player *p = &sv.players[r->slot];
            if (!p->active)
                continue;
            sv_entity *e = sv_entity_alloc(ENT_ROCKET);
            if (e)
                launch_rocket(e, r->slot, r->start, r->angles);
            else
                p->rockets++; /* no entity left: the rocket was never fired */
        }
        d->num_shots = d->num_rockets = 0;
    }
}

void sv_cgame_deferred_shots(int threads, int *shots, int *rockets)
{
    *shots = *rockets = 0;
    for (int t = 0; t < threads; t++) {
        *shots += deferred[t].num_shots;
        *rockets += deferred[t].num_rockets;
    }
}
