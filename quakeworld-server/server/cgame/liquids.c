/* Drowning, slime and lava (see liquids.h). */
#include "cgame/liquids.h"

#include "cgame/cgame.h"

#define AIR_SECONDS 12.0

LIBTM_SAFE void sv_liquids_reset(sv_player *p)
{
    p->air_finished = p->time + AIR_SECONDS;
    p->drown_damage = 2;
    p->pain_finished = p->liquid_hurt_time = p->time;
}

LIBTM_SAFE bool sv_liquids_hurt(int slot, sv_player *p)
{
    bool ok = true;
    if (p->waterlevel != 3) {
        p->air_finished = p->time + AIR_SECONDS;
        p->drown_damage = 2;
    } else if (p->air_finished < p->time && p->pain_finished < p->time) {
        /* out of air: 4, 6, ... 14, then 10, 12, ... every second */
        p->drown_damage += 2;
        if (p->drown_damage > 15)
            p->drown_damage = 10;
        p->pain_finished = p->time + 1.0;
        ok &= sv_game_damage(slot, -1, p->drown_damage, p->origin, DMG_DROWN);
    }
    if (p->dead || !p->waterlevel || p->liquid_hurt_time > p->time)
        return ok;
    if (p->watertype == QW_CONTENTS_LAVA) {
        p->liquid_hurt_time = p->time + 0.2;
        ok &= sv_game_damage(slot, -1, 10 * p->waterlevel, p->origin, DMG_LAVA);
    } else if (p->watertype == QW_CONTENTS_SLIME) {
        p->liquid_hurt_time = p->time + 1.0;
        ok &= sv_game_damage(slot, -1, 4 * p->waterlevel, p->origin, DMG_SLIME);
    }
    return ok;
}
