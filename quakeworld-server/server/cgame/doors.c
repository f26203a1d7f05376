/* Doors (see doors.h). Everything but the trigger field's touch runs in U. */
#include "cgame/doors.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cgame/entities.h"
#include "cgame/cgame.h"
#include "cgame/movers.h"
#include "cgame/targets.h"
#include "qw_math.h"

#define DOOR_START_OPEN 1
#define DOOR_DONT_LINK 4
#define DOOR_GOLD_KEY 8
#define DOOR_SILVER_KEY 16
#define DOOR_TOGGLE 32

void sv_game_spawn_door(int submodel, const qw_entity_fields *f)
{
    sv_entity *e = sv_mover_spawn(ENT_DOOR, submodel, f);
    if (!e)
        return;
    if (e->speed <= 0)
        e->speed = 100;
    if (e->wait == 0)
        e->wait = 3;
    if (e->damage == 0)
        e->damage = 2;
    e->target = sv_target_id(qw_entity_get(f, "target"));
    e->targetname = sv_target_id(qw_entity_get(f, "targetname"));
    e->use = sv_doors_use;
    sv_mover_set_travel(e, f, 8);
    if (e->spawnflags & DOOR_START_OPEN) {
        /* drawn open in the map: it "closes" to where it was built */
        float t[3];
        qw_vec_copy(e->pos1, t);
        qw_vec_copy(e->pos2, e->pos1);
        qw_vec_copy(t, e->pos2);
        sv_mover_place(e, e->pos1);
    }
    e->group = e->number;
}

static bool locked(const sv_entity *e)
{
    return (e->spawnflags & (DOOR_GOLD_KEY | DOOR_SILVER_KEY)) != 0;
}

/* Whether the boxes of two doors touch (where they stand at map load). */
static bool doors_touch(const sv_entity *a, const sv_entity *b)
{
    for (int i = 0; i < 3; i++)
        if (a->link.absmin[i] > b->link.absmax[i] || a->link.absmax[i] < b->link.absmin[i])
            return false;
    return true;
}

/* An invisible box around a door group: walking into it opens the group. */
static void spawn_field(const float mins[3], const float maxs[3], int door)
{
    static const float margin[3] = {60, 60, 8};
    float lo[3], hi[3];
    for (int i = 0; i < 3; i++) {
        lo[i] = mins[i] - margin[i];
        hi[i] = maxs[i] + margin[i];
    }
    sv_entity *t = sv_entity_spawn_trigger(ENT_TRIGGER, lo, hi);
    if (t)
        t->activates = door;
}

void sv_doors_link(void)
{
    /* groups: a door joins the group of any earlier door it touches (transitively) */
    for (int n = SV_FIRST_NONPLAYER; n < sv.num_entities; n++) {
        sv_entity *e = &sv.entities[n];
        if (e->kind != ENT_DOOR || (e->spawnflags & DOOR_DONT_LINK))
            continue;
        for (int m = SV_FIRST_NONPLAYER; m < n; m++) {
            sv_entity *o = &sv.entities[m];
            if (o->kind == ENT_DOOR && !(o->spawnflags & DOOR_DONT_LINK) && doors_touch(e, o)) {
                int from = e->group, to = o->group < e->group ? o->group : e->group;
                for (int k = SV_FIRST_NONPLAYER; k < sv.num_entities; k++)
                    if (sv.entities[k].kind == ENT_DOOR &&
                        (sv.entities[k].group == from || sv.entities[k].group == o->group))
                        sv.entities[k].group = to;
            }
        }
    }
    /* a trigger field for each group that no target names and no key locks */
    for (int n = SV_FIRST_NONPLAYER; n < sv.num_entities; n++) {
        sv_entity *lead = &sv.entities[n];
        if (lead->kind != ENT_DOOR || lead->group != n)
            continue;
        float mins[3], maxs[3];
        qw_vec_copy(lead->link.absmin, mins);
        qw_vec_copy(lead->link.absmax, maxs);
        bool named = false;
        for (int k = n; k < sv.num_entities; k++) {
            const sv_entity *d = &sv.entities[k];
            if (d->kind != ENT_DOOR || d->group != n)
                continue;
            named |= d->targetname != 0 || locked(d);
            for (int i = 0; i < 3; i++) {
                mins[i] = fminf(mins[i], d->link.absmin[i]);
                maxs[i] = fmaxf(maxs[i], d->link.absmax[i]);
            }
        }
        if (!named)
            spawn_field(mins, maxs, n);
    }
}

void sv_doors_use(sv_entity *door)
{
    const sv_entity *lead = &sv.entities[door->group];
    if (lead->move_state == MOVER_AT_POS1 && !locked(lead))
        sv_targets_fire(lead->target); /* an opening door fires its targets */
    for (int n = SV_FIRST_NONPLAYER; n < sv.num_entities; n++) {
        sv_entity *e = &sv.entities[n];
        if (e->kind != ENT_DOOR || e->group != door->group || locked(e))
            continue;
        switch (e->move_state) {
        case MOVER_AT_POS1:
        case MOVER_TO_POS1:
            sv_mover_go(e, true, sv.sound_door_move);
            break;
        case MOVER_AT_POS2:
            if (e->spawnflags & DOOR_TOGGLE)
                sv_mover_go(e, false, sv.sound_door_move);
            else
                e->next_think = sv.time + e->wait; /* someone is still there: stay open */
            break;
        default:
            break;
        }
    }
}

/* A door that closes by itself (wait >= 0) turns back when blocked. */
static bool door_turns_back(const sv_entity *e)
{
    return e->wait >= 0;
}

/* Open, its wait over, and not a toggle (those close when used): it closes. */
static void door_rests(sv_entity *e)
{
    if (e->move_state == MOVER_AT_POS2 && e->wait >= 0 && !(e->spawnflags & DOOR_TOGGLE) &&
        sv.time >= e->next_think)
        sv_mover_go(e, false, sv.sound_door_move);
}

void sv_doors_think(sv_entity *e, double dt)
{
    static const sv_crusher_rules rules = { MOVER_AT_POS2, door_turns_back, door_rests };
    sv_mover_think_crusher(e, dt, sv.sound_door_stop, &rules);
}
