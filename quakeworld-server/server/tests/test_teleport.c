/* CMocka test of teleporters on a map that has them (argv[1] = basedir, argv[2] = map,
 * e.g. ../shared/quake lqdm2): touching a trigger_teleport moves the player to its
 * destination (27 units up, facing its direction) and telefrags whoever stands there. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "game_world.h"

static const char *basedir, *mapname;

static void test_teleport(void **state)
{
    (void)state;
    assert_true(game_world_load(basedir, mapname));
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

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: test_teleport BASEDIR MAP\n");
        return 2;
    }
    basedir = argv[1];
    mapname = argv[2];
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_teleport)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
