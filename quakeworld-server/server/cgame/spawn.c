/* The C game's side of loading a map (after map.c read the BSP, PVS and area): the precache
 * lists, the entity lump's entities by classname (items, spawn points, doors, plats, buttons,
 * triggers, teleporters, relays, static torches), the default items of maps without any, and
 * the sign-on (baselines, statics). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cgame/buttons.h"
#include "cgame/cgame.h"
#include "cgame/doors.h"
#include "cgame/plats.h"
#include "cgame/targets.h"
#include "cgame/triggers.h"
#include "log.h"
#include "server.h"

static int add_model(const char *name)
{
    for (int i = 1; i < sv.num_models; i++)
        if (!strcmp(sv.model_names[i], name))
            return i;
    if (sv.num_models >= QW_MAX_MODELS)
        return 0;
    snprintf(sv.model_names[sv.num_models], sizeof sv.model_names[0], "%s", name);
    return sv.num_models++;
}

static int add_sound(const char *name)
{
    if (sv.num_sounds >= QW_MAX_SOUNDS)
        return 0;
    snprintf(sv.sound_names[sv.num_sounds], sizeof sv.sound_names[0], "%s", name);
    return sv.num_sounds++;
}

static void parse_vec(const char *s, float v[3])
{
    v[0] = v[1] = v[2] = 0;
    if (s)
        sscanf(s, "%f %f %f", &v[0], &v[1], &v[2]);
}

/* classname -> item type; -1 for non-items */
static int item_for_classname(const char *cls, int spawnflags)
{
    static const struct { const char *name; int item; } table[] = {
        {"item_armor1", ITEM_ARMOR1}, {"item_armor2", ITEM_ARMOR2},
        {"item_armorInv", ITEM_ARMORINV}, {"item_shells", ITEM_SHELLS},
        {"item_spikes", ITEM_SHELLS}, {"item_cells", ITEM_SHELLS},
        {"item_rockets", ITEM_ROCKETS}, {"weapon_supershotgun", ITEM_WEAPON_SHOTGUN},
        {"weapon_nailgun", ITEM_OTHER_WEAPON}, {"weapon_supernailgun", ITEM_OTHER_WEAPON},
        {"weapon_lightning", ITEM_OTHER_WEAPON}, {"weapon_grenadelauncher", ITEM_WEAPON_ROCKET},
        {"weapon_rocketlauncher", ITEM_WEAPON_ROCKET},
    };
    if (!strcmp(cls, "item_health"))
        return (spawnflags & 2) ? ITEM_HEALTH_MEGA : ITEM_HEALTH;
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (!strcmp(cls, table[i].name))
            return table[i].item;
    return -1;
}

static void precache(void)
{
    sv.num_models = 1; /* index 0 is "no model" */
    sv.model_names[0][0] = 0;
    snprintf(sv.model_names[1], sizeof sv.model_names[1], "maps/%.50s.bsp", sv.mapname);
    sv.num_models = 2;
    for (int i = 1; i <= qw_bsp_num_submodels(sv.bsp) && sv.num_models < 200; i++) {
        char name[16];
        snprintf(name, sizeof name, "*%d", i);
        add_model(name);
    }
    sv.model_player = add_model("progs/player.mdl");
    sv.model_v_axe = add_model("progs/v_axe.mdl");
    sv.model_v_shot = add_model("progs/v_shot.mdl");
    sv.model_v_rock = add_model("progs/v_rock.mdl");
    sv.model_eyes = add_model("progs/eyes.mdl");
    add_model("progs/spike.mdl");
    sv.model_missile = add_model("progs/missile.mdl");
    sv.model_item[ITEM_HEALTH] = add_model("maps/b_bh25.bsp");
    sv.model_item[ITEM_HEALTH_MEGA] = add_model("maps/b_bh100.bsp");
    sv.model_item[ITEM_ARMOR1] = sv.model_item[ITEM_ARMOR2] = sv.model_item[ITEM_ARMORINV] =
        add_model("progs/armor.mdl");
    sv.model_item[ITEM_SHELLS] = add_model("maps/b_shell0.bsp");
    sv.model_item[ITEM_ROCKETS] = add_model("maps/b_rock0.bsp");
    sv.model_item[ITEM_WEAPON_SHOTGUN] = add_model("progs/g_shot.mdl");
    sv.model_item[ITEM_WEAPON_ROCKET] = add_model("progs/g_rock2.mdl");
    sv.model_item[ITEM_OTHER_WEAPON] = add_model("progs/g_nail.mdl");

    sv.num_sounds = 1;
    sv.sound_names[0][0] = 0;
    sv.sound_item = add_sound("items/itembk2.wav");
    sv.sound_rocket_fire = add_sound("weapons/rocket1i.wav");
    sv.sound_explode = add_sound("weapons/r_exp3.wav");
    sv.sound_shotgun = add_sound("weapons/guncock.wav");
    sv.sound_pain = add_sound("player/pain1.wav");
    sv.sound_death = add_sound("player/death1.wav");
    sv.sound_gib = add_sound("player/gib.wav");
    add_sound("items/health1.wav");
    add_sound("items/armor1.wav");
    add_sound("weapons/pkup.wav");
    add_sound("player/plyrjmp8.wav");
    add_sound("misc/r_tele1.wav");
    sv.sound_door_move = add_sound("doors/doormv1.wav");
    sv.sound_door_stop = add_sound("doors/drclos4.wav");
    sv.sound_plat_move = add_sound("plats/medplat1.wav");
    sv.sound_plat_stop = add_sound("plats/medplat2.wav");
    sv.sound_button = add_sound("buttons/airbut1.wav");
}

/* Torches and flames are static entities: sent once in the sign-on (svc_spawnstatic). */
typedef struct static_entity {
    int modelindex, frame;
    float origin[3], angles[3];
} static_entity;
static static_entity statics[128];
static int num_statics;

static void add_static(const char *cls, const float origin[3])
{
    const char *model = NULL;
    int frame = 0;
    if (!strcmp(cls, "light_torch_small_walltorch"))
        model = "progs/flame.mdl";
    else if (!strcmp(cls, "light_flame_large_yellow"))
        model = "progs/flame2.mdl", frame = 1;
    else if (!strcmp(cls, "light_flame_small_yellow") || !strcmp(cls, "light_flame_small_white"))
        model = "progs/flame2.mdl";
    if (!model || num_statics == (int)(sizeof statics / sizeof statics[0]))
        return;
    static_entity *st = &statics[num_statics++];
    st->modelindex = add_model(model);
    st->frame = frame;
    memcpy(st->origin, origin, sizeof st->origin);
    memset(st->angles, 0, sizeof st->angles);
}

/* Brush entities: doors, plats and buttons move; trigger_once/multiple/secret fire their
 * targets when touched, relays and counters when fired; the rest (func_wall,
 * func_illusionary, secret doors, ...) stands still as its submodel. */
static void spawn_brush_entity(const char *cls, const qw_entity_fields *f)
{
    const char *model = qw_entity_get(f, "model");
    int submodel = model && model[0] == '*' ? atoi(model + 1) : -1;
    if (!strcmp(cls, "trigger_relay") || !strcmp(cls, "trigger_counter")) {
        sv_game_spawn_relay(f, !strcmp(cls, "trigger_counter"));
        return;
    }
    if (submodel < 0)
        return;
    if (!strcmp(cls, "func_door"))
        sv_game_spawn_door(submodel, f);
    else if (!strcmp(cls, "func_plat"))
        sv_game_spawn_plat(submodel, f);
    else if (!strcmp(cls, "func_button"))
        sv_game_spawn_button(submodel, f);
    else if (!strcmp(cls, "trigger_multiple"))
        sv_game_spawn_trigger(submodel, f, false);
    else if (!strcmp(cls, "trigger_once") || !strcmp(cls, "trigger_secret"))
        sv_game_spawn_trigger(submodel, f, true);
    else if (!strncmp(cls, "func_", 5))
        sv_game_spawn_brush(submodel, strcmp(cls, "func_illusionary") != 0);
}

/* Teleporters name their destination; both are collected, then paired. */
typedef struct teleport_info {
    char name[64];
    int submodel;
    float origin[3];
    float yaw;
} teleport_info;

static bool spawn_entities(char *err, size_t errlen)
{
    static teleport_info triggers[64], dests[64];
    int num_triggers = 0, num_dests = 0;
    qw_entity_iter it;
    qw_entity_fields *f = malloc(sizeof *f);
    if (!f) {
        snprintf(err, errlen, "out of memory");
        return false;
    }
    qw_entity_iter_init(&it, qw_bsp_entity_string(sv.bsp));
    int r, starts = 0;
    sv_spawnpoint start_points[8];
    snprintf(sv.level_title, sizeof sv.level_title, "%s", sv.mapname);
    while ((r = qw_entity_next(&it, f)) == 1) {
        const char *cls = qw_entity_get(f, "classname");
        if (!cls)
            continue;
        const char *sf = qw_entity_get(f, "spawnflags");
        int spawnflags = sf ? atoi(sf) : 0;
        if (spawnflags & 2048) /* not in deathmatch */
            continue;
        float origin[3];
        parse_vec(qw_entity_get(f, "origin"), origin);
        const char *angle = qw_entity_get(f, "angle");
        if (!strcmp(cls, "worldspawn")) {
            const char *msg = qw_entity_get(f, "message");
            if (msg && *msg)
                snprintf(sv.level_title, sizeof sv.level_title, "%s", msg);
        } else if (!strcmp(cls, "info_player_deathmatch")) {
            if (sv.num_spawnpoints < 64) {
                sv_spawnpoint *p = &sv.spawnpoints[sv.num_spawnpoints++];
                memcpy(p->origin, origin, sizeof origin);
                p->angle = angle ? (float)atof(angle) : 0;
            }
        } else if (!strcmp(cls, "info_player_start") && starts < 8) {
            memcpy(start_points[starts].origin, origin, sizeof origin);
            start_points[starts++].angle = angle ? (float)atof(angle) : 0;
        } else if (!strcmp(cls, "trigger_teleport")) {
            const char *model = qw_entity_get(f, "model"), *target = qw_entity_get(f, "target");
            if (model && model[0] == '*' && target && num_triggers < 64) {
                snprintf(triggers[num_triggers].name, sizeof triggers[0].name, "%s", target);
                triggers[num_triggers++].submodel = atoi(model + 1);
            }
        } else if (!strcmp(cls, "info_teleport_destination")) {
            const char *name = qw_entity_get(f, "targetname");
            const char *mangle = qw_entity_get(f, "mangle");
            if (name && num_dests < 64) {
                teleport_info *d = &dests[num_dests++];
                snprintf(d->name, sizeof d->name, "%s", name);
                memcpy(d->origin, origin, sizeof origin);
                d->origin[2] += 27;
                float m[3] = {0, 0, 0};
                parse_vec(mangle, m);
                d->yaw = mangle ? m[1] : angle ? (float)atof(angle) : 0;
            }
        } else if (!strncmp(cls, "func_", 5) || !strncmp(cls, "trigger_", 8)) {
            spawn_brush_entity(cls, f);
        } else if (!strncmp(cls, "light_", 6)) {
            add_static(cls, origin);
        } else {
            int item = item_for_classname(cls, spawnflags);
            if (item >= 0)
                sv_game_spawn_item(item, origin);
        }
    }
    free(f);
    for (int i = 0; i < num_triggers; i++)
        for (int k = 0; k < num_dests; k++)
            if (!strcmp(triggers[i].name, dests[k].name)) {
                sv_game_spawn_teleport(triggers[i].submodel, dests[k].origin, dests[k].yaw);
                break;
            }
    if (r < 0) {
        snprintf(err, errlen, "%s: entity lump: %s", sv.mappath, it.error);
        return false;
    }
    sv_doors_link();
    if (sv.num_spawnpoints == 0) {
        memcpy(sv.spawnpoints, start_points, sizeof start_points[0] * (size_t)starts);
        sv.num_spawnpoints = starts;
    }
    if (sv.num_spawnpoints == 0) {
        snprintf(err, errlen, "%s has no info_player_deathmatch or info_player_start entity",
                 sv.mappath);
        return false;
    }
    sv_game_add_default_items();
    return true;
}

/* Appends one message to the sign-on chunks (false when all chunks are full). */
static bool signon_append(qw_sizebuf *sb, const qw_sizebuf *m)
{
    if (qw_sizebuf_free_space(sb) < m->cursize) {
        sv.signon_len[sv.num_signon_chunks++] = (uint16_t)sb->cursize;
        if (sv.num_signon_chunks == 32)
            return false;
        qw_sizebuf_init(sb, sv.signon_data[sv.num_signon_chunks], sizeof sv.signon_data[0] - 64);
    }
    qw_write_data(sb, m->data, m->cursize);
    return true;
}

static void build_signon(void)
{
    qw_sizebuf sb;
    sv.num_signon_chunks = 0;
    qw_sizebuf_init(&sb, sv.signon_data[0], sizeof sv.signon_data[0] - 64);
    for (int i = 0; i < num_statics; i++) {
        uint8_t msg[64];
        qw_sizebuf m;
        qw_sizebuf_init(&m, msg, sizeof msg);
        qw_write_byte(&m, svc_spawnstatic);
        qw_write_byte(&m, statics[i].modelindex);
        qw_write_byte(&m, statics[i].frame);
        qw_write_byte(&m, 0);
        qw_write_byte(&m, 0);
        for (int k = 0; k < 3; k++) {
            qw_write_coord(&m, statics[i].origin[k]);
            qw_write_angle8(&m, statics[i].angles[k]);
        }
        if (!signon_append(&sb, &m))
            return;
    }
    for (int n = SV_FIRST_NONPLAYER; n < sv.num_entities; n++) {
        sv_entity *e = &sv.entities[n];
        if (e->kind != ENT_ITEM && e->kind != ENT_BRUSH && e->kind != ENT_DOOR &&
            e->kind != ENT_PLAT && e->kind != ENT_BUTTON)
            continue;
        uint8_t msg[64];
        qw_sizebuf m;
        qw_sizebuf_init(&m, msg, sizeof msg);
        qw_write_byte(&m, svc_spawnbaseline);
        qw_write_short(&m, n);
        qw_write_byte(&m, e->baseline.modelindex);
        qw_write_byte(&m, e->baseline.frame);
        qw_write_byte(&m, e->baseline.colormap);
        qw_write_byte(&m, e->baseline.skinnum);
        for (int i = 0; i < 3; i++) {
            qw_write_coord(&m, e->baseline.origin[i]);
            qw_write_angle8(&m, e->baseline.angles[i]);
        }
        if (!signon_append(&sb, &m))
            return;
    }
    sv.signon_len[sv.num_signon_chunks++] = (uint16_t)sb.cursize;
}

bool sv_cgame_spawn_map(char *err, size_t errlen)
{
    precache();
    num_statics = 0;
    sv.num_entities = SV_FIRST_NONPLAYER;
    if (!spawn_entities(err, errlen))
        return false;
    build_signon();
    return true;
}
