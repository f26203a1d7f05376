/* CMocka test of doors, plats, buttons and targets on a real map (argv[1] = basedir holding
 * id1/maps/e1m2.bsp: in deathmatch 11 doors, 3 plats, 3 buttons): a player stepping on a plat
 * (a move command, in a transaction) raises it and rides it up; the plat comes down when
 * left; a pair of sliding doors opens when its field is touched and closes after its wait;
 * closing on a player standing between them, they hurt it and open again; a button fires
 * its targets. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "game_world.h"

static const char *basedir;

/* U for `seconds`, 20 ms at a time; stops early when done(e) holds. */
static void run_u(double seconds, const sv_entity *e, int state)
{
    for (int i = 0; i < (int)(seconds * 50); i++) {
        if (e && e->move_state == state)
            return;
        sv.framenum++;
        sv_events_begin_frame();
        sv.time += 0.02;
        sv_game->physics(0.02);
    }
}

static void away(int slot)
{
    place_at(slot, sv.spawnpoints[0].origin[0], sv.spawnpoints[0].origin[1],
          sv.spawnpoints[0].origin[2] + 1);
}

static int setup(void **state)
{
    (void)state;
    return game_world_load(basedir, "e1m2") ? 0 : -1;
}

static int count_kind(sv_entity_kind kind)
{
    int n = 0;
    for (int i = SV_FIRST_NONPLAYER; i < sv.num_entities; i++)
        n += sv.entities[i].kind == kind;
    return n;
}

static void test_spawned(void **state)
{
    (void)state;
    printf("doors %d, plats %d, buttons %d, triggers %d, relays %d\n", count_kind(ENT_DOOR),
           count_kind(ENT_PLAT), count_kind(ENT_BUTTON), count_kind(ENT_TRIGGER),
           count_kind(ENT_RELAY));
    /* those of them that deathmatch keeps (spawnflags 2048 = not in deathmatch) */
    assert_true(count_kind(ENT_DOOR) >= 10);
    assert_int_equal(count_kind(ENT_PLAT), 3);
    assert_int_equal(count_kind(ENT_BUTTON), 3);
}

static void test_plat_carries_its_rider(void **state)
{
    (void)state;
    sv_entity *plat = NULL;
    for (int i = SV_FIRST_NONPLAYER; i < sv.num_entities && !plat; i++)
        if (sv.entities[i].kind == ENT_PLAT && sv.entities[i].move_state == MOVER_AT_POS2)
            plat = &sv.entities[i];
    assert_non_null(plat);
    float top = plat->link.absmax[2] - 1; /* absmax is widened by 1 */
    float x = (plat->link.absmin[0] + plat->link.absmax[0]) / 2;
    float y = (plat->link.absmin[1] + plat->link.absmax[1]) / 2;
    place_at(0, x, y, top + 24.5f);
    float z0 = sv.players[0].origin[2];
    qw_usercmd cmd = {.msec = 13};
    assert_true(cs_run_command(0, &cmd)); /* standing on it touches its field */
    run_u(10, plat, MOVER_AT_POS1);
    assert_int_equal(plat->move_state, MOVER_AT_POS1);
    float rise = plat->pos1[2] - plat->pos2[2];
    printf("plat %d rose %.1f units, its rider %.1f\n", plat->number, rise,
           sv.players[0].origin[2] - z0);
    assert_true(sv.players[0].origin[2] - z0 > rise - 2);
    /* left alone it goes down again after its wait */
    away(0);
    run_u(10, plat, MOVER_AT_POS2);
    assert_int_equal(plat->move_state, MOVER_AT_POS2);
}

/* The trigger field of a door's group. */
static sv_entity *field_of(const sv_entity *door)
{
    for (int i = SV_FIRST_NONPLAYER; i < sv.num_entities; i++)
        if (sv.entities[i].kind == ENT_TRIGGER && sv.entities[i].activates == door->group)
            return &sv.entities[i];
    return NULL;
}

static void test_door_opens_closes_and_is_blocked(void **state)
{
    (void)state;
    /* a pair: two doors of one group, with a field */
    sv_entity *door = NULL, *other = NULL;
    for (int i = SV_FIRST_NONPLAYER; i < sv.num_entities && !other; i++) {
        sv_entity *d = &sv.entities[i];
        if (d->kind != ENT_DOOR || d->group != d->number || !field_of(d))
            continue;
        for (int k = i + 1; k < sv.num_entities; k++)
            if (sv.entities[k].kind == ENT_DOOR && sv.entities[k].group == d->number) {
                door = d;
                other = &sv.entities[k];
                break;
            }
    }
    assert_non_null(other);
    sv_entity *field = field_of(door);
    /* e1m2's doors stay open once opened (wait -1): give this pair a wait, to see it close */
    door->wait = other->wait = 1;
    /* where they meet when shut: the middle of both boxes, on the floor below them */
    float mid[3];
    for (int i = 0; i < 3; i++)
        mid[i] = (door->link.absmin[i] + door->link.absmax[i] + other->link.absmin[i] +
                  other->link.absmax[i]) / 4;
    float floor_z = door->link.absmin[2] + 1;
    away(0);
    away(1);
    field->activated = true; /* as a move command touching it does (see the plat) */
    run_u(10, door, MOVER_AT_POS2);
    assert_int_equal(door->move_state, MOVER_AT_POS2);
    assert_int_equal(other->move_state, MOVER_AT_POS2);
    /* they close by themselves after their wait */
    run_u(door->wait + 10, door, MOVER_AT_POS1);
    assert_int_equal(door->move_state, MOVER_AT_POS1);

    /* open again, and stand between them as they close */
    field->activated = true;
    run_u(10, door, MOVER_AT_POS2);
    place_at(1, mid[0], mid[1], floor_z + 24.5f);
    sv.players[1].health = 100;
    int health = 100;
    for (int t = 0; t < 50 * (int)(door->wait + 10) && health == 100; t++) {
        run_u(0.02, NULL, 0);
        health = sv.players[1].health;
    }
    printf("doors %d and %d on player1: health %d, states %d %d\n", door->number, other->number,
           health, door->move_state, other->move_state);
    assert_true(health < 100);
    run_u(0.1, NULL, 0);
    assert_true(door->move_state == MOVER_TO_POS2 || other->move_state == MOVER_TO_POS2);
}

static void test_button_fires_its_targets(void **state)
{
    (void)state;
    sv_entity *button = NULL, *target_door = NULL;
    for (int i = SV_FIRST_NONPLAYER; i < sv.num_entities && !target_door; i++) {
        sv_entity *b = &sv.entities[i];
        if (b->kind != ENT_BUTTON || !b->target)
            continue;
        for (int k = SV_FIRST_NONPLAYER; k < sv.num_entities; k++)
            if (sv.entities[k].kind == ENT_DOOR && sv.entities[k].targetname == b->target &&
                sv.entities[k].move_state == MOVER_AT_POS1) {
                button = b;
                target_door = &sv.entities[k];
                break;
            }
    }
    if (!target_door) {
        skip(); /* no button here names a door directly (it may go through relays) */
        return;
    }
    for (int i = SV_FIRST_NONPLAYER; i < sv.num_entities; i++)
        if (sv.entities[i].kind == ENT_TRIGGER && sv.entities[i].activates == button->number)
            sv.entities[i].activated = true;
    run_u(10, target_door, MOVER_AT_POS2);
    assert_int_equal(button->move_state == MOVER_AT_POS2 || button->move_state == MOVER_TO_POS1,
                     true);
    assert_int_equal(target_door->move_state, MOVER_AT_POS2);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_movers BASEDIR (with id1/maps/e1m2.bsp)\n");
        return 2;
    }
    basedir = argv[1];
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_spawned),
        cmocka_unit_test(test_plat_carries_its_rider),
        cmocka_unit_test(test_door_opens_closes_and_is_blocked),
        cmocka_unit_test(test_button_fires_its_targets),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
