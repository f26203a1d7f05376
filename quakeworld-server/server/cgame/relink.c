/* Players' links, now or after RP (see relink.h). */
#include "cgame/relink.h"

#include "qw_math.h"
#include "sched/job_plan.h"

static const float player_mins[3] = {-16, -16, -24};
static const float player_maxs[3] = {16, 16, 32};

LIBTM_SAFE void sv_relink_player(sv_player *p)
{
    qw_vec_copy(p->origin, p->link.origin);
    qw_vec_copy(player_mins, p->link.mins);
    qw_vec_copy(player_maxs, p->link.maxs);
    p->link.solid = p->dead ? QW_SOLID_NOT : QW_SOLID_SLIDEBOX;
    p->link.user = p;
    qw_area_link_object(&sv.area, &p->link);
}

LIBTM_SAFE void sv_relink_moved(sv_player *p)
{
    if (sv_in_job())
        p->relink_pending = true;
    else
        qw_area_relink_object(&sv.area, &p->link, p->origin);
}

LIBTM_SAFE void sv_relink_dead(sv_player *p)
{
    if (sv_in_job())
        p->relink_pending = true;
    else
        qw_area_set_solid(&sv.area, &p->link, QW_SOLID_NOT);
}

void sv_relink_deferred(void)
{
    for (int i = 0; i < SV_MAX_CLIENTS; i++) {
        sv_player *p = &sv.players[i];
        if (!p->relink_pending)
            continue;
        p->relink_pending = false;
        if (p->active)
            sv_relink_player(p);
    }
}
