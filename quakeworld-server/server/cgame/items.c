/* Items (see items.h; sv_game_spawn_item and sv_game_add_default_items: game/game.h). */
#include "cgame/items.h"

#include <string.h>

#include "cgame/entities.h"
#include "cgame/cgame.h"
#include "net/events.h"
#include "net/reliable.h"
#include "qw_math.h"

/* Ammo and health boxes have their origin at a corner, other item models at their centre. */
static bool item_is_box(int item)
{
    return item == ITEM_HEALTH || item == ITEM_HEALTH_MEGA || item == ITEM_SHELLS ||
           item == ITEM_ROCKETS;
}

void sv_game_spawn_item(int item, const float origin[3])
{
    sv_entity *e = sv_entity_alloc(ENT_ITEM);
    if (!e)
        return;
    e->item = item;
    qw_vec_copy(origin, e->origin);
    memset(e->angles, 0, sizeof e->angles);
    bool box = item_is_box(item);
    float mins[3] = {box ? 0 : -16, box ? 0 : -16, 0};
    float maxs[3] = {box ? 32 : 16, box ? 32 : 16, 56};
    qw_vec_copy(mins, e->mins);
    qw_vec_copy(maxs, e->maxs);
    e->modelindex = sv.model_item[item];
    e->skinnum = item == ITEM_ARMOR2 ? 1 : item == ITEM_ARMORINV ? 2 : 0;
    e->visible = true;
    e->frame = 0;
    e->effects = 0;
    sv_entity_link(e, QW_SOLID_TRIGGER);
    qw_entity_state *b = &e->baseline;
    memset(b, 0, sizeof *b);
    b->number = e->number;
    qw_vec_copy(e->origin, b->origin);
    b->modelindex = e->modelindex;
    b->skinnum = e->skinnum;
}

void sv_game_add_default_items(void)
{
    for (int n = SV_FIRST_NONPLAYER; n < sv.num_entities; n++)
        if (sv.entities[n].kind == ENT_ITEM)
            return;
    static const int cycle[] = {ITEM_WEAPON_ROCKET, ITEM_HEALTH, ITEM_ARMOR2, ITEM_ROCKETS,
                                ITEM_SHELLS, ITEM_ARMOR1, ITEM_HEALTH_MEGA, ITEM_ROCKETS};
    for (int i = 0; i < sv.num_spawnpoints; i++) {
        int item = cycle[i % (int)(sizeof cycle / sizeof cycle[0])];
        float org[3];
        qw_vec_copy(sv.spawnpoints[i].origin, org);
        org[2] -= 24; /* spawn points are at a player's centre, items sit on the floor */
        if (item_is_box(item)) {
            org[0] -= 16;
            org[1] -= 16;
        }
        sv_game_spawn_item(item, org);
    }
}

/* Adds amount to a stock, capped. */
static void add_capped(int *stock, int amount, int cap)
{
    *stock = *stock + amount > cap ? cap : *stock + amount;
}

/* Like add_capped, but false (nothing taken) when the stock is already full. */
static bool top_up(int *stock, int amount, int cap)
{
    if (*stock >= cap)
        return false;
    add_capped(stock, amount, cap);
    return true;
}

/* The "You got ..." line: a small section of its own inside the command's. */
SV_SECTION_FN static bool pickup_message(sv_client *cl, const char *msg)
{
    bool ok;
    NESTED_SECTION(CS_CLIENT_MESSAGE, ok = sv_reliable_print(cl, PRINT_LOW, msg););
    return ok;
}

LIBTM_SAFE bool sv_items_touch(sv_client *cl, sv_player *p, sv_entity *e)
{
    const char *msg = NULL;
    switch (e->item) {
    case ITEM_HEALTH:
        if (!top_up(&p->health, 25, 100))
            return true;
        msg = "You receive 25 health\n";
        break;
    case ITEM_HEALTH_MEGA:
        if (!top_up(&p->health, 100, 250))
            return true;
        msg = "You receive 100 health\n";
        break;
    case ITEM_ARMOR1:
    case ITEM_ARMOR2:
    case ITEM_ARMORINV: {
        float type = e->item == ITEM_ARMOR1 ? 0.3f : e->item == ITEM_ARMOR2 ? 0.6f : 0.8f;
        int value = e->item == ITEM_ARMOR1 ? 100 : e->item == ITEM_ARMOR2 ? 150 : 200;
        if (p->armortype * p->armor >= type * value)
            return true;
        p->armortype = type;
        p->armor = value;
        msg = "You got armor\n";
        break;
    }
    case ITEM_SHELLS:
        if (!top_up(&p->shells, 20, 100))
            return true;
        msg = "You got the shells\n";
        break;
    case ITEM_ROCKETS:
        if (!top_up(&p->rockets, 5, 100))
            return true;
        msg = "You got the rockets\n";
        break;
    case ITEM_WEAPON_SHOTGUN:
        p->items |= IT_SHOTGUN;
        add_capped(&p->shells, 5, 100);
        msg = "You got the Shotgun\n";
        break;
    case ITEM_WEAPON_ROCKET:
        p->items |= IT_ROCKET_LAUNCHER;
        add_capped(&p->rockets, 5, 100);
        p->weapon = IT_ROCKET_LAUNCHER;
        msg = "You got the Rocket Launcher\n";
        break;
    default:
        add_capped(&p->shells, 10, 100);
        msg = "You got some ammunition\n";
        break;
    }
    e->visible = false;
    e->modelindex = 0;
    bool weapon = e->item >= ITEM_WEAPON_SHOTGUN;
    e->respawn_time = sv.time + (weapon ? 30.0 : 20.0);
    sv_event_sound(sv_player_entnum(cl->slot), 3, sv.sound_item, p->origin);
    return pickup_message(cl, msg);
}

void sv_items_think(sv_entity *e)
{
    if (e->visible || sv.time < e->respawn_time)
        return;
    e->visible = true;
    e->modelindex = sv.model_item[e->item];
    sv_event_sound(e->number, 0, sv.sound_item, e->origin);
}
