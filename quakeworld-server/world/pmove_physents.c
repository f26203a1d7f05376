/* Filling pmove's physents from the areanode tree (what QuakeWorld's server does per command). */
#include "pmove.h"

#include <math.h>

LIBTM_PURE float qw_pmove_speed_gain(const qw_movevars *mv)
{
    return mv->gravity * mv->entgravity + QW_PM_JUMP_VELOCITY + mv->maxspeed;
}

LIBTM_PURE float qw_pmove_reach(const qw_pmove *pm, const qw_movevars *mv, float most)
{
    float speed = 0;
    for (int i = 0; i < 3; i++)
        speed = fmaxf(speed, fabsf(pm->velocity[i]));
    /* 32: the player's box reaches 32 up from its origin (16 to the sides, 24 down); 2: the
     * area's widening of both boxes by 1 */
    float reach = (speed + qw_pmove_speed_gain(mv)) * pm->cmd.msec / 1000.0f + QW_PM_STEPSIZE +
                  32.0f + 2.0f;
    return fminf(reach, most);
}

LIBTM_SAFE int qw_pmove_add_area_physents(qw_pmove *pm, const qw_area *area,
                                          const qw_area_object *self, float range)
{
    float mins[3], maxs[3];
    for (int i = 0; i < 3; i++) {
        mins[i] = pm->origin[i] - range;
        maxs[i] = pm->origin[i] + range;
    }
    qw_area_object *found[QW_MAX_PHYSENTS * 2];
    int n = qw_area_query_box(area, mins, maxs, QW_SOLID_BBOX, found, QW_MAX_PHYSENTS * 2);
    if (n > QW_MAX_PHYSENTS * 2)
        n = QW_MAX_PHYSENTS * 2;
    if (pm->numphysent < 1)
        pm->numphysent = 1;
    int added = 0;
    for (int i = 0; i < n && pm->numphysent < QW_MAX_PHYSENTS; i++) {
        const qw_area_object *o = found[i];
        if (o == self || (self && o->owner == self))
            continue;
        if (o->solid != QW_SOLID_BSP && o->solid != QW_SOLID_BBOX && o->solid != QW_SOLID_SLIDEBOX)
            continue;
        qw_physent *pe = &pm->physents[pm->numphysent++];
        for (int k = 0; k < 3; k++) {
            pe->origin[k] = o->origin[k];
            pe->mins[k] = o->mins[k];
            pe->maxs[k] = o->maxs[k];
        }
        pe->model = o->solid == QW_SOLID_BSP ? o->bsp_model : -1;
        pe->info = 0;
        pe->object = o;
        added++;
    }
    return added;
}
