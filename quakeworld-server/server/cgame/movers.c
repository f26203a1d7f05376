/* Movers (see movers.h). Runs in U only: the master alone, so no synchronisation. */
#include "cgame/movers.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cgame/entities.h"
#include "cgame/cgame.h"
#include "net/events.h"
#include "qw_math.h"

static const float player_mins[3] = {-16, -16, -24};
static const float player_maxs[3] = {16, 16, 32};

sv_entity *sv_mover_spawn(sv_entity_kind kind, int submodel, const qw_entity_fields *f)
{
    const qw_bsp_model *m = qw_bsp_get_model(sv.bsp, submodel);
    sv_entity *e = m ? sv_entity_alloc(kind) : NULL;
    if (!e)
        return NULL;
    memset(e->origin, 0, sizeof e->origin);
    memset(e->angles, 0, sizeof e->angles);
    memset(e->velocity, 0, sizeof e->velocity);
    qw_vec_copy(m->mins, e->mins);
    qw_vec_copy(m->maxs, e->maxs);
    e->modelindex = submodel + 1; /* "*1" is model 2 */
    e->frame = e->skinnum = e->effects = 0;
    e->visible = true;
    e->move_state = MOVER_AT_POS1;
    memset(e->pos1, 0, sizeof e->pos1);
    memset(e->pos2, 0, sizeof e->pos2);
    const char *v = qw_entity_get(f, "spawnflags");
    e->spawnflags = v ? atoi(v) : 0;
    v = qw_entity_get(f, "speed");
    e->speed = v ? (float)atof(v) : 0;
    v = qw_entity_get(f, "wait");
    e->wait = v ? (float)atof(v) : 0;
    v = qw_entity_get(f, "dmg");
    e->damage = v ? atoi(v) : 0;
    e->link.bsp_model = submodel;
    sv_entity_link(e, QW_SOLID_BSP);
    memset(&e->baseline, 0, sizeof e->baseline);
    e->baseline.number = e->number;
    e->baseline.modelindex = e->modelindex;
    return e;
}

void sv_mover_direction(const qw_entity_fields *f, float dir[3])
{
    const char *v = qw_entity_get(f, "angle");
    float angle = v ? (float)atof(v) : 0;
    dir[0] = dir[1] = dir[2] = 0;
    if (angle == -1) {
        dir[2] = 1;
    } else if (angle == -2) {
        dir[2] = -1;
    } else {
        float a = angle * 3.14159265f / 180.0f;
        dir[0] = qw_cosf(a);
        dir[1] = qw_sinf(a);
    }
}

void sv_mover_set_travel(sv_entity *e, const qw_entity_fields *f, float default_lip)
{
    const char *v = qw_entity_get(f, "lip");
    float lip = v ? (float)atof(v) : default_lip;
    float dir[3], size[3];
    sv_mover_direction(f, dir);
    qw_vec_subtract(e->maxs, e->mins, size);
    qw_vec_ma(e->pos1, fabsf(qw_vec_dot(dir, size)) - lip, dir, e->pos2);
}

void sv_mover_place(sv_entity *e, const float origin[3])
{
    qw_vec_copy(origin, e->origin);
    qw_vec_copy(origin, e->baseline.origin);
    qw_area_relink_object(&sv.area, &e->link, e->origin);
}

void sv_mover_centre(const sv_entity *e, float out[3])
{
    for (int i = 0; i < 3; i++)
        out[i] = e->origin[i] + (e->mins[i] + e->maxs[i]) / 2;
}

void sv_mover_go(sv_entity *e, bool to_pos2, int sound)
{
    e->move_state = to_pos2 ? MOVER_TO_POS2 : MOVER_TO_POS1;
    if (sound) {
        float at[3];
        sv_mover_centre(e, at);
        sv_event_sound(e->number, 1, sound, at);
    }
}

static bool boxes_meet(const float amin[3], const float amax[3], const float bmin[3],
                       const float bmax[3])
{
    for (int i = 0; i < 3; i++)
        if (amin[i] > bmax[i] || amax[i] < bmin[i])
            return false;
    return true;
}

static void move_player_by(sv_player *p, const float delta[3])
{
    float to[3];
    qw_vec_add(p->origin, delta, to);
    qw_vec_copy(to, p->origin);
    qw_area_relink_object(&sv.area, &p->link, p->origin);
}

/* Moves the mover by delta and every player on it or in its way along (SV_PushMove);
 * -1, or the player that could not be moved (then nothing moved). */
static int push(sv_entity *e, const float delta[3])
{
    float back[3] = {-delta[0], -delta[1], -delta[2]}, to[3];
    qw_vec_add(e->origin, delta, to);
    qw_vec_copy(to, e->origin);
    qw_area_relink_object(&sv.area, &e->link, e->origin);
    /* players standing on it sit just above its top: reach 2 units up */
    float lo[3], hi[3];
    qw_vec_copy(e->link.absmin, lo);
    qw_vec_copy(e->link.absmax, hi);
    hi[2] += 2;
    int moved[SV_MAX_CLIENTS], num_moved = 0, blocker = -1;
    for (int j = 0; j < SV_MAX_CLIENTS && blocker < 0; j++) {
        sv_player *p = &sv.players[j];
        if (!p->active || p->dead || !boxes_meet(p->link.absmin, p->link.absmax, lo, hi))
            continue;
        float dest[3];
        qw_vec_add(p->origin, delta, dest);
        qw_trace tr;
        qw_world_move(&sv.area, dest, player_mins, player_maxs, dest, QW_MOVE_NORMAL, &p->link,
                      &tr);
        if (tr.startsolid || tr.allsolid)
            blocker = j;
        else {
            move_player_by(p, delta);
            moved[num_moved++] = j;
        }
    }
    if (blocker >= 0) {
        for (int k = 0; k < num_moved; k++)
            move_player_by(&sv.players[moved[k]], back);
        qw_vec_add(e->origin, back, to);
        qw_vec_copy(to, e->origin);
        qw_area_relink_object(&sv.area, &e->link, e->origin);
    }
    return blocker;
}

sv_mover_step sv_mover_advance(sv_entity *e, double dt, int *blocker)
{
    if (e->move_state != MOVER_TO_POS2 && e->move_state != MOVER_TO_POS1)
        return MOVER_RESTS;
    const float *dest = e->move_state == MOVER_TO_POS2 ? e->pos2 : e->pos1;
    float delta[3];
    qw_vec_subtract(dest, e->origin, delta);
    float dist = qw_vec_length(delta);
    float step = e->speed * (float)dt;
    bool arrives = step >= dist;
    for (int i = 0; i < 3 && !arrives; i++)
        delta[i] *= step / dist;
    *blocker = push(e, delta);
    if (*blocker >= 0)
        return MOVER_BLOCKED;
    if (!arrives)
        return MOVER_MOVED;
    qw_vec_copy(dest, e->origin); /* exactly, whatever the rounding on the way */
    qw_area_relink_object(&sv.area, &e->link, e->origin);
    e->move_state = e->move_state == MOVER_TO_POS2 ? MOVER_AT_POS2 : MOVER_AT_POS1;
    return MOVER_ARRIVED;
}

void sv_mover_think_crusher(sv_entity *e, double dt, int stop_sound,
                            const sv_crusher_rules *rules)
{
    int blocker;
    float at[3];
    switch (sv_mover_advance(e, dt, &blocker)) {
    case MOVER_ARRIVED:
        sv_mover_centre(e, at);
        sv_event_sound(e->number, 1, stop_sound, at);
        if (e->move_state == (int)rules->waits_at)
            e->next_think = sv.time + e->wait;
        break;
    case MOVER_BLOCKED:
        sv_game_damage(blocker, -1, e->damage, sv.players[blocker].origin, DMG_CRUSH);
        if (!rules->turns_back || rules->turns_back(e)) /* go back the way it came */
            sv_mover_go(e, e->move_state == MOVER_TO_POS1, 0);
        break;
    case MOVER_RESTS:
        rules->rests(e);
        break;
    case MOVER_MOVED:
        break;
    }
}
