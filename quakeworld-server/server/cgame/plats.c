/* Plats (see plats.h). For plats pos1 is up (where the map builds them), pos2 is down. */
#include "cgame/plats.h"

#include <stdlib.h>
#include <string.h>

#include "cgame/entities.h"
#include "cgame/cgame.h"
#include "cgame/movers.h"
#include "cgame/targets.h"
#include "qw_math.h"

/* The trigger field on top of the plat: its box inset by 25 (narrow plats: a thin middle
 * strip), from just above its top down by its whole travel. */
static void spawn_field(sv_entity *plat)
{
    float lo[3], hi[3];
    for (int i = 0; i < 2; i++) {
        lo[i] = plat->mins[i] + 25;
        hi[i] = plat->maxs[i] - 25;
        if (plat->maxs[i] - plat->mins[i] <= 50) {
            lo[i] = (plat->mins[i] + plat->maxs[i]) / 2;
            hi[i] = lo[i] + 1;
        }
    }
    hi[2] = plat->maxs[2] + 8;
    lo[2] = hi[2] - (plat->pos1[2] - plat->pos2[2] + 8);
    sv_entity *t = sv_entity_spawn_trigger(ENT_TRIGGER, lo, hi);
    if (t)
        t->activates = plat->number;
}

void sv_game_spawn_plat(int submodel, const qw_entity_fields *f)
{
    sv_entity *e = sv_mover_spawn(ENT_PLAT, submodel, f);
    if (!e)
        return;
    if (e->speed <= 0)
        e->speed = 150;
    e->damage = 1;
    e->wait = 3;
    e->targetname = sv_target_id(qw_entity_get(f, "targetname"));
    e->use = sv_plats_use;
    const char *v = qw_entity_get(f, "height");
    float height = v ? (float)atof(v) : e->maxs[2] - e->mins[2] - 8;
    e->pos2[2] = e->pos1[2] - height;
    spawn_field(e);
    if (!e->targetname) { /* waits down for a rider */
        sv_mover_place(e, e->pos2);
        e->move_state = MOVER_AT_POS2;
    }
}

void sv_plats_touch(sv_entity *plat)
{
    if (plat->move_state == MOVER_AT_POS2)
        sv_mover_go(plat, false, sv.sound_plat_move);
    else if (plat->move_state == MOVER_AT_POS1)
        plat->next_think = sv.time + 1.0; /* someone is on it: stay up */
}

void sv_plats_use(sv_entity *plat)
{
    if (plat->move_state == MOVER_AT_POS1)
        sv_mover_go(plat, true, sv.sound_plat_move);
}

/* Up, and nobody kept it there: down again (a named plat stays up until fired). */
static void plat_rests(sv_entity *e)
{
    if (e->move_state == MOVER_AT_POS1 && !e->targetname && sv.time >= e->next_think)
        sv_mover_go(e, true, sv.sound_plat_move);
}

void sv_plats_think(sv_entity *e, double dt)
{
    static const sv_crusher_rules rules = { MOVER_AT_POS1, NULL, plat_rests };
    sv_mover_think_crusher(e, dt, sv.sound_plat_stop, &rules);
}
