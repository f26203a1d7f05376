/* CMocka test of the game logic on a generated open arena (argv[1] = basedir holding
 * id1/maps/arena.bsp): shotgun hits, kills and frags (with their svc_updatefrags), respawn
 * on a fresh button press, rockets flying in U and exploding, item pickup and respawn.
 * Refire and respawn delays run on each player's own clock (the sum of its commands'
 * durations): the tests advance it by hand. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "server.h"
#include "sv_events.h"
#include "sv_game.h"
#include "sv_map.h"
#include "sv_stats.h"

sv_server sv;
__thread int sv_thread_index;
double sv_clock(void) { return 0; }

static const char *basedir;

static void place(int slot, float x, float y)
{
    sv_player *p = &sv.players[slot];
    p->origin[0] = x;
    p->origin[1] = y;
    p->origin[2] = 24.5f;
    memset(p->velocity, 0, sizeof p->velocity);
    qw_area_relink_object(&sv.area, &p->link, p->origin);
}

static void timed_command(int slot, float yaw, int buttons, int msec)
{
    qw_usercmd cmd = {.msec = (uint8_t)msec, .angles = {0, yaw, 0}, .buttons = (uint8_t)buttons};
    assert_true(sv_game_run_command(&sv.clients[slot], &cmd));
}

static void command(int slot, float yaw, int buttons)
{
    timed_command(slot, yaw, buttons, 0);
}

/* Whether a client's reliable queue holds this byte sequence. */
static bool queued(int slot, const uint8_t *msg, size_t len)
{
    sv_reliable *q = &sv.clients[slot].reliable;
    for (int b = 0; b < q->count; b++) {
        const sv_reliable_block *blk = &q->blocks[(q->first + b) % SV_RELIABLE_BLOCKS];
        for (size_t i = 0; i + len <= blk->len; i++)
            if (!memcmp(blk->data + i, msg, len))
                return true;
    }
    return false;
}

static int setup(void **state)
{
    (void)state;
    sv.opt.maxclients = 4;
    sv.opt.threads = 1;
    sv.opt.basedir = basedir;
    sv_sync_init(SYNC_NONE);
    sv_stats_init(1);
    sv_game_init_players();
    char err[512];
    if (!sv_map_load(basedir, "arena", err, sizeof err)) {
        fprintf(stderr, "%s\n", err);
        return -1;
    }
    sv_events_begin_frame();
    for (int i = 0; i < 2; i++) {
        sv_client *cl = &sv.clients[i];
        cl->slot = i;
        cl->state = CL_SPAWNED;
        snprintf(cl->name, sizeof cl->name, "player%d", i);
        qw_netchan_init(&cl->netchan, false, i);
        sv.time = 1;
        assert_true(sv_game_spawn_player(i));
    }
    return 0;
}

static void test_shotgun_hits(void **state)
{
    (void)state;
    place(0, 0, 0);
    place(1, 200, 0);
    sv.players[0].attack_finished = sv.players[0].time;
    command(0, 0, QW_BUTTON_ATTACK);
    assert_int_equal(sv.players[0].shells, 24);
    /* six pellets of 4 at 200 units: all hit the 32-unit box */
    assert_int_equal(sv.players[1].health, 100 - 24);
    /* a second shot is not ready yet */
    command(0, 0, QW_BUTTON_ATTACK);
    assert_int_equal(sv.players[0].shells, 24);
    /* shooting away from the other player misses */
    sv.players[0].time += 1;
    command(0, 180, QW_BUTTON_ATTACK);
    assert_int_equal(sv.players[1].health, 100 - 24);
}

/* The shotgun refires after 0.5 s of the shooter's own commands, whatever the wall clock. */
static void test_refire_on_player_clock(void **state)
{
    (void)state;
    place(0, 0, 0);
    place(1, 200, 0);
    sv_player *p = &sv.players[0];
    p->attack_finished = p->time;
    int shells = p->shells;
    command(0, 0, QW_BUTTON_ATTACK);
    assert_int_equal(p->shells, shells - 1);
    double wall = sv.time;
    timed_command(0, 0, 0, 200);
    timed_command(0, 0, QW_BUTTON_ATTACK, 200); /* 0.4 s: not yet */
    assert_int_equal(p->shells, shells - 1);
    timed_command(0, 0, QW_BUTTON_ATTACK, 100); /* 0.5 s */
    assert_int_equal(p->shells, shells - 2);
    assert_true(sv.time == wall);
    sv.players[1].health = 100;
}

static void test_kill_frags_and_respawn(void **state)
{
    (void)state;
    int before = sv.players[0].frags;
    assert_true(sv_game_damage(1, 0, 1000, sv.players[0].origin, DMG_SHOTGUN));
    assert_true(sv.players[1].dead);
    assert_int_equal(sv.players[0].frags, before + 1);
    uint8_t frags_msg[4] = {svc_updatefrags, 0, (uint8_t)(before + 1), 0};
    assert_true(queued(0, frags_msg, 4));
    assert_true(queued(1, frags_msg, 4));
    /* a dead player cannot be hurt again, and does not respawn before a second passed */
    assert_true(sv_game_damage(1, 0, 50, sv.players[0].origin, DMG_SHOTGUN));
    assert_int_equal(sv.players[0].frags, before + 1);
    command(1, 0, QW_BUTTON_JUMP);
    assert_true(sv.players[1].dead);
    sv.players[1].time += 2;
    command(1, 0, QW_BUTTON_JUMP); /* still held: no fresh press */
    assert_true(sv.players[1].dead);
    command(1, 0, 0);
    command(1, 0, QW_BUTTON_ATTACK);
    assert_false(sv.players[1].dead);
    assert_int_equal(sv.players[1].health, 100);
    /* suicide costs a frag */
    int f1 = sv.players[1].frags;
    assert_true(sv_game_damage(1, 1, 1000, sv.players[1].origin, DMG_SUICIDE));
    assert_int_equal(sv.players[1].frags, f1 - 1);
    sv.players[1].time += 2;
    command(1, 0, 0);
    command(1, 0, QW_BUTTON_ATTACK);
    assert_false(sv.players[1].dead);
}

static void test_rocket_explodes_in_u(void **state)
{
    (void)state;
    place(0, 0, 0);
    place(1, 300, 0);
    sv_player *p = &sv.players[0];
    p->items |= IT_ROCKET_LAUNCHER;
    p->weapon = IT_ROCKET_LAUNCHER;
    p->rockets = 5;
    sv.time += 5;
    p->attack_finished = 0;
    command(0, 0, QW_BUTTON_ATTACK);
    assert_int_equal(p->rockets, 4);
    int rocket = -1;
    for (int n = SV_FIRST_NONPLAYER; n < sv.num_entities; n++)
        if (sv.entities[n].kind == ENT_ROCKET)
            rocket = n;
    assert_true(rocket > 0);
    int health_before = sv.players[1].health;
    for (int step = 0; step < 40 && sv.entities[rocket].kind == ENT_ROCKET; step++) {
        sv.time += 0.02;
        sv_game_physics(0.02);
    }
    assert_int_equal(sv.entities[rocket].kind, ENT_FREE);
    assert_true(sv.players[1].dead || sv.players[1].health < health_before);
}

static void test_item_pickup_and_respawn(void **state)
{
    (void)state;
    sv_entity *item = NULL;
    for (int n = SV_FIRST_NONPLAYER; n < sv.num_entities && !item; n++)
        if (sv.entities[n].kind == ENT_ITEM && sv.entities[n].visible)
            item = &sv.entities[n];
    assert_non_null(item);
    sv_player *p = &sv.players[0];
    if (p->dead) {
        p->time += 2;
        command(0, 0, 0);
        command(0, 0, QW_BUTTON_ATTACK);
    }
    /* make every kind of item worth taking */
    p->health = 10;
    p->armor = 0;
    p->armortype = 0;
    p->shells = 0;
    p->rockets = 0;
    place(0, item->origin[0] + (item->mins[0] + item->maxs[0]) / 2,
          item->origin[1] + (item->mins[1] + item->maxs[1]) / 2);
    command(0, 0, 0);
    assert_false(item->visible);
    assert_int_equal(item->modelindex, 0);
    assert_true(p->health > 10 || p->armor > 0 || p->shells > 0 || p->rockets > 0);
    double back = item->respawn_time;
    sv.time = back - 1;
    sv_game_physics(0.02);
    assert_false(item->visible);
    sv.time = back + 0.01;
    sv_game_physics(0.02);
    assert_true(item->visible);
    assert_true(item->modelindex > 0);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_game BASEDIR (with id1/maps/arena.bsp)\n");
        return 2;
    }
    basedir = argv[1];
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shotgun_hits),
        cmocka_unit_test(test_refire_on_player_clock),
        cmocka_unit_test(test_kill_frags_and_respawn),
        cmocka_unit_test(test_rocket_explodes_in_u),
        cmocka_unit_test(test_item_pickup_and_respawn),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
