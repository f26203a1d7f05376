/* qwsv: a QuakeWorld (protocol 28) deathmatch server with the Atomic Quake frame and a
 * switch between lock-based and transactional synchronisation. This file starts it in order
 * (cvars, the command line, the modes, the admin's start-up, the socket) and runs frames. */
#include <stdio.h>
#include <time.h>

#include "admin/admin.h"
#include "admin/cvar.h"
#include "admin/game_services.h"
#include "cgame/cgame.h"
#include "clock.h"
#include "frame.h"
#include "game/game.h"
#include "log.h"
#include "map.h"
#include "net/replay.h"
#include "net/scoreboard.h"
#include "net/socket.h"
#include "options.h"
#include "qcgame/qcgame.h"
#include "sched/sched.h"
#include "server.h"
#include "stats/counters.h"
#include "stats/frame_stats.h"
#include "sync/region.h"

sv_server sv;
const struct sv_game *sv_game = &sv_cgame;
__thread int sv_thread_index;

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    sv_clock();
    sv_cvar_init();
    if (!sv_options_parse(argc, argv, &sv.opt))
        return 2;
    sv_sync_init(sv.opt.sync);
    sv_sched_init(sv.opt.sched, sv.opt.job_weight);
    sv_stats_init(sv.opt.threads);
    sv.challenge_seed = (unsigned)time(NULL) ^ (unsigned)sv.opt.port;
    sv_map_init_players();
    /* both games send a player's changed frags themselves: the C game inside the kill's
     * section (game/combat.c), QuakeWorld's game in U (qcgame/world_frame.c) */
    sv_scoreboard_game_announces_frags(true);

    char err[1024];
    /* the game, chosen once: QuakeC when a progs file is found, else the C deathmatch */
    if (sv_qcgame_choose(sv.opt.basedir, sv.opt.game, sv.opt.progs, &sv_admin_game_services,
                         err, sizeof err))
        sv_game = &sv_qcgame;
    if (err[0]) {
        fprintf(stderr, "qwsv: %s\n", err);
        return 1;
    }
    if (sv.opt.replay && !sv_replay_load(err, sizeof err)) {
        fprintf(stderr, "qwsv: %s\n", err);
        return 1;
    }
    if (!sv_admin_start(err, sizeof err) || (sv.opt.replay && !sv_replay_start(err, sizeof err))) {
        fprintf(stderr, "qwsv: %s\n", err);
        return 1;
    }
    if (sv.opt.sync == SYNC_REGION)
        sv_region_init();
    if (sv.opt.frame_csv && !sv_frame_stats_open_csv(sv.opt.frame_csv, err, sizeof err)) {
        fprintf(stderr, "qwsv: %s\n", err);
        return 1;
    }
    sv.sock = sv_net_open(sv.opt.ip, sv.opt.port, err, sizeof err);
    if (sv.sock < 0) {
        fprintf(stderr, "qwsv: %s\n", err);
        return 1;
    }
    sv_log("qwsv listening on %s:%d, map %s, game %s, %d thread(s), sync %s, sched %s%s",
           sv.opt.ip ? sv.opt.ip : "*", sv.opt.port, sv.opt.map,
           sv_game->name, sv.opt.threads,
           sv_sync_name(sv.opt.sync), sv_sched_name(sv.opt.sched),
           sv.opt.waitall ? ", waitall" : "");
    sv_frame_run();
    if (sv_game == &sv_qcgame)
        sv_qcgame_report_functions(sv.opt.qc_functions);
    sv_log("qwsv stopped");
    return 0;
}
