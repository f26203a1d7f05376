/* The U phase of the game (master only, no worker running): everything that moves or changes
 * by itself, entity by entity (QuakeC's think functions). */
#include "game/items.h"
#include "game/weapons.h"
#include "sv_game.h"

void sv_game_physics(double dt)
{
    for (int n = SV_FIRST_NONPLAYER; n < sv.num_entities; n++) {
        sv_entity *e = &sv.entities[n];
        if (e->kind == ENT_ITEM)
            sv_items_think(e);
        else if (e->kind == ENT_ROCKET)
            sv_weapons_rocket_think(e, dt);
    }
}
