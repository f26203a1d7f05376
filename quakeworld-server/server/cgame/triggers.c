/* Triggers (see triggers.h; sv_game_spawn_teleport: game/game.h). */
#include "cgame/triggers.h"

#include <string.h>

#include <stdlib.h>

#include "cgame/buttons.h"
#include "cgame/combat.h"
#include "cgame/doors.h"
#include "cgame/entities.h"
#include "cgame/cgame.h"
#include "cgame/items.h"
#include "cgame/plats.h"
#include "cgame/relink.h"
#include "cgame/targets.h"
#include "net/events.h"
#include "qw_math.h"
#include "sync/region.h"

static const float zero_vec[3] = {0, 0, 0};

/* The teleporters' trigger boxes, written once at map load. */
static struct { float mins[3], maxs[3]; } teleport_boxes[64];
static int num_teleport_boxes;

void sv_game_spawn_teleport(int submodel, const float dest[3], float yaw)
{
    sv_entity *e = sv_entity_spawn_model_trigger(ENT_TELEPORT, submodel);
    if (!e)
        return;
    qw_vec_copy(dest, e->dest_origin);
    e->dest_yaw = yaw;
    if (num_teleport_boxes < (int)(sizeof teleport_boxes / sizeof teleport_boxes[0])) {
        qw_vec_copy(e->link.absmin, teleport_boxes[num_teleport_boxes].mins);
        qw_vec_copy(e->link.absmax, teleport_boxes[num_teleport_boxes].maxs);
        num_teleport_boxes++;
    }
}

void sv_game_spawn_trigger(int submodel, const qw_entity_fields *f, bool once)
{
    sv_entity *e = sv_entity_spawn_model_trigger(ENT_TRIGGER, submodel);
    if (!e)
        return;
    e->once = once;
    e->target = sv_target_id(qw_entity_get(f, "target"));
    const char *v = qw_entity_get(f, "wait");
    e->wait = v ? (float)atof(v) : 0.2f;
}

void sv_triggers_think(sv_entity *e)
{
    if (!e->activated)
        return;
    e->activated = false;
    if (e->activates) {
        sv_entity *m = &sv.entities[e->activates];
        if (m->kind == ENT_DOOR)
            sv_doors_use(m);
        else if (m->kind == ENT_PLAT)
            sv_plats_touch(m);
        else if (m->kind == ENT_BUTTON)
            sv_buttons_press(m);
        return;
    }
    if (sv.time < e->next_think)
        return; /* waiting to fire again */
    sv_targets_fire(e->target);
    if (e->once)
        sv_entity_free(e);
    else
        e->next_think = sv.time + e->wait;
}

bool sv_triggers_teleport_meets(const float mins[3], const float maxs[3])
{
    for (int t = 0; t < num_teleport_boxes; t++) {
        bool apart = false;
        for (int i = 0; i < 3; i++)
            apart |= mins[i] > teleport_boxes[t].maxs[i] || maxs[i] < teleport_boxes[t].mins[i];
        if (!apart)
            return true;
    }
    return false;
}

/* id's teleporters: arrive 27 units above the destination, facing its direction, pushed
 * forward at 300; whoever stands there is telefragged. */
static bool teleport(sv_client *cl, sv_player *p, const sv_entity *t)
{
    float angles[3] = {0, t->dest_yaw, 0}, forward[3], right[3], up[3];
    qw_angle_vectors(angles, forward, right, up);
    float fog[3];
    qw_vec_ma(t->dest_origin, 32.0f, forward, fog);
    sv_event_temp_entity(TE_TELEPORT, p->origin);
    sv_event_temp_entity(TE_TELEPORT, fog);
    qw_vec_copy(t->dest_origin, p->origin);
    qw_vec_ma(zero_vec, 300.0f, forward, p->velocity);
    qw_vec_copy(angles, p->angles);
    p->setangle = true;
    p->onground = 0;
    sv_relink_moved(p);
    return sv_combat_telefrag(cl->slot, p->origin);
}

LIBTM_SAFE bool sv_triggers_touch(sv_client *cl, sv_player *p)
{
    /* the player's box where it is now, widened by 1 as linking does (its link follows at
     * the end of the command; in a job of -sched lpt, after RP) */
    float mins[3], maxs[3];
    for (int i = 0; i < 3; i++) {
        mins[i] = p->origin[i] + p->link.mins[i] - 1;
        maxs[i] = p->origin[i] + p->link.maxs[i] + 1;
    }
    qw_area_object *touched[16];
    int n = qw_area_query_box(&sv.area, mins, maxs, QW_SOLID_TRIGGER, touched, 16);
    if (n > 16)
        n = 16;
    bool ok = true;
    for (int i = 0; i < n; i++) {
        sv_entity *e = touched[i]->user;
        if (!e)
            continue;
        if (e->kind == ENT_ITEM && e->visible) {
            ok &= sv_items_touch(cl, p, e);
        } else if (e->kind == ENT_TRIGGER) {
            /* U acts on it; two players may touch one trigger at once */
            sv_region_lock_movers();
            e->activated = true;
            sv_region_unlock_movers();
        } else if (e->kind == ENT_TELEPORT) {
            ok &= teleport(cl, p, e);
            break; /* the old neighbourhood's triggers no longer apply */
        }
    }
    return ok;
}
