/* What the game tests share (test_game.c, test_teleport.c, test_movers.c, test_events.c,
 * test_jobs.c): the server's globals, a map loaded with two players in it, and the game code
 * run the way the server runs it, inside its critical section -- here as a transaction
 * (-sync stm), so the tests cover the instrumented paths and rollbacks. Included once per test
 * program. */
#ifndef SV_TEST_GAME_WORLD_H
#define SV_TEST_GAME_WORLD_H

#include <stdio.h>
#include <string.h>

#include "cgame/cgame.h"
#include "game/game.h"
#include "map.h"
#include "net/events.h"
#include "server.h"
#include "stats/counters.h"

sv_server sv;
const struct sv_game *sv_game = &sv_cgame; /* test_qcgame chooses QuakeC */
__thread int sv_thread_index;
double sv_clock(void) { return 0; }

/* Loads basedir/id1/maps/map.bsp and spawns players 0 and 1 (named player0, player1) under
 * -sync stm; false (with the reason on stderr) when the map does not load. */
static __attribute__((unused)) bool game_world_load(const char *basedir, const char *map)
{
    sv.opt.maxclients = 4;
    sv.opt.threads = 1;
    sv.opt.basedir = basedir;
    sv_sync_init(SYNC_STM);
    sv_stats_init(1);
    sv_map_init_players();
    char err[512];
    if (!sv_map_load(basedir, map, err, sizeof err)) {
        fprintf(stderr, "%s\n", err);
        return false;
    }
    sv_events_begin_frame();
    for (int i = 0; i < 2; i++) {
        sv_client *cl = &sv.clients[i];
        cl->slot = i;
        cl->state = CL_SPAWNED;
        snprintf(cl->name, sizeof cl->name, "player%d", i);
        qw_netchan_init(&cl->netchan, false, i);
        sv.time = 1;
        if (!sv_game->spawn_player(i))
            return false;
    }
    return true;
}

/* Kept out of line: a transaction begins like setjmp, and a caller's locals would be
 * clobbered. */
static __attribute__((noinline, unused)) bool cs_run_command(int slot, const qw_usercmd *cmd)
{
    bool ok;
    CRITICAL_SECTION_CANCELLABLE(CS_MOVE_COMMAND, ok, sv_game->run_command(&sv.clients[slot], cmd));
    return ok;
}

static __attribute__((noinline, unused)) bool cs_spawn(int slot)
{
    bool ok;
    CRITICAL_SECTION_CANCELLABLE(CS_SPAWN_PLAYER, ok, sv_game->spawn_player(slot));
    return ok;
}

/* Puts a player at (x, y, z), standing still. */
/* Whether a client's reliable queue holds this byte sequence. */
static __attribute__((unused)) bool game_world_queued(int slot, const void *msg, size_t len)
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

static __attribute__((unused)) void place_at(int slot, float x, float y, float z)
{
    sv_player *p = &sv.players[slot];
    p->origin[0] = x;
    p->origin[1] = y;
    p->origin[2] = z;
    memset(p->velocity, 0, sizeof p->velocity);
    qw_area_relink_object(&sv.area, &p->link, p->origin);
}

#endif
