/* QuakeWorld's own game (id's qwprogs.dat, from ../shared) run by qwsv's QuakeC glue, every
 * engine call made the way the server makes it, inside its critical section (-sync stm: a
 * transaction; --tm runs this also with LIBTM_HTM=0): the map's entities spawned by QuakeC,
 * a player entering with id's start items, every item class picked up, every weapon fired,
 * a death and a respawn, the spawn parms kept across a map change, and failure atomicity: a
 * QuakeC runtime error in a command rolls the command back under stm and leaves its effects
 * under lock; every builtin the program calls is there. Usage: test_qcgame BASEDIR PROGS (test-qcgame.sh skips without them). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>

#include "admin/cvar.h"
#include "admin/game_services.h"
#include "game_world.h"
#include "qcgame/qcg.h"
#include "qcgame/qcgame.h"

static const char *basedir, *progs;

/* A field of edict n by name (float) / the program's string of a string field. */
static float fget(int n, const char *field)
{
    int ofs = qc_find_field(qcg.vm, field, QC_TYPE_VOID);
    assert_true(ofs >= 0);
    return qc_entity_ptr(qcg.vm, n)[ofs].f;
}

static void fset(int n, const char *field, float v)
{
    int ofs = qc_find_field(qcg.vm, field, QC_TYPE_VOID);
    assert_true(ofs >= 0);
    qc_entity_ptr(qcg.vm, n)[ofs].f = v;
}

static const char *sget(int n, const char *field)
{
    int ofs = qc_find_field(qcg.vm, field, QC_TYPE_STRING);
    assert_true(ofs >= 0);
    return qcg_string(qc_entity_ptr(qcg.vm, n)[ofs].i);
}

/* One U phase of `seconds` (time advances, then StartFrame and every entity's physics). */
static void frame(double seconds)
{
    sv.time += seconds;
    sv.framenum++;
    sv_events_begin_frame();
    sv_game->physics(seconds);
}

static void run_frames(double seconds)
{
    for (double t = 0; t < seconds; t += 0.05)
        frame(0.05);
}

/* A client in slot enters the game (QuakeWorld's "begin"), in its section. */
static void enter(int slot)
{
    sv_client *cl = &sv.clients[slot];
    cl->slot = slot;
    cl->state = CL_CONNECTED;
    snprintf(cl->name, sizeof cl->name, "player%d", slot);
    qw_netchan_init(&cl->netchan, false, slot);
    assert_true(cs_spawn(slot));
    cl->state = CL_SPAWNED;
}

static bool load(const char *map)
{
    sv.opt.maxclients = 8;
    sv.opt.threads = 1;
    sv.opt.basedir = basedir;
    char err[512];
    if (!sv_map_load(basedir, map, err, sizeof err)) {
        fprintf(stderr, "%s\n", err);
        return false;
    }
    sv_events_begin_frame();
    return true;
}

/* One command of a player: msec 13, angles, buttons, impulse, standing still. */
static bool command(int slot, float pitch, float yaw, int buttons, int impulse)
{
    qw_usercmd cmd;
    memset(&cmd, 0, sizeof cmd);
    cmd.msec = 13;
    cmd.angles[0] = pitch;
    cmd.angles[1] = yaw;
    cmd.buttons = (uint8_t)buttons;
    cmd.impulse = (uint8_t)impulse;
    return cs_run_command(slot, &cmd);
}

/* Moves edict n to (x, y, z) and links it (QuakeC's setorigin). */
static void put(int n, const float at[3])
{
    float *o = &qc_entity_ptr(qcg.vm, n)[qcg.f.origin].f;
    o[0] = at[0];
    o[1] = at[1];
    o[2] = at[2];
    float *v = &qc_entity_ptr(qcg.vm, n)[qcg.f.velocity].f;
    v[0] = v[1] = v[2] = 0;
    qcg_link_edict(n, false);
}

static int find_class(const char *classname, int after)
{
    for (int n = after + 1; n < qcg.num_edicts; n++)
        if (qcg_in_use(n) && !strcmp(sget(n, "classname"), classname))
            return n;
    return 0;
}

static int count_class(const char *classname)
{
    int count = 0;
    for (int n = find_class(classname, 0); n; n = find_class(classname, n))
        count++;
    return count;
}

static int setup(void **state)
{
    (void)state;
    memset(&sv, 0, sizeof sv);
    sv_cvar_init();
    sv.opt.threads = 1;
    sv.opt.maxclients = 8;
    sv_sync_init(SYNC_STM);
    sv_stats_init(1);
    sv_map_init_players();
    char err[512];
    if (sv_game != &sv_qcgame &&
        !sv_qcgame_choose(basedir, NULL, progs, &sv_admin_game_services, err, sizeof err)) {
        fprintf(stderr, "cannot load %s: %s\n", progs, err);
        return -1;
    }
    sv_game = &sv_qcgame;
    sv_map_unload();
    sv.time = 1;
    return load("lqdm2") ? 0 : -1;
}

/* The map's entities are QuakeC's; a player enters with id's start items at a spawn spot. */
static void test_spawn(void **state)
{
    (void)state;
    assert_true(sv_game == &sv_qcgame);
    assert_string_equal(sget(0, "model"), "maps/lqdm2.bsp");
    assert_true(count_class("info_player_deathmatch") > 0);
    assert_true(count_class("item_armor1") + count_class("item_health") > 0);
    assert_string_equal(sv_game->lightstyle(0), "m");
    enter(0);
    int p = 1;
    assert_string_equal(sget(p, "classname"), "player");
    assert_float_equal(fget(p, "health"), 100, 0);
    assert_true(((int)fget(p, "items") & (IT_SHOTGUN | IT_AXE)) == (IT_SHOTGUN | IT_AXE));
    assert_float_equal(fget(p, "ammo_shells"), 25, 0);
    assert_true(sv.players[0].active);
    /* it stands on a spawn spot (PutClientInServer's SelectSpawnPoint) */
    bool on_spot = false;
    for (int s = find_class("info_player_deathmatch", 0); s; s = find_class("info_player_deathmatch", s)) {
        float d = 0;
        for (int i = 0; i < 3; i++) {
            float x = qc_entity_ptr(qcg.vm, s)[qcg.f.origin + i].f - sv.players[0].origin[i];
            d += x * x;
        }
        on_spot |= d < 2 * 2;
    }
    assert_true(on_spot);
    int stats[QW_MAX_CL_STATS];
    sv_game->player_stats(0, stats);
    assert_int_equal(stats[STAT_HEALTH], 100);
    assert_int_equal(stats[STAT_SHELLS], 25);
    assert_int_equal(stats[STAT_ACTIVEWEAPON], IT_SHOTGUN);
    assert_true(command(0, 0, 0, 0, 0));
}

/* Spawns an item of `classname` at `at` the way the map does (its spawn function), and lets
 * it settle (PlaceItem drops it to the floor after 0.2 s). */
static int spawn_item(const char *classname, const float at[3])
{
    int e = qcg_edict_alloc();
    assert_true(e > 0);
    qc_entity_ptr(qcg.vm, e)[qcg.f.classname].i = qc_string_new(qcg.vm, classname);
    float *o = &qc_entity_ptr(qcg.vm, e)[qcg.f.origin].f;
    o[0] = at[0];
    o[1] = at[1];
    o[2] = at[2];
    qc_func fn = qc_find_function(qcg.vm, classname);
    assert_true(fn > 0);
    qcg.spawning = true; /* its models and sounds join the precache lists */
    qc_ctx *ctx = qcg_ctx();
    qc_ctx_reset(ctx);
    assert_int_equal(qcg_call(ctx, fn, e, 0), QC_OK);
    qcg.spawning = false;
    return e;
}

/* Every item class of QuakeWorld's deathmatch, picked up by walking onto it. */
static void test_pickup_each_class(void **state)
{
    (void)state;
    static const struct { const char *classname; int spawnflags; const char *gains; } items[] = {
        {"item_health", 0, "health"}, {"item_health", 1, "health"}, {"item_health", 2, "health"},
        {"item_armor1", 0, "armorvalue"}, {"item_armor2", 0, "armorvalue"},
        {"item_armorInv", 0, "armorvalue"}, {"item_shells", 0, "ammo_shells"},
        {"item_spikes", 0, "ammo_nails"}, {"item_rockets", 0, "ammo_rockets"},
        {"item_cells", 0, "ammo_cells"}, {"weapon_supershotgun", 0, "items"},
        {"weapon_nailgun", 0, "items"}, {"weapon_supernailgun", 0, "items"},
        {"weapon_grenadelauncher", 0, "items"}, {"weapon_rocketlauncher", 0, "items"},
        {"weapon_lightning", 0, "items"}, {"item_artifact_invulnerability", 0, "items"},
        {"item_artifact_envirosuit", 0, "items"}, {"item_artifact_invisibility", 0, "items"},
        {"item_artifact_super_damage", 0, "items"},
    };
    enter(0);
    int p = 1;
    float spot[3];
    memcpy(spot, sv.players[0].origin, sizeof spot);
    for (size_t i = 0; i < sizeof items / sizeof items[0]; i++) {
        /* a fresh player with little of everything */
        fset(p, "health", 20);
        fset(p, "armorvalue", 0);
        fset(p, "armortype", 0);
        fset(p, "items", IT_SHOTGUN | IT_AXE);
        fset(p, "ammo_shells", 0);
        fset(p, "ammo_nails", 0);
        fset(p, "ammo_rockets", 0);
        fset(p, "ammo_cells", 0);
        put(p, spot);
        float item_at[3] = {spot[0] + 200, spot[1], spot[2]};
        int e = spawn_item(items[i].classname, item_at);
        fset(e, "spawnflags", (float)items[i].spawnflags);
        run_frames(0.5);
        assert_true(qcg_in_use(e));
        assert_int_not_equal((int)fget(e, "solid"), QW_SOLID_NOT);
        float before = fget(p, items[i].gains);
        float on_it[3];
        for (int k = 0; k < 3; k++)
            on_it[k] = qc_entity_ptr(qcg.vm, e)[qcg.f.origin + k].f;
        on_it[2] += 24;
        put(p, on_it);
        assert_true(command(0, 0, 0, 0, 0));
        float after = fget(p, items[i].gains);
        if (after <= before)
            fail_msg("%s (spawnflags %d): %s stayed %g", items[i].classname,
                     items[i].spawnflags, items[i].gains, before);
        /* taken: gone (removed, or waiting to respawn: no model, not solid) */
        assert_true(!qcg_in_use(e) || (int)fget(e, "solid") == QW_SOLID_NOT);
        put(p, spot);
        printf("picked up %s: %s %g -> %g\n", items[i].classname, items[i].gains, before, after);
    }
}

/* Every weapon (impulses 1..8) fired: its ammunition spent, the axe and shotguns hurting a
 * player in front, the launchers' and nailguns' missiles flying. */
static void test_fire_each_weapon(void **state)
{
    (void)state;
    static const struct { int impulse, it; const char *ammo, *missile; } weapons[] = {
        {1, IT_AXE, NULL, NULL}, {2, IT_SHOTGUN, "ammo_shells", NULL},
        {3, IT_SUPER_SHOTGUN, "ammo_shells", NULL}, {4, IT_NAILGUN, "ammo_nails", "spike"},
        {5, IT_SUPER_NAILGUN, "ammo_nails", "spike"},
        {6, IT_GRENADE_LAUNCHER, "ammo_rockets", "grenade"},
        {7, IT_ROCKET_LAUNCHER, "ammo_rockets", "missile"}, {8, IT_LIGHTNING, "ammo_cells", NULL},
    };
    enter(0);
    enter(1);
    int p = 1, target = 2;
    float at[3];
    memcpy(at, sv.players[0].origin, sizeof at);
    for (size_t w = 0; w < sizeof weapons / sizeof weapons[0]; w++) {
        enter(0); /* both alive again, whatever the last weapon's splash did */
        enter(1);
        run_frames(1.0); /* the refire time passes, the spawn spots' telefrag boxes go */
        fset(p, "items", (float)(IT_AXE | IT_SHOTGUN | IT_SUPER_SHOTGUN | IT_NAILGUN |
                                 IT_SUPER_NAILGUN | IT_GRENADE_LAUNCHER | IT_ROCKET_LAUNCHER |
                                 IT_LIGHTNING));
        fset(p, "ammo_shells", 50);
        fset(p, "ammo_nails", 100);
        fset(p, "ammo_rockets", 50);
        fset(p, "ammo_cells", 100);
        put(p, at);
        /* the target stands 40 units ahead (east, yaw 0), within the axe's reach */
        float ahead[3] = {at[0] + 40, at[1], at[2]};
        fset(target, "armorvalue", 0);
        put(target, ahead);
        assert_true(command(0, 0, 0, 0, weapons[w].impulse));
        assert_int_equal((int)fget(p, "weapon"), weapons[w].it);
        float ammo = weapons[w].ammo ? fget(p, weapons[w].ammo) : 0;
        int missiles = weapons[w].missile ? count_class(weapons[w].missile) : 0;
        float health = fget(target, "health");
        bool fired = false;
        for (int k = 0; k < 20 && !fired; k++) {
            assert_true(command(0, 0, 0, QW_BUTTON_ATTACK, 0));
            frame(0.013);
            if (weapons[w].ammo)
                fired = fget(p, weapons[w].ammo) < ammo;
            else
                fired = fget(target, "health") < health;
        }
        assert_true(fired);
        if (weapons[w].missile)
            assert_true(count_class(weapons[w].missile) > missiles ||
                        fget(target, "health") < health);
        if (weapons[w].it == IT_SHOTGUN || weapons[w].it == IT_SUPER_SHOTGUN ||
            weapons[w].it == IT_LIGHTNING)
            assert_true(fget(target, "health") < health);
        assert_true(command(0, 0, 0, 0, 0)); /* the button released */
        printf("fired impulse %d: %s %g -> %g, target's health %g -> %g\n", weapons[w].impulse,
               weapons[w].ammo ? weapons[w].ammo : "(none)", ammo,
               weapons[w].ammo ? fget(p, weapons[w].ammo) : 0, health, fget(target, "health"));
    }
}

/* Killed by another player's rockets (a frag for the killer), then back in the game. */
static void test_die_and_respawn(void **state)
{
    (void)state;
    enter(0);
    enter(1);
    int killer = 1, victim = 2;
    fset(killer, "items", IT_AXE | IT_SHOTGUN | IT_ROCKET_LAUNCHER);
    fset(killer, "ammo_rockets", 50);
    float at[3];
    memcpy(at, sv.players[0].origin, sizeof at);
    put(killer, at);
    float ahead[3] = {at[0] + 120, at[1], at[2]};
    fset(victim, "health", 30);
    put(victim, ahead);
    assert_true(command(0, 0, 0, 0, 7));
    for (int k = 0; k < 100 && fget(victim, "health") > 0; k++) {
        assert_true(command(0, 0, 0, QW_BUTTON_ATTACK, 0));
        frame(0.013);
        put(victim, ahead);
    }
    assert_true(fget(victim, "health") <= 0);
    assert_float_equal(fget(killer, "frags"), 1, 0);
    run_frames(0.5);
    assert_true(sv.players[1].dead);
    /* QuakeWorld's respawn: every button released, then one pressed */
    for (int k = 0; k < 200 && fget(victim, "health") <= 0; k++) {
        assert_true(command(1, 0, 0, k % 2 ? QW_BUTTON_JUMP : 0, 0));
        frame(0.05);
    }
    assert_float_equal(fget(victim, "health"), 100, 0);
    assert_false(sv.players[1].dead);
    /* the scoreboard's copy follows in U */
    assert_int_equal(sv.players[0].frags, 1);
    /* and a suicide (the "kill" command): two frags less, back at a spawn spot at once */
    bool ok;
    CRITICAL_SECTION_CANCELLABLE(CS_MOVE_COMMAND, ok, sv_game->client_kill(1));
    assert_true(ok);
    assert_float_equal(fget(victim, "health"), 100, 0);
    assert_float_equal(fget(victim, "frags"), -2, 0);
}

/* SetChangeParms at a map change, PutClientInServer with them on the next map. */
static void test_map_change_keeps_parms(void **state)
{
    (void)state;
    enter(0);
    int p = 1;
    fset(p, "items", IT_AXE | IT_SHOTGUN | IT_ROCKET_LAUNCHER);
    fset(p, "ammo_rockets", 33);
    fset(p, "health", 80);
    sv_game->map_ending();
    sv_map_unload();
    assert_true(load("lqdm6"));
    assert_string_equal(sget(0, "model"), "maps/lqdm6.bsp");
    enter(0);
    assert_true((int)fget(p, "items") & IT_ROCKET_LAUNCHER);
    assert_float_equal(fget(p, "ammo_rockets"), 33, 0);
    assert_float_equal(fget(p, "health"), 80, 0);
    /* a client new to the server starts afresh (SetNewParms) */
    sv_game->remove_player(0);
    enter(0);
    assert_false((int)fget(p, "items") & IT_ROCKET_LAUNCHER);
    assert_float_equal(fget(p, "health"), 100, 0);
}

/* A command that runs out of its statement budget (the "runaway loop" error) half way: under
 * stm the section is cancelled (the view angles the command had set are back), the error is
 * reported and the next command runs; under lock its effects stay. */
static void test_runaway_command(sv_sync_mode mode)
{
    sv_sync_init(mode);
    enter(0);
    int p = 1;
    float *v_angle = &qc_entity_ptr(qcg.vm, p)[qcg.f.v_angle].f;
    v_angle[0] = v_angle[1] = 0;
    qc_ctx *ctx = qcg_ctx();
    qc_ctx_set_budget(ctx, 30); /* PlayerPreThink alone runs more */
    assert_false(command(0, 10, 20, 0, 0));
    assert_int_equal(qc_ctx_error(ctx)->kind, QC_ERR_RUNAWAY);
    if (mode == SYNC_STM)
        assert_float_equal(v_angle[1], 0, 0); /* rolled back */
    else
        assert_float_equal(v_angle[1], 20, 0); /* stays: nothing undoes a lock mode's work */
    sv_game->failed(&sv.clients[0], false);
    assert_false(sv.clients[0].drop_requested); /* the client plays on */
    qc_ctx_set_budget(ctx, 0);
    assert_true(command(0, 10, 30, 0, 0));
    assert_float_equal(v_angle[1], 30, 0);
    sv_sync_init(SYNC_STM);
}

static void test_runaway_stm(void **state)
{
    (void)state;
    test_runaway_command(SYNC_STM);
}

static void test_runaway_lock(void **state)
{
    (void)state;
    test_runaway_command(SYNC_LOCK);
}

/* An edict taken and given back inside transactions, as RP does; out of line, so that the
 * transaction's checkpoint clobbers no local of the test. */
static __attribute__((noinline)) int edict_alloc_in_transaction(void)
{
    int e;
    __transaction_atomic { e = qcg_edict_alloc(); }
    return e;
}

static __attribute__((noinline)) void edict_free_in_transaction(int e)
{
    __transaction_atomic { qcg_edict_free(e); }
}

/* Every builtin qwprogs.dat calls is the library's or the server's, under the name the
 * program gives it and with its help; no number is given twice (the load registered every
 * table, and a table given again is refused at its first entry). */
static void test_builtins_cover_qwprogs(void **state)
{
    (void)state;
    int referenced = 0;
    for (qc_func f = 1; f < qc_num_functions(qcg.vm); f++) {
        int n = qc_function_builtin(qcg.vm, f);
        if (!n)
            continue;
        referenced++;
        const char *name = qc_function_name(qcg.vm, f);
        if (!qc_builtin_implemented(qcg.vm, n))
            fprintf(stderr, "qwprogs.dat calls builtin #%d %s, which nobody implements\n", n,
                    name);
        assert_true(qc_builtin_implemented(qcg.vm, n));
        assert_string_equal(qc_builtin_name(qcg.vm, n), name);
        assert_true(qc_builtin_help(qcg.vm, n)[0] != 0);
    }
    assert_int_equal(referenced, 68);
    assert_ptr_equal(qc_builtin_register_table(qcg.vm, qcg_world_builtins), qcg_world_builtins);
    assert_ptr_equal(qc_builtin_register_table(qcg.vm, qcg_message_builtins),
                     qcg_message_builtins);
}

/* Edicts spawned in RP come from the thread's pool (no shared free list), and a freed one is
 * not reused for half a second. */
static void test_edict_pools(void **state)
{
    (void)state;
    sv.time = 10; /* edicts freed before 2 s (while the map loads) are reusable at once */
    qcg_pools_fill();
    int pooled = qcg.pools[0].count;
    assert_int_equal(pooled, QCG_POOL);
    int e = edict_alloc_in_transaction();
    assert_int_equal(qcg.pools[0].count, pooled - 1);
    assert_true(qcg_in_use(e));
    edict_free_in_transaction(e);
    qcg.pools[0].count = 0;
    int again = qcg_edict_alloc();
    assert_int_not_equal(again, e); /* freed just now: not reused */
    qcg_edict_free(again);
    sv.time += 1;
    qcg_pools_fill();
    bool back = false;
    for (int i = 0; i < qcg.pools[0].count; i++)
        back |= qcg.pools[0].numbers[i] == e;
    assert_true(back);
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: %s BASEDIR PROGS\n", argv[0]);
        return 2;
    }
    basedir = argv[1];
    progs = argv[2];
    setvbuf(stdout, NULL, _IOLBF, 0);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_spawn, setup),
        cmocka_unit_test_setup(test_pickup_each_class, setup),
        cmocka_unit_test_setup(test_fire_each_weapon, setup),
        cmocka_unit_test_setup(test_die_and_respawn, setup),
        cmocka_unit_test_setup(test_map_change_keeps_parms, setup),
        cmocka_unit_test_setup(test_runaway_stm, setup),
        cmocka_unit_test_setup(test_runaway_lock, setup),
        cmocka_unit_test_setup(test_edict_pools, setup),
        cmocka_unit_test_setup(test_builtins_cover_qwprogs, setup),
    };
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    if (sv_game == &sv_qcgame) /* which of the game's functions these tests ran (QW_QCFUNCTIONS=FILE) */
        sv_qcgame_report_functions(getenv("QW_QCFUNCTIONS"));
    return failed;
}
