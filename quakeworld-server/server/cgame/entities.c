/* Non-player entities (see entities.h). */
#include "cgame/entities.h"

#include <string.h>

#include "cgame/cgame.h"
#include "qw_math.h"
#include "sync/region.h"

LIBTM_SAFE sv_entity *sv_entity_alloc(sv_entity_kind kind)
{
    sv_entity *found = NULL;
    sv_region_lock_entities();
    for (int n = SV_FIRST_NONPLAYER; n < SV_MAX_ENTITIES && !found; n++) {
        sv_entity *e = &sv.entities[n];
        if (e->kind == ENT_FREE && (e->die_time == 0 || sv.time - e->die_time > 0.5)) {
            e->kind = kind;
            e->number = n;
            if (n >= sv.num_entities)
                sv.num_entities = n + 1;
            found = e;
        }
    }
    sv_region_unlock_entities();
    return found;
}

LIBTM_SAFE void sv_entity_free(sv_entity *e)
{
    qw_area_unlink_object(&e->link);
    e->kind = ENT_FREE;
    e->modelindex = 0;
    e->die_time = sv.time;
}

LIBTM_SAFE void sv_entity_link(sv_entity *e, int solid)
{
    qw_vec_copy(e->origin, e->link.origin);
    qw_vec_copy(e->mins, e->link.mins);
    qw_vec_copy(e->maxs, e->link.maxs);
    e->link.solid = solid;
    e->link.user = e;
    qw_area_link_object(&sv.area, &e->link);
}

sv_entity *sv_entity_spawn_trigger(sv_entity_kind kind, const float mins[3], const float maxs[3])
{
    sv_entity *e = sv_entity_alloc(kind);
    if (!e)
        return NULL;
    memset(e->origin, 0, sizeof e->origin);
    qw_vec_copy(mins, e->mins);
    qw_vec_copy(maxs, e->maxs);
    e->modelindex = 0;
    e->visible = false; /* never sent to clients */
    e->activates = e->target = e->targetname = 0;
    e->next_think = 0;
    sv_entity_link(e, QW_SOLID_TRIGGER);
    return e;
}

sv_entity *sv_entity_spawn_model_trigger(sv_entity_kind kind, int submodel)
{
    const qw_bsp_model *m = qw_bsp_get_model(sv.bsp, submodel);
    return m ? sv_entity_spawn_trigger(kind, m->mins, m->maxs) : NULL;
}

void sv_game_spawn_brush(int submodel, bool solid)
{
    const qw_bsp_model *m = qw_bsp_get_model(sv.bsp, submodel);
    sv_entity *e = m ? sv_entity_alloc(ENT_BRUSH) : NULL;
    if (!e)
        return;
    memset(e->origin, 0, sizeof e->origin);
    memset(e->angles, 0, sizeof e->angles);
    qw_vec_copy(m->mins, e->mins);
    qw_vec_copy(m->maxs, e->maxs);
    e->modelindex = submodel + 1; /* "*1" is model 2: model 1 is the map itself */
    e->frame = e->skinnum = e->effects = 0;
    e->visible = true;
    e->link.bsp_model = submodel;
    sv_entity_link(e, solid ? QW_SOLID_BSP : QW_SOLID_NOT);
    memset(&e->baseline, 0, sizeof e->baseline);
    e->baseline.number = e->number;
    e->baseline.modelindex = e->modelindex;
}
