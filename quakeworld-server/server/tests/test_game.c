/* CMocka test of the game logic on a generated open arena (argv[1] = basedir holding
 * id1/maps/arena.bsp, with a lava pool at x, y 360..480, -480..-360, slime at 360..480,
 * 360..480 and water at -480..-300, 360..480, see test-game.sh): shotgun hits, kills and
 * frags (with their svc_updatefrags), respawn on a fresh button press, rockets flying in U
 * and exploding, item pickup and respawn, lava, slime and drowning.
 * Refire and respawn delays run on each player's own clock (the sum of its commands'
 * durations): the tests advance it by hand. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "game_world.h"
#include "net/client_commands.h"
#include "net/reliable.h"

static const char *basedir;

static __attribute__((noinline)) bool cs_damage(int target, int attacker, int amount, sv_damage_cause cause)
{
    bool ok;
    CRITICAL_SECTION_CANCELLABLE(CS_MOVE_COMMAND, ok,
                                 sv_game_damage(target, attacker, amount,
                                                sv.players[attacker].origin, cause));
    return ok;
}

/* On the arena's floor. */
static void place(int slot, float x, float y)
{
    place_at(slot, x, y, 24.5f);
}

static void timed_command(int slot, float yaw, int buttons, int msec)
{
    qw_usercmd cmd = {.msec = (uint8_t)msec, .angles = {0, yaw, 0}, .buttons = (uint8_t)buttons};
    assert_true(cs_run_command(slot, &cmd));
}

static void command(int slot, float yaw, int buttons)
{
    timed_command(slot, yaw, buttons, 0);
}

static int setup(void **state)
{
    (void)state;
    return game_world_load(basedir, "arena") ? 0 : -1;
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
    assert_true(cs_damage(1, 0, 1000, DMG_SHOTGUN));
    assert_true(sv.players[1].dead);
    assert_int_equal(sv.players[0].frags, before + 1);
    uint8_t frags_msg[4] = {svc_updatefrags, 0, (uint8_t)(before + 1), 0};
    assert_true(game_world_queued(0, frags_msg, 4));
    assert_true(game_world_queued(1, frags_msg, 4));
    /* a dead player cannot be hurt again, and does not respawn before a second passed */
    assert_true(cs_damage(1, 0, 50, DMG_SHOTGUN));
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
    assert_true(cs_damage(1, 1, 1000, DMG_SUICIDE));
    assert_int_equal(sv.players[1].frags, f1 - 1);
    sv.players[1].time += 2;
    command(1, 0, 0);
    command(1, 0, QW_BUTTON_ATTACK);
    assert_false(sv.players[1].dead);
}

/* A kill inside a move command sends its news in a section nested in the command's, and a
 * respawn is one too (sync/critical_sections.h); when a queue overflows, the whole command with
 * its nested sections is undone. */
static void test_nested_sections(void **state)
{
    (void)state;
    place(0, 0, 0);
    place(1, 100, 0);
    sv_player *p0 = &sv.players[0], *p1 = &sv.players[1];
    const uint64_t *entries = sv_stats_thread()->cs_entries;
    uint64_t broadcasts = entries[CS_BROADCAST], spawns = entries[CS_SPAWN_PLAYER];
    p1->health = 1;
    p1->armor = 0;
    p0->attack_finished = p0->time;
    int frags = p0->frags;
    command(0, 0, QW_BUTTON_ATTACK);
    assert_true(p1->dead);
    assert_int_equal(p0->frags, frags + 1);
    assert_int_equal(entries[CS_BROADCAST], broadcasts + 1);
    p1->time += 2;
    command(1, 0, 0);
    command(1, 0, QW_BUTTON_ATTACK);
    assert_false(p1->dead);
    assert_int_equal(entries[CS_SPAWN_PLAYER], spawns + 1);

    /* the news cannot be queued for player 1: the kill is undone with it */
    place(1, 100, 0);
    p1->health = 1;
    p0->attack_finished = p0->time;
    sv_reliable *q = &sv.clients[1].reliable;
    sv_reliable saved = *q;
    q->count = SV_RELIABLE_BLOCKS;
    for (int b = 0; b < SV_RELIABLE_BLOCKS; b++)
        q->blocks[b].len = QW_MAX_MSGLEN;
    qw_usercmd cmd = {.angles = {0, 0, 0}, .buttons = QW_BUTTON_ATTACK};
    assert_false(cs_run_command(0, &cmd));
    assert_false(p1->dead);
    assert_int_equal(p1->health, 1);
    assert_int_equal(p0->frags, frags + 1);
    assert_false(q->overflowed);
    *q = saved;
}

/* A player running at another one stops at its box, however fast and long the command:
 * pmove looks only as far as the command can carry the player, and that must be far enough. */
static void run_at(float speed, int msec)
{
    sv.players[0].velocity[0] = speed;
    qw_usercmd cmd = {.msec = (uint8_t)msec, .angles = {0, 0, 0}, .forwardmove = 400};
    assert_true(cs_run_command(0, &cmd));
}

static void test_players_block_moves(void **state)
{
    (void)state;
    const struct { float speed; int msec; } runs[] = {
        {320, 13}, {320, 100}, {1500, 60}, {2000, 120}, {1000, 255}};
    for (size_t r = 0; r < sizeof runs / sizeof runs[0]; r++) {
        /* how far the command goes when nobody is in the way */
        place(1, 300, 300);
        place(0, -300, 0);
        run_at(runs[r].speed, runs[r].msec);
        float free_run = sv.players[0].origin[0] + 300;
        assert_true(free_run > 2);
        /* player 1 stands half way */
        place(0, -300, 0);
        place(1, -300 + 32 + free_run / 2, 0);
        run_at(runs[r].speed, runs[r].msec);
        float front = sv.players[0].origin[0] + 16, back = sv.players[1].origin[0] - 16;
        assert_true(front <= back + 0.1f);
        assert_true(front >= back - 1.0f);
    }
    sv.players[0].velocity[0] = 0;
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
        sv_game->physics(0.02);
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
    sv_game->physics(0.02);
    assert_false(item->visible);
    sv.time = back + 0.01;
    sv_game->physics(0.02);
    assert_true(item->visible);
    assert_true(item->modelindex > 0);
}

/* Brings player `slot` back to life with full health and no armour at (x, y). */
static void fresh_player_at(int slot, float x, float y)
{
    if (sv.players[slot].dead)
        assert_true(cs_spawn(slot));
    sv.players[slot].health = 100;
    sv.players[slot].armor = 0;
    sv.players[slot].armortype = 0;
    place(slot, x, y);
}

/* Runs still commands of 100 ms until the player died (at most `seconds`); returns the
 * seconds it took on the player's clock. */
static double seconds_until_dead(int slot, double seconds)
{
    double start = sv.players[slot].time;
    for (int i = 0; i < (int)(seconds * 10) && !sv.players[slot].dead; i++)
        timed_command(slot, 0, 0, 100);
    return sv.players[slot].time - start;
}

static void test_lava_slime_and_drowning(void **state)
{
    (void)state;
    const uint8_t burned[] = "player1 burned in lava\n", slimed[] = "player1 dissolved in slime\n",
                  drowned[] = "player1 drowned\n";
    int frags = sv.players[1].frags;

    /* lava, waist deep (level 2): 20 per 0.2 s (or a little more: 0.1 s commands), dead
     * within a second and a half */
    fresh_player_at(1, 420, -420);
    timed_command(1, 0, 0, 100);
    assert_int_equal(sv.players[1].waterlevel, 2);
    assert_int_equal(sv.players[1].watertype, QW_CONTENTS_LAVA);
    assert_true(sv.players[1].health < 100);
    double t = seconds_until_dead(1, 3);
    assert_true(sv.players[1].dead);
    assert_true(t <= 1.5);
    assert_true(game_world_queued(0, burned, sizeof burned - 1));
    assert_int_equal(sv.players[1].frags, frags - 1);

    /* slime: 8 per second at level 2, so 100 health lasts 12-13 s */
    fresh_player_at(1, 420, 420);
    t = seconds_until_dead(1, 20);
    assert_true(sv.players[1].dead);
    assert_true(t > 11.0 && t < 14.0);
    assert_true(game_world_queued(0, slimed, sizeof slimed - 1));

    /* water over the head: 12 s of air, then 4, 6, 8, ... per second */
    fresh_player_at(1, -390, 420);
    timed_command(1, 0, 0, 100);
    assert_int_equal(sv.players[1].waterlevel, 3);
    for (int i = 0; i < 115; i++)
        timed_command(1, 0, 0, 100);
    assert_int_equal(sv.players[1].health, 100); /* 11.6 s: still breathing */
    t = seconds_until_dead(1, 30);
    assert_true(sv.players[1].dead);
    assert_true(game_world_queued(0, drowned, sizeof drowned - 1));

    /* dry land again: no harm */
    fresh_player_at(1, 0, -200);
    for (int i = 0; i < 30; i++)
        timed_command(1, 0, 0, 100);
    assert_int_equal(sv.players[1].health, 100);
}

static __attribute__((noinline)) void cs_spawn_spectator(int slot)
{
    CRITICAL_SECTION(CS_SPAWN_PLAYER, sv_game->spawn_spectator(slot););
}

/* A spectator flies through the walls, is in no areanode list, and takes no damage. */
static void test_spectator(void **state)
{
    (void)state;
    sv_client *cl = &sv.clients[2];
    cl->slot = 2;
    cl->state = CL_SPAWNED;
    cl->spectator = true;
    snprintf(cl->name, sizeof cl->name, "watcher");
    cs_spawn_spectator(2);
    sv_player *s = &sv.players[2];
    assert_true(s->spectator);
    assert_false(s->active);
    s->origin[0] = 400;
    s->origin[1] = 0;
    s->origin[2] = 100;
    for (int i = 0; i < 40; i++) {
        qw_usercmd cmd = {.msec = 50, .angles = {0, 0, 0}, .forwardmove = 500};
        assert_true(cs_run_command(2, &cmd));
    }
    /* 2 s at 500 units/s from x = 400: far beyond the wall at x = 512 */
    assert_true(s->origin[0] > 600);
    qw_area_object *found[8];
    float lo[3] = {-4096, -4096, -4096}, hi[3] = {4096, 4096, 4096};
    int n = qw_area_query_box(&sv.area, lo, hi, QW_SOLID_BBOX, found, 8);
    for (int i = 0; i < n && i < 8; i++)
        assert_true(found[i] != &s->link);
    assert_true(cs_damage(2, 0, 1000, DMG_SHOTGUN));
    assert_false(s->dead);
    cl->spectator = false;
    cl->state = CL_FREE;
    sv_game->remove_player(2);
}

/* The string commands' table: each runs only when its client may send it. */
static void test_string_commands_when(void **state)
{
    (void)state;
    sv_client *cl = &sv.clients[1];
    sv_player *p = &sv.players[1];
    assert_false(p->dead);
    int frags = p->frags;
    /* before "begin" (and as a spectator) a client cannot kill itself */
    cl->state = CL_CONNECTED;
    sv_execute_stringcmd(cl, "kill");
    assert_false(p->dead);
    assert_int_equal(p->frags, frags);
    /* signing on to another map than this one starts the sign-on again */
    sv_reliable_clear(cl);
    char stale[32];
    snprintf(stale, sizeof stale, "prespawn %d 0", sv.spawncount + 1);
    sv_execute_stringcmd(cl, stale);
    static const uint8_t again[] = {svc_stufftext, 'c', 'm', 'd', ' ', 'n', 'e', 'w', '\n', 0};
    assert_true(game_world_queued(1, again, sizeof again));
    /* in the game, the sign-on's commands are ignored and "kill" costs a frag */
    cl->state = CL_SPAWNED;
    sv_reliable_clear(cl);
    sv_execute_stringcmd(cl, stale);
    assert_int_equal(cl->reliable.count, 0);
    cl->spectator = true;
    sv_execute_stringcmd(cl, "kill");
    assert_false(p->dead);
    cl->spectator = false;
    sv_execute_stringcmd(cl, "kill");
    assert_true(p->dead);
    assert_int_equal(p->frags, frags - 1);
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
        cmocka_unit_test(test_nested_sections),
        cmocka_unit_test(test_players_block_moves),
        cmocka_unit_test(test_rocket_explodes_in_u),
        cmocka_unit_test(test_item_pickup_and_respawn),
        cmocka_unit_test(test_lava_slime_and_drowning),
        cmocka_unit_test(test_spectator),
        cmocka_unit_test(test_string_commands_when),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
