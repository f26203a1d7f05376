/* Deathmatch game logic (see sv_game.h). Everything reachable from sv_game_run_command runs
 * inside CS_MOVE_COMMAND, so it only calls transaction_safe code: no stdio, no strlen, no
 * shared random generator, logging through sv_log_deferred. */
#include "sv_game.h"

#include <string.h>

#include "sv_log.h"
#include "sv_math.h"
#include "sv_reliable.h"

static const float player_mins[3] = {-16, -16, -24};
static const float player_maxs[3] = {16, 16, 32};
static const float zero_vec[3] = {0, 0, 0};
#define VIEW_HEIGHT 22.0f
#define SHOTGUN_PELLETS 6
#define SHOTGUN_DAMAGE 4
#define ROCKET_SPEED 1000.0f

/* ---- text helpers that are safe inside transactions (no snprintf/strlen) ---- */

static size_t text_append(char *dst, size_t size, size_t pos, const char *s)
{
    while (*s && pos + 1 < size)
        dst[pos++] = *s++;
    dst[pos] = 0;
    return pos;
}

/* ---- global state buffer ---- */

void sv_events_begin_frame(void)
{
    sv_event_frame *ev = &sv.events[sv.framenum % SV_EVENT_FRAMES];
    ev->frame = sv.framenum;
    qw_sizebuf_init(&ev->buf, ev->data, sizeof ev->data);
}

QW_TM_SAFE void sv_event_temp_entity(int type, const float origin[3])
{
    sv_event_frame *ev = &sv.events[sv.framenum % SV_EVENT_FRAMES];
    if (qw_sizebuf_free_space(&ev->buf) < 16)
        return; /* unreliable: drop events of an overfull frame */
    qw_write_byte(&ev->buf, svc_temp_entity);
    qw_write_byte(&ev->buf, type);
    if (type == TE_GUNSHOT || type == TE_BLOOD)
        qw_write_byte(&ev->buf, 1);
    for (int i = 0; i < 3; i++)
        qw_write_coord(&ev->buf, origin[i]);
}

QW_TM_SAFE void sv_event_sound(int entnum, int channel, int sound, const float origin[3])
{
    sv_event_frame *ev = &sv.events[sv.framenum % SV_EVENT_FRAMES];
    if (sound <= 0 || qw_sizebuf_free_space(&ev->buf) < 16)
        return;
    qw_write_byte(&ev->buf, svc_sound);
    qw_write_short(&ev->buf, ((entnum & 0x7ff) << 3) | (channel & 7));
    qw_write_byte(&ev->buf, sound);
    for (int i = 0; i < 3; i++)
        qw_write_coord(&ev->buf, origin[i]);
}

/* ---- entities ---- */

static sv_entity *alloc_entity(void)
{
    for (int n = SV_FIRST_NONPLAYER; n < SV_MAX_ENTITIES; n++) {
        sv_entity *e = &sv.entities[n];
        /* a freed number is reused only after a while, so clients do not blend the old
         * entity into the new one */
        if (e->kind == ENT_FREE && (e->die_time == 0 || sv.time - e->die_time > 0.5)) {
            e->number = n;
            if (n >= sv.num_entities)
                sv.num_entities = n + 1;
            return e;
        }
    }
    return NULL;
}

static void free_entity(sv_entity *e)
{
    qw_area_unlink_object(&e->link);
    e->kind = ENT_FREE;
    e->modelindex = 0;
    e->die_time = sv.time;
}

/* Ammo and health boxes have their origin at a corner, other item models at their centre. */
static bool item_is_box(int item)
{
    return item == ITEM_HEALTH || item == ITEM_HEALTH_MEGA || item == ITEM_SHELLS ||
           item == ITEM_ROCKETS;
}

/* Links an entity's link object with its origin and box (copied from the entity). */
static void link_entity(sv_entity *e, int solid)
{
    qw_vec_copy(e->origin, e->link.origin);
    qw_vec_copy(e->mins, e->link.mins);
    qw_vec_copy(e->maxs, e->link.maxs);
    e->link.solid = solid;
    e->link.user = e;
    qw_area_link_object(&sv.area, &e->link);
}

static sv_player *player_for_object(const qw_area_object *obj)
{
    if (!obj)
        return NULL;
    for (int i = 0; i < QW_MAX_CLIENTS; i++)
        if (&sv.players[i].link == obj)
            return &sv.players[i];
    return NULL;
}

void sv_game_spawn_item(int item, const float origin[3])
{
    sv_entity *e = alloc_entity();
    if (!e)
        return;
    e->kind = ENT_ITEM;
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
    link_entity(e, QW_SOLID_TRIGGER);
    qw_entity_state *b = &e->baseline;
    memset(b, 0, sizeof *b);
    b->number = e->number;
    qw_vec_copy(e->origin, b->origin);
    b->modelindex = e->modelindex;
    b->skinnum = e->skinnum;
}

void sv_game_spawn_brush(int submodel, bool solid)
{
    const qw_bsp_model *m = qw_bsp_get_model(sv.bsp, submodel);
    sv_entity *e = m ? alloc_entity() : NULL;
    if (!e)
        return;
    e->kind = ENT_BRUSH;
    memset(e->origin, 0, sizeof e->origin);
    memset(e->angles, 0, sizeof e->angles);
    qw_vec_copy(m->mins, e->mins);
    qw_vec_copy(m->maxs, e->maxs);
    e->modelindex = submodel + 1; /* "*1" is model 2: model 1 is the map itself */
    e->frame = e->skinnum = e->effects = 0;
    e->visible = true;
    e->link.bsp_model = submodel;
    link_entity(e, solid ? QW_SOLID_BSP : QW_SOLID_NOT);
    memset(&e->baseline, 0, sizeof e->baseline);
    e->baseline.number = e->number;
    e->baseline.modelindex = e->modelindex;
}

void sv_game_spawn_teleport(int submodel, const float dest[3], float yaw)
{
    const qw_bsp_model *m = qw_bsp_get_model(sv.bsp, submodel);
    sv_entity *e = m ? alloc_entity() : NULL;
    if (!e)
        return;
    e->kind = ENT_TELEPORT;
    memset(e->origin, 0, sizeof e->origin);
    qw_vec_copy(m->mins, e->mins);
    qw_vec_copy(m->maxs, e->maxs);
    e->modelindex = 0;
    e->visible = false; /* never sent to clients */
    qw_vec_copy(dest, e->dest_origin);
    e->dest_yaw = yaw;
    link_entity(e, QW_SOLID_TRIGGER);
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

void sv_game_init_players(void)
{
    for (int i = 0; i < QW_MAX_CLIENTS; i++) {
        memset(&sv.players[i], 0, sizeof sv.players[i]);
        qw_area_object_init(&sv.players[i].link);
    }
    /* link objects are prepared once; unlinking leaves them ready for reuse, so entities
     * can be (re)allocated inside transactions without calling the unsafe init */
    for (int n = 0; n < SV_MAX_ENTITIES; n++)
        qw_area_object_init(&sv.entities[n].link);
}

/* ---- players ---- */

static void link_player(sv_player *p)
{
    qw_vec_copy(p->origin, p->link.origin);
    qw_vec_copy(player_mins, p->link.mins);
    qw_vec_copy(player_maxs, p->link.maxs);
    p->link.solid = p->dead ? QW_SOLID_NOT : QW_SOLID_SLIDEBOX;
    p->link.user = p;
    qw_area_link_object(&sv.area, &p->link);
}

static float distance_sq(const float *a, const float *b)
{
    float d[3] = {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
    return qw_vec_dot(d, d);
}

/* Kills every living player (but `slot`) standing within 32 units of origin. */
static bool telefrag(int slot, const float origin[3])
{
    bool ok = true;
    for (int j = 0; j < QW_MAX_CLIENTS; j++) {
        sv_player *o = &sv.players[j];
        if (j != slot && o->active && !o->dead && distance_sq(o->origin, origin) < 32.0f * 32.0f)
            ok &= sv_game_damage(j, slot, 1000, origin, DMG_TELEFRAG);
    }
    return ok;
}

QW_TM_SAFE bool sv_game_spawn_player(int slot)
{
    sv_player *p = &sv.players[slot];
    bool ok = true;
    /* the first spawn point, in rotation, with nobody within 84 units */
    int n = sv.num_spawnpoints, chosen = sv.spawn_rotation % n;
    for (int k = 0; k < n; k++) {
        int s = (sv.spawn_rotation + k) % n;
        bool free_spot = true;
        for (int j = 0; j < QW_MAX_CLIENTS; j++) {
            sv_player *o = &sv.players[j];
            if (j != slot && o->active && !o->dead &&
                distance_sq(o->origin, sv.spawnpoints[s].origin) < 84.0f * 84.0f)
                free_spot = false;
        }
        if (free_spot) {
            chosen = s;
            break;
        }
    }
    sv.spawn_rotation = chosen + 1;
    const sv_spawnpoint *sp = &sv.spawnpoints[chosen];

    if (p->random_state == 0)
        p->random_state = 0x12345u + (uint32_t)slot * 7919u;
    qw_vec_copy(sp->origin, p->origin);
    p->origin[2] += 1;
    memset(p->velocity, 0, sizeof p->velocity);
    p->angles[0] = 0;
    p->angles[1] = sp->angle;
    p->angles[2] = 0;
    p->health = 100;
    p->armor = 0;
    p->armortype = 0;
    p->items = IT_AXE | IT_SHOTGUN;
    p->shells = 25;
    p->rockets = 0;
    p->weapon = IT_SHOTGUN;
    p->dead = false;
    p->attack_finished = sv.time + 0.2;
    p->weaponframe = 0;
    p->frame = 0;
    p->effects = 0;
    p->onground = 0;
    p->waterjumptime = 0;
    p->setangle = true;
    p->active = true;
    link_player(p);

    ok &= telefrag(slot, p->origin); /* whoever still stands there */
    sv_event_temp_entity(TE_TELEPORT, p->origin);
    return ok;
}

void sv_game_remove_player(int slot)
{
    sv_player *p = &sv.players[slot];
    qw_area_unlink_object(&p->link);
    p->active = false;
    p->dead = false;
    p->frags = 0;
    /* rockets in flight keep flying but no longer credit a frag */
    for (int n = SV_FIRST_NONPLAYER; n < sv.num_entities; n++)
        if (sv.entities[n].kind == ENT_ROCKET && sv.entities[n].owner_slot == slot)
            sv.entities[n].owner_slot = -1;
}

/* ---- damage, death, frags ---- */

static bool send_frags(int slot)
{
    uint8_t msg[4];
    qw_sizebuf sb;
    qw_sizebuf_init(&sb, msg, sizeof msg);
    qw_write_byte(&sb, svc_updatefrags);
    qw_write_byte(&sb, slot);
    qw_write_short(&sb, sv.players[slot].frags);
    return sv_reliable_broadcast(msg, sb.cursize);
}

static bool kill_player(int target, int attacker, sv_damage_cause cause)
{
    sv_player *p = &sv.players[target];
    bool ok = true;
    p->dead = true;
    p->death_time = sv.time;
    p->link.solid = QW_SOLID_NOT;
    qw_area_link_object(&sv.area, &p->link);
    p->velocity[2] += 100;
    p->weaponframe = 0;

    char text[160];
    size_t n = 0;
    const char *victim = sv.clients[target].name;
    if (attacker < 0 || attacker == target) {
        sv.players[target].frags -= 1;
        ok &= send_frags(target);
        n = text_append(text, sizeof text, n, victim);
        n = text_append(text, sizeof text, n, " becomes bored with life\n");
    } else {
        sv.players[attacker].frags += 1;
        ok &= send_frags(attacker);
        static const char *const before[] = {
            [DMG_SHOTGUN] = " chewed on ", [DMG_AXE] = " was ax-murdered by ",
            [DMG_ROCKET] = " rides ", [DMG_TELEFRAG] = " was telefragged by ",
            [DMG_SUICIDE] = " was killed by "};
        static const char *const after[] = {
            [DMG_SHOTGUN] = "'s boomstick\n", [DMG_AXE] = "\n", [DMG_ROCKET] = "'s rocket\n",
            [DMG_TELEFRAG] = "\n", [DMG_SUICIDE] = "\n"};
        n = text_append(text, sizeof text, n, victim);
        n = text_append(text, sizeof text, n, before[cause]);
        n = text_append(text, sizeof text, n, sv.clients[attacker].name);
        n = text_append(text, sizeof text, n, after[cause]);
    }
    ok &= sv_broadcast_print(PRINT_MEDIUM, text);

    sv_log_deferred("frag: ", text);
    sv_event_sound(target + 1, 2, sv.sound_death, p->origin);
    return ok;
}

QW_TM_SAFE bool sv_game_damage(int target, int attacker, int amount, const float from[3],
                               sv_damage_cause cause)
{
    sv_player *p = &sv.players[target];
    if (!p->active || p->dead || amount <= 0)
        return true;
    int save = (int)(p->armortype * amount + 0.999f);
    if (save > p->armor)
        save = p->armor;
    p->armor -= save;
    if (p->armor == 0) {
        p->armortype = 0;
        p->items &= ~(IT_ARMOR1 | IT_ARMOR2 | IT_ARMOR3);
    }
    int take = amount - save;
    p->health -= take;
    p->dmg_take += take;
    p->dmg_save += save;
    qw_vec_copy(from, p->dmg_origin);

    /* knockback away from the source */
    float dir[3] = {p->origin[0] - from[0], p->origin[1] - from[1], p->origin[2] - from[2]};
    if (qw_vec_normalize(dir) > 0 && amount < 200) {
        float push = (float)amount * (attacker == target ? 8.0f : 4.0f);
        qw_vec_ma(p->velocity, push, dir, p->velocity);
    }
    if (p->health <= 0)
        return kill_player(target, attacker, cause);
    sv_event_sound(target + 1, 2, sv.sound_pain, p->origin);
    return true;
}

/* ---- items ---- */

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

static bool pickup_item(sv_client *cl, sv_player *p, sv_entity *e)
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
        p->items &= ~(IT_ARMOR1 | IT_ARMOR2 | IT_ARMOR3);
        p->items |= e->item == ITEM_ARMOR1 ? IT_ARMOR1 : e->item == ITEM_ARMOR2 ? IT_ARMOR2
                                                                                : IT_ARMOR3;
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
    sv_event_sound(cl->slot + 1, 3, sv.sound_item, p->origin);
    return sv_reliable_print(cl, PRINT_LOW, msg);
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
    qw_area_relink_object(&sv.area, &p->link, p->origin);
    return telefrag(cl->slot, p->origin);
}

static bool touch_items(sv_client *cl, sv_player *p)
{
    qw_area_object *touched[16];
    int n = qw_area_query_box(&sv.area, p->link.absmin, p->link.absmax, QW_SOLID_TRIGGER,
                              touched, 16);
    if (n > 16)
        n = 16;
    bool ok = true;
    for (int i = 0; i < n; i++) {
        sv_entity *e = touched[i]->user;
        if (!e)
            continue;
        if (e->kind == ENT_ITEM && e->visible) {
            ok &= pickup_item(cl, p, e);
        } else if (e->kind == ENT_TELEPORT) {
            ok &= teleport(cl, p, e);
            break; /* the old neighbourhood's triggers no longer apply */
        }
    }
    return ok;
}

/* ---- weapons ---- */

/* Where shots leave a player (16 units above the origin) and the view vectors. */
static void weapon_aim(const sv_player *p, const float angles[3], float src[3], float forward[3],
                       float right[3], float up[3])
{
    qw_angle_vectors(angles, forward, right, up);
    qw_vec_copy(p->origin, src);
    src[2] += 16;
}

/* One instant hit from src toward end: blood and damage on a player, a puff on a wall. */
static bool hitscan(sv_client *cl, sv_player *p, const float src[3], const float end[3],
                    int damage, sv_damage_cause cause)
{
    qw_trace tr;
    qw_world_move(&sv.area, src, zero_vec, zero_vec, end, QW_MOVE_NORMAL, &p->link, &tr);
    sv_player *victim = player_for_object(tr.ent);
    if (victim) {
        sv_event_temp_entity(TE_BLOOD, tr.endpos);
        return sv_game_damage((int)(victim - sv.players), cl->slot, damage, src, cause);
    }
    if (tr.fraction < 1.0f)
        sv_event_temp_entity(TE_GUNSHOT, tr.endpos);
    return true;
}

static bool fire_shotgun(sv_client *cl, sv_player *p, const float angles[3])
{
    if (p->shells < 1)
        return true;
    p->shells--;
    p->attack_finished = sv.time + 0.5;
    float forward[3], right[3], up[3], src[3];
    weapon_aim(p, angles, src, forward, right, up);
    bool ok = true;
    for (int i = 0; i < SHOTGUN_PELLETS; i++) {
        float dir[3], end[3];
        qw_vec_ma(forward, 0.04f * sv_crandom(&p->random_state), right, dir);
        qw_vec_ma(dir, 0.04f * sv_crandom(&p->random_state), up, dir);
        qw_vec_ma(src, 2048.0f, dir, end);
        ok &= hitscan(cl, p, src, end, SHOTGUN_DAMAGE, DMG_SHOTGUN);
    }
    sv_event_sound(cl->slot + 1, 1, sv.sound_shotgun, p->origin);
    return ok;
}

static void fire_rocket(sv_client *cl, sv_player *p, const float angles[3])
{
    if (p->rockets < 1)
        return;
    sv_entity *e = alloc_entity();
    if (!e)
        return;
    p->rockets--;
    p->attack_finished = sv.time + 0.8;
    float forward[3], right[3], up[3], src[3];
    weapon_aim(p, angles, src, forward, right, up);
    e->kind = ENT_ROCKET;
    qw_vec_ma(src, 8.0f, forward, e->origin);
    qw_vec_ma(zero_vec, ROCKET_SPEED, forward, e->velocity);
    e->angles[0] = -angles[0]; /* model pitch is the view pitch inverted */
    e->angles[1] = angles[1];
    e->angles[2] = 0;
    e->modelindex = sv.model_missile;
    e->frame = e->skinnum = 0;
    e->effects = 0;
    e->visible = true;
    e->owner_slot = cl->slot;
    e->die_time = sv.time + 5.0;
    memset(&e->baseline, 0, sizeof e->baseline);
    e->baseline.number = e->number;
    memset(e->mins, 0, sizeof e->mins);
    memset(e->maxs, 0, sizeof e->maxs);
    link_entity(e, QW_SOLID_NOT); /* linked only for its PVS leafs; it moves by traces */
    sv_event_sound(cl->slot + 1, 1, sv.sound_rocket_fire, p->origin);
}

static bool fire_axe(sv_client *cl, sv_player *p, const float angles[3])
{
    p->attack_finished = sv.time + 0.5;
    float forward[3], right[3], up[3], src[3], end[3];
    weapon_aim(p, angles, src, forward, right, up);
    qw_vec_ma(src, 64.0f, forward, end);
    return hitscan(cl, p, src, end, 20, DMG_AXE);
}

static void select_weapon(sv_player *p, int impulse)
{
    if (impulse == 1)
        p->weapon = IT_AXE;
    else if (impulse == 2 && (p->items & IT_SHOTGUN))
        p->weapon = IT_SHOTGUN;
    else if (impulse == 7 && (p->items & IT_ROCKET_LAUNCHER))
        p->weapon = IT_ROCKET_LAUNCHER;
}

/* ---- one movement command ---- */

QW_TM_SAFE bool sv_game_run_command(sv_client *cl, const qw_usercmd *cmd)
{
    sv_player *p = &sv.players[cl->slot];
    if (!p->active)
        return true;
    bool ok = true;
    p->angles[0] = cmd->angles[0];
    p->angles[1] = cmd->angles[1];
    p->angles[2] = cmd->angles[2];

    if (p->dead) {
        int pressed = cmd->buttons & ~p->oldbuttons & (QW_BUTTON_ATTACK | QW_BUTTON_JUMP);
        p->oldbuttons = cmd->buttons;
        if (pressed && sv.time >= p->death_time + 1.0)
            return sv_game_spawn_player(cl->slot);
        return true;
    }
    if (cmd->impulse)
        select_weapon(p, cmd->impulse);

    qw_pmove pm;
    qw_vec_copy(p->origin, pm.origin);
    qw_vec_copy(p->velocity, pm.velocity);
    qw_vec_copy(cmd->angles, pm.angles);
    pm.oldbuttons = p->oldbuttons;
    pm.waterjumptime = p->waterjumptime;
    pm.pm_type = QW_PM_NORMAL;
    pm.cmd.msec = cmd->msec;
    qw_vec_copy(cmd->angles, pm.cmd.angles);
    pm.cmd.forwardmove = cmd->forwardmove;
    pm.cmd.sidemove = cmd->sidemove;
    pm.cmd.upmove = cmd->upmove;
    pm.cmd.buttons = cmd->buttons;
    pm.bsp = sv.bsp;
    pm.numphysent = 1;
    memset(&pm.physents[0], 0, sizeof pm.physents[0]);
    /* everything solid within reach of this move, from the areanode tree: the other living
     * players as boxes, brush entities as their submodels */
    qw_pmove_add_area_physents(&pm, &sv.area, &p->link, 256.0f);
    /* transaction_pure: pm is this transaction's local (its shared inputs were copied in
     * above, instrumented) and movevars never change after the map is loaded */
    qw_pmove_run(&pm, &sv.movevars);

    qw_vec_copy(pm.origin, p->origin);
    qw_vec_copy(pm.velocity, p->velocity);
    p->oldbuttons = pm.oldbuttons;
    p->waterjumptime = pm.waterjumptime;
    p->onground = pm.onground != -1;
    p->waterlevel = pm.waterlevel;
    qw_area_relink_object(&sv.area, &p->link, p->origin);

    ok &= touch_items(cl, p);

    if ((cmd->buttons & QW_BUTTON_ATTACK) && sv.time >= p->attack_finished) {
        if (p->weapon == IT_ROCKET_LAUNCHER && p->rockets > 0)
            fire_rocket(cl, p, cmd->angles);
        else if (p->weapon != IT_AXE && p->shells > 0)
            ok &= fire_shotgun(cl, p, cmd->angles);
        else
            ok &= fire_axe(cl, p, cmd->angles);
    }
    return ok;
}

/* ---- U phase: projectiles and item respawns ---- */

static void explode_rocket(sv_entity *e, const qw_trace *tr)
{
    float at[3];
    qw_vec_copy(tr->endpos, at);
    /* back off the surface so the explosion is not inside the wall */
    float dir[3];
    qw_vec_copy(e->velocity, dir);
    qw_vec_normalize(dir);
    qw_vec_ma(at, -8.0f, dir, at);
    sv_player *direct = player_for_object(tr->ent);
    int attacker = e->owner_slot;
    if (direct)
        sv_game_damage((int)(direct - sv.players), attacker, 100, at, DMG_ROCKET);
    for (int j = 0; j < QW_MAX_CLIENTS; j++) {
        sv_player *o = &sv.players[j];
        if (!o->active || o->dead || o == direct)
            continue;
        float centre[3] = {o->origin[0], o->origin[1], o->origin[2] + 4};
        float d[3] = {centre[0] - at[0], centre[1] - at[1], centre[2] - at[2]};
        float points = 120.0f - 0.5f * qw_vec_length(d);
        if (j == attacker)
            points *= 0.5f;
        if (points > 0)
            sv_game_damage(j, attacker, (int)points, at, DMG_ROCKET);
    }
    sv_event_temp_entity(TE_EXPLOSION, at);
    sv_event_sound(e->number, 0, sv.sound_explode, at);
    free_entity(e);
}

void sv_game_physics(double dt)
{
    for (int n = SV_FIRST_NONPLAYER; n < sv.num_entities; n++) {
        sv_entity *e = &sv.entities[n];
        if (e->kind == ENT_ITEM && !e->visible && sv.time >= e->respawn_time) {
            e->visible = true;
            e->modelindex = sv.model_item[e->item];
            sv_event_sound(e->number, 0, sv.sound_item, e->origin);
        } else if (e->kind == ENT_ROCKET) {
            if (sv.time >= e->die_time) {
                free_entity(e);
                continue;
            }
            float end[3];
            qw_vec_ma(e->origin, (float)dt, e->velocity, end);
            const qw_area_object *owner =
                e->owner_slot >= 0 ? &sv.players[e->owner_slot].link : NULL;
            qw_trace tr;
            qw_world_move(&sv.area, e->origin, zero_vec, zero_vec, end, QW_MOVE_MISSILE,
                          owner, &tr);
            if (tr.startsolid || tr.allsolid || tr.fraction < 1.0f) {
                explode_rocket(e, &tr);
                continue;
            }
            qw_vec_copy(end, e->origin);
            qw_area_relink_object(&sv.area, &e->link, e->origin);
        }
    }
}

void sv_game_player_stats(int slot, int stats[QW_MAX_CL_STATS])
{
    sv_player *p = &sv.players[slot];
    memset(stats, 0, sizeof(int) * QW_MAX_CL_STATS);
    stats[STAT_HEALTH] = p->health < -99 ? -99 : p->health;
    stats[STAT_FRAGS] = p->frags;
    stats[STAT_ARMOR] = p->armor;
    stats[STAT_SHELLS] = p->shells;
    stats[STAT_ROCKETS] = p->rockets;
    stats[STAT_ACTIVEWEAPON] = p->weapon;
    stats[STAT_ITEMS] = p->items | IT_SHELLS;
    stats[STAT_AMMO] = p->weapon == IT_ROCKET_LAUNCHER ? p->rockets
                       : p->weapon == IT_AXE        ? 0
                                                    : p->shells;
    stats[STAT_WEAPON] = p->weapon == IT_ROCKET_LAUNCHER ? sv.model_v_rock
                         : p->weapon == IT_AXE           ? sv.model_v_axe
                                                         : sv.model_v_shot;
    stats[STAT_WEAPONFRAME] = p->weaponframe;
    stats[STAT_VIEWHEIGHT] = (int)VIEW_HEIGHT;
}
