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

#include "server.h"
#include "sv_events.h"
#include "sv_game.h"
#include "sv_map.h"
#include "sv_stats.h"

sv_server sv;
__thread int sv_thread_index;
double sv_clock(void) { return 0; }

/* The game code runs as in the server: each call inside its critical section, here as a
 * transaction (-sync stm), so the test covers the instrumented paths and rollbacks. Kept out
 * of line: a transaction begins like setjmp, and a caller's locals would be clobbered. */
static __attribute__((noinline)) bool cs_run_command(int slot, const qw_usercmd *cmd)
{
    bool ok;
    CRITICAL_SECTION_CANCELLABLE(CS_MOVE_COMMAND, ok, sv_game_run_command(&sv.clients[slot], cmd));
    return ok;
}

static __attribute__((noinline)) bool cs_spawn(int slot)
{
    bool ok;
    CRITICAL_SECTION_CANCELLABLE(CS_SPAWN_PLAYER, ok, sv_game_spawn_player(slot));
    return ok;
}

static const char *basedir, *mapname;

static void test_teleport(void **state)
{
    (void)state;
    sv.opt.maxclients = 4;
    sv.opt.threads = 1;
    sv_sync_init(SYNC_STM);
    sv_game_init_players();
    char err[512];
    if (!sv_map_load(basedir, mapname, err, sizeof err))
        fail_msg("%s", err);
    sv_events_begin_frame();
    sv_entity *t = NULL;
    for (int n = SV_FIRST_NONPLAYER; n < sv.num_entities && !t; n++)
        if (sv.entities[n].kind == ENT_TELEPORT)
            t = &sv.entities[n];
    assert_non_null(t);
    for (int i = 0; i < 2; i++) {
        sv.clients[i].slot = i;
        sv.clients[i].state = CL_SPAWNED;
        snprintf(sv.clients[i].name, sizeof sv.clients[i].name, "p%d", i);
        qw_netchan_init(&sv.clients[i].netchan, false, i);
        assert_true(cs_spawn(i));
    }
    /* player 1 waits at the destination */
    sv_player *victim = &sv.players[1];
    memcpy(victim->origin, t->dest_origin, sizeof victim->origin);
    qw_area_relink_object(&sv.area, &victim->link, victim->origin);
    /* player 0 steps into the trigger */
    sv_player *p = &sv.players[0];
    for (int k = 0; k < 3; k++)
        p->origin[k] = (t->mins[k] + t->maxs[k]) / 2;
    qw_area_relink_object(&sv.area, &p->link, p->origin);
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
