/* Buttons (see buttons.h). */
#include "game/buttons.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "game/entities.h"
#include "game/movers.h"
#include "game/targets.h"
#include "sv_events.h"
#include "sv_math.h"

void sv_game_spawn_button(int submodel, const qw_entity_fields *f)
{
    sv_entity *e = sv_mover_spawn(ENT_BUTTON, submodel, f);
    if (!e)
        return;
    if (e->speed <= 0)
        e->speed = 40;
    if (e->wait == 0)
        e->wait = 1;
    const char *v = qw_entity_get(f, "lip");
    float lip = v ? (float)atof(v) : 4;
    e->target = sv_target_id(qw_entity_get(f, "target"));
    e->targetname = sv_target_id(qw_entity_get(f, "targetname"));
    float dir[3], size[3];
    sv_mover_direction(f, dir);
    qw_vec_subtract(e->maxs, e->mins, size);
    qw_vec_ma(e->pos1, fabsf(qw_vec_dot(dir, size)) - lip, dir, e->pos2);
    /* players press it by walking into it: a field just around it */
    sv_entity *t = sv_entity_alloc(ENT_TRIGGER);
    if (!t)
        return;
    memset(t->origin, 0, sizeof t->origin);
    for (int i = 0; i < 3; i++) {
        t->mins[i] = e->mins[i] - 2;
        t->maxs[i] = e->maxs[i] + 2;
    }
    t->modelindex = 0;
    t->visible = false;
    t->activates = e->number;
    t->target = t->targetname = 0;
    sv_entity_link(t, QW_SOLID_TRIGGER);
}

void sv_buttons_press(sv_entity *button)
{
    if (button->move_state == MOVER_AT_POS1)
        sv_mover_go(button, true, sv.sound_button);
}

void sv_buttons_think(sv_entity *e, double dt)
{
    int blocker;
    switch (sv_mover_advance(e, dt, &blocker)) {
    case MOVER_ARRIVED:
        if (e->move_state == MOVER_AT_POS2) {
            sv_targets_fire(e->target);
            e->next_think = sv.time + e->wait;
        }
        break;
    case MOVER_BLOCKED:
        break; /* buttons do not hurt: they wait */
    case MOVER_RESTS:
        if (e->move_state == MOVER_AT_POS2 && e->wait >= 0 && sv.time >= e->next_think)
            sv_mover_go(e, false, 0);
        break;
    case MOVER_MOVED:
        break;
    }
}
