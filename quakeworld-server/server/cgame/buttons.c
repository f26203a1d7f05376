/* Buttons (see buttons.h). */
#include "cgame/buttons.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cgame/entities.h"
#include "cgame/movers.h"
#include "cgame/targets.h"
#include "net/events.h"
#include "qw_math.h"

void sv_game_spawn_button(int submodel, const qw_entity_fields *f)
{
    sv_entity *e = sv_mover_spawn(ENT_BUTTON, submodel, f);
    if (!e)
        return;
    if (e->speed <= 0)
        e->speed = 40;
    if (e->wait == 0)
        e->wait = 1;
    e->target = sv_target_id(qw_entity_get(f, "target"));
    e->targetname = sv_target_id(qw_entity_get(f, "targetname"));
    sv_mover_set_travel(e, f, 4);
    /* players press it by walking into it: a field just around it */
    float lo[3], hi[3];
    for (int i = 0; i < 3; i++) {
        lo[i] = e->mins[i] - 2;
        hi[i] = e->maxs[i] + 2;
    }
    sv_entity *t = sv_entity_spawn_trigger(ENT_TRIGGER, lo, hi);
    if (t)
        t->activates = e->number;
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
