/* The U phase of the game (master only, no worker running): everything that moves or changes
 * by itself, entity by entity (QuakeC's think functions). */
#include "cgame/buttons.h"
#include "cgame/doors.h"
#include "cgame/cgame.h"
#include "cgame/items.h"
#include "cgame/plats.h"
#include "cgame/targets.h"
#include "cgame/triggers.h"
#include "cgame/weapons.h"

void sv_cgame_physics(double dt)
{
    for (int n = SV_FIRST_NONPLAYER; n < sv.num_entities; n++) {
        sv_entity *e = &sv.entities[n];
        switch (e->kind) {
        case ENT_ITEM: sv_items_think(e); break;
        case ENT_ROCKET: sv_weapons_rocket_think(e, dt); break;
        case ENT_TRIGGER: sv_triggers_think(e); break;
        case ENT_RELAY: sv_targets_relay_think(e); break;
        case ENT_DOOR: sv_doors_think(e, dt); break;
        case ENT_PLAT: sv_plats_think(e, dt); break;
        case ENT_BUTTON: sv_buttons_think(e, dt); break;
        default: break;
        }
    }
}
