/* CMocka test of teleporters on a map that has them (argv[1] = basedir, argv[2] = map,
 * e.g. ../shared/quake lqdm2): touching a trigger_teleport moves the player to its
 * destination (27 units up, facing its direction) and telefrags whoever stands there.
 * With argv[3] = N (a qwmapgen map made with --teleporters N): the map has N teleporters, each
 * trigger the 64-unit pad qwmapgen wrote as a brush model, and a player who walks onto any
 * pad from the floor beside it is sent to that pad's destination. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "game_world.h"

static const char *basedir, *mapname;
static int generated_pads = -1;   /* argv[3]: a qwmapgen map's --teleporters */

/* The map, loaded once for both tests (the loader runs once per server start or map
 * change, which clears the world first). */
static int load_world(void **state)
{
    (void)state;
    return game_world_load(basedir, mapname) ? 0 : -1;
}

static void test_teleport(void **state)
{
    (void)state;
    sv_entity *t = NULL;
    for (int n = SV_FIRST_NONPLAYER; n < sv.num_entities && !t; n++)
        if (sv.entities[n].kind == ENT_TELEPORT)
            t = &sv.entities[n];
    assert_non_null(t);
    /* player 1 waits at the destination */
    sv_player *victim = &sv.players[1];
    place_at(1, t->dest_origin[0], t->dest_origin[1], t->dest_origin[2]);
    /* player 0 steps into the trigger */
    sv_player *p = &sv.players[0];
    place_at(0, (t->mins[0] + t->maxs[0]) / 2, (t->mins[1] + t->maxs[1]) / 2,
             (t->mins[2] + t->maxs[2]) / 2);
    qw_usercmd cmd = {.msec = 0};
    assert_true(cs_run_command(0, &cmd));
    assert_true(p->origin[0] == t->dest_origin[0] && p->origin[1] == t->dest_origin[1]);
    assert_true(p->setangle);
    assert_true(victim->dead);
    assert_int_equal(p->frags, 1);
}

/* qwmapgen's pads: brush models *1..*N of 64 x 64 x 64 on the floor (z = 0). Walking onto
 * each one from 48 units west of it, on the floor, ends at its destination. */
static void test_generated_pads(void **state)
{
    (void)state;
    if (generated_pads < 0)
        skip();
    if (sv.players[1].dead)   /* telefragged by test_teleport */
        assert_true(cs_spawn(1));
    int pads = 0;
    sv_player *p = &sv.players[0];
    for (int n = SV_FIRST_NONPLAYER; n < sv.num_entities; n++) {
        const sv_entity *t = &sv.entities[n];
        if (t->kind != ENT_TELEPORT)
            continue;
        pads++;
        for (int i = 0; i < 3; i++)
            assert_float_equal(t->maxs[i] - t->mins[i], 64, 0.01);
        assert_float_equal(t->mins[2], 0, 0.01);
        /* the destination is not on the pad */
        assert_true(t->dest_origin[0] < t->mins[0] || t->dest_origin[0] > t->maxs[0] ||
                    t->dest_origin[1] < t->mins[1] || t->dest_origin[1] > t->maxs[1]);
        /* player 1 high above the destination, out of the way (no telefrag); player 0
         * standing west of the pad */
        place_at(1, t->dest_origin[0], t->dest_origin[1], 200);
        place_at(0, t->mins[0] - 48, (t->mins[1] + t->maxs[1]) / 2, 24);
        p->onground = 1;
        bool sent = false;
        for (int step = 0; step < 40 && !sent; step++) {
            qw_usercmd cmd = {.msec = 20, .angles = {0, 0, 0}, .forwardmove = 400};
            assert_true(cs_run_command(0, &cmd));
            sent = p->origin[0] == t->dest_origin[0] && p->origin[1] == t->dest_origin[1];
        }
        if (!sent)
            fail_msg("pad %d (%g,%g..%g,%g): the player walked to %g,%g, never teleported", pads,
                     t->mins[0], t->mins[1], t->maxs[0], t->maxs[1], p->origin[0], p->origin[1]);
        assert_false(sv.players[1].dead);
    }
    assert_int_equal(pads, generated_pads);
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: test_teleport BASEDIR MAP [PADS]\n");
        return 2;
    }
    basedir = argv[1];
    mapname = argv[2];
    if (argc > 3)
        generated_pads = atoi(argv[3]);
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_teleport),
                                       cmocka_unit_test(test_generated_pads)};
    return cmocka_run_group_tests(tests, load_world, NULL);
}
