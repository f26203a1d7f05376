/* qwsv: a QuakeWorld (protocol 28) deathmatch server with the Atomic Quake frame and a
 * switch between lock-based and transactional synchronisation. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "admin/admin.h"
#include "admin/command_line.h"
#include "admin/cvar.h"
#include "clock.h"
#include "frame.h"
#include "game/game.h"
#include "log.h"
#include "map.h"
#include "net/socket.h"
#include "sched/sched.h"
#include "server.h"
#include "stats/counters.h"
#include "stats/frame_stats.h"
#include "sync/region.h"
#include "version.h"

sv_server sv;
__thread int sv_thread_index;

static void usage(FILE *out)
{
    fprintf(out,
"usage: qwsv -basedir DIR -map NAME [options] [+set NAME VALUE] [+map NAME] [+exec FILE] ...\n"
"A QuakeWorld protocol 28 deathmatch server (the Atomic Quake frame: U, RP, S).\n"
"\n"
"  -basedir DIR      directory holding id1/maps/NAME.bsp (e.g. ../shared/quake or a\n"
"                    directory made by qwmapgen); DIR/protocol/chktbl.bin, if present,\n"
"                    enables the clc_move checksum check (or set QW_CHKTBL=FILE)\n"
"  -map NAME         map to run (crateprefab_dm, lqdm2, ...)\n"
"  -port N           UDP port (default 27500)\n"
"  -ip ADDR          address to bind (default: all; use 127.0.0.1 for local tests)\n"
"  -threads N        threads serving clients, master included (1..%d, default 1)\n"
"  -sync MODE        lock | region | stm | stmlock | none (default lock; none needs\n"
"                    -threads 1 or -sched lpt): one global lock, the areanode region\n"
"                    locks, transactions, transactions under the global lock, or nothing\n"
"  -sched MODE       static | lpt (default static): clients bound to a worker when they\n"
"                    connect, or each frame's clients grouped into jobs of clients that\n"
"                    may affect each other, given to the workers longest job first\n"
"  -jobweight W      clients | cost (default clients): a job's weight for -sched lpt, its\n"
"                    clients with packets or their measured processing time\n"
"  -framecsv FILE    write one CSV row per frame (jobs, weights, messages, the time every\n"
"                    worker was busy); see stats/frame_stats.c\n"
"  -maxclients N     player slots (1..%d, default 16; slots from 32 on only for clients\n"
"                    that say \"bigslots 1\" in their userinfo, such as qwbot)\n"
"  -stats SECONDS    print statistics every SECONDS (and always on exit)\n"
"  -waitall          start each frame's request processing only when every client has\n"
"                    sent a packet (or after 1 s)\n"
"  -quitafter S      stop the server after S seconds (0 = run until SIGINT/SIGTERM or\n"
"                    quit; before version 1.1 this was -timelimit)\n"
"  -clienttimeout S  drop clients silent for S seconds (default 30)\n"
"  -timelimit MIN    the same as +set timelimit MIN: a match lasts MIN minutes\n"
"  -fraglimit N      the same as +set fraglimit N: a match ends at N frags\n"
"  -logfile FILE     append the log to FILE too, with wall-clock timestamps\n"
"  --version         print the version\n"
"  --help            this text\n"
"\n"
"Console commands (also in DIR/id1/server.cfg, run first, on stdin and over rcon):\n"
"  +set NAME VALUE   set a cvar: hostname, maxclients, timelimit (minutes), fraglimit,\n"
"                    rcon_password, sv_gamedir, sv_maplist (the rotation), ...\n"
"  +map NAME         the map to run (like -map)\n"
"  +exec FILE        run the commands of DIR/id1/FILE\n"
"  +COMMAND ARGS     any console command; they run in order after server.cfg\n"
"  (cmdlist and cvarlist list them all; see the server's README for admins)\n"
"\n"
"Statistics lines start with \"qwsv-stats\" and are key=value pairs (see stats/print.c).\n",
            SV_MAX_THREADS, SV_MAX_CLIENTS);
}

static bool parse_int(const char *opt, const char *v, int lo, int hi, int *out)
{
    char *end;
    long x = v ? strtol(v, &end, 10) : 0;
    if (!v || *end || x < lo || x > hi) {
        fprintf(stderr, "qwsv: %s needs a number from %d to %d (got %s)\n", opt, lo, hi,
                v ? v : "nothing");
        return false;
    }
    *out = (int)x;
    return true;
}

/* An option's value: false, with a message saying what it needs, when there is none. */
static bool need_value(const char *opt, const char *v, const char *what)
{
    if (!v)
        fprintf(stderr, "qwsv: %s needs %s\n", opt, what);
    return v != NULL;
}

static bool parse_seconds(const char *opt, const char *v, double *out)
{
    char *end;
    double x = v ? strtod(v, &end) : -1;
    if (!v || *end || x < 0) {
        fprintf(stderr, "qwsv: %s needs a number of seconds >= 0 (got %s)\n", opt,
                v ? v : "nothing");
        return false;
    }
    *out = x;
    return true;
}

static int parse_args(int argc, char **argv, sv_options *o)
{
    o->port = QW_PORT_SERVER;
    o->threads = 1;
    o->sync = SYNC_LOCK;
    o->maxclients = 16;
    o->client_timeout = SV_TIMEOUT;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--help") || !strcmp(a, "-h") || !strcmp(a, "-help")) {
            usage(stdout);
            exit(0);
        } else if (!strcmp(a, "--version") || !strcmp(a, "-version")) {
            printf("qwsv %s (QuakeWorld protocol %d; sync modes lock, region%s)\n", SV_VERSION,
                   QW_PROTOCOL_VERSION, SV_HAVE_TM ? ", stm, stmlock (libitm ABI)" : "");
            exit(0);
        } else if (a[0] == '+') {
            i = sv_cmdline_plus(argc, argv, i);
        } else if (!strcmp(a, "-port")) {
            if (!parse_int(a, v, 1, 65535, &o->port))
                return -1;
            i++;
        } else if (!strcmp(a, "-ip")) {
            if (!need_value(a, v, "an address"))
                return -1;
            o->ip = v;
            i++;
        } else if (!strcmp(a, "-basedir")) {
            if (!need_value(a, v, "a directory"))
                return -1;
            o->basedir = v;
            i++;
        } else if (!strcmp(a, "-map")) {
            if (!need_value(a, v, "a map name"))
                return -1;
            sv_cmdline_add("map", v);
            i++;
        } else if (!strcmp(a, "-threads")) {
            if (!parse_int(a, v, 1, SV_MAX_THREADS, &o->threads))
                return -1;
            i++;
        } else if (!strcmp(a, "-maxclients")) {
            if (!parse_int(a, v, 1, SV_MAX_CLIENTS, &o->maxclients))
                return -1;
            sv_cmdline_add("maxclients", v);
            i++;
        } else if (!strcmp(a, "-fraglimit")) {
            if (!parse_int(a, v, 0, 100000, &o->fraglimit))
                return -1;
            sv_cmdline_add("fraglimit", v);
            i++;
        } else if (!strcmp(a, "-stats")) {
            if (!parse_seconds(a, v, &o->stats_interval))
                return -1;
            i++;
        } else if (!strcmp(a, "-clienttimeout")) {
            if (!parse_seconds(a, v, &o->client_timeout))
                return -1;
            i++;
        } else if (!strcmp(a, "-quitafter")) {
            if (!parse_seconds(a, v, &o->quit_after))
                return -1;
            i++;
        } else if (!strcmp(a, "-timelimit")) {
            if (!need_value(a, v, "a number of minutes"))
                return -1;
            sv_cmdline_add("timelimit", v); /* checked as the cvar */
            i++;
        } else if (!strcmp(a, "-logfile")) {
            if (!need_value(a, v, "a file name"))
                return -1;
            o->logfile = v;
            i++;
        } else if (!strcmp(a, "-waitall")) {
            o->waitall = true;
        } else if (!strcmp(a, "-sched")) {
            if (v && !strcmp(v, "static"))
                o->sched = SCHED_STATIC;
            else if (v && !strcmp(v, "lpt"))
                o->sched = SCHED_LPT;
            else {
                fprintf(stderr, "qwsv: -sched must be static or lpt (got %s)\n", v ? v : "nothing");
                return -1;
            }
            i++;
        } else if (!strcmp(a, "-jobweight")) {
            if (v && !strcmp(v, "clients"))
                o->job_weight = JOB_WEIGHT_CLIENTS;
            else if (v && !strcmp(v, "cost"))
                o->job_weight = JOB_WEIGHT_COST;
            else {
                fprintf(stderr, "qwsv: -jobweight must be clients or cost (got %s)\n",
                        v ? v : "nothing");
                return -1;
            }
            i++;
        } else if (!strcmp(a, "-framecsv")) {
            if (!need_value(a, v, "a file name"))
                return -1;
            o->frame_csv = v;
            i++;
        } else if (!strcmp(a, "-sync")) {
            if (v && !strcmp(v, "lock"))
                o->sync = SYNC_LOCK;
            else if (v && !strcmp(v, "stm"))
                o->sync = SYNC_STM;
            else if (v && !strcmp(v, "stmlock"))
                o->sync = SYNC_STMLOCK;
            else if (v && !strcmp(v, "region"))
                o->sync = SYNC_REGION;
            else if (v && !strcmp(v, "none"))
                o->sync = SYNC_NONE;
            else {
                fprintf(stderr, "qwsv: -sync must be lock, region, stm, stmlock or none (got %s)\n",
                        v ? v : "nothing");
                return -1;
            }
            i++;
        } else {
            fprintf(stderr, "qwsv: unknown option %s (see qwsv --help)\n", a);
            return -1;
        }
    }
    if (!o->basedir) {
        fprintf(stderr, "qwsv: -basedir is required (see qwsv --help)\n");
        return -1;
    }
    if (!SV_HAVE_TM && (o->sync == SYNC_STM || o->sync == SYNC_STMLOCK)) {
        fprintf(stderr, "qwsv: this build has no transactional memory (SV_WITHOUT_TM)\n");
        return -1;
    }
    if (o->sync == SYNC_NONE && o->threads != 1 && o->sched != SCHED_LPT) {
        fprintf(stderr, "qwsv: -sync none is only safe with -threads 1 or -sched lpt\n");
        return -1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    sv_clock();
    sv_cvar_init();
    if (parse_args(argc, argv, &sv.opt) < 0)
        return 2;
    sv_sync_init(sv.opt.sync);
    sv_sched_init(sv.opt.sched, sv.opt.job_weight);
    sv_stats_init(sv.opt.threads);
    sv.challenge_seed = (unsigned)time(NULL) ^ (unsigned)sv.opt.port;
    sv_game_init_players();

    char err[1024];
    if (!sv_admin_start(err, sizeof err)) {
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
    sv_log("qwsv listening on %s:%d, map %s, %d thread(s), sync %s, sched %s%s",
           sv.opt.ip ? sv.opt.ip : "*", sv.opt.port, sv.opt.map, sv.opt.threads,
           sv_sync_name(sv.opt.sync), sv_sched_name(sv.opt.sched),
           sv.opt.waitall ? ", waitall" : "");
    sv_frame_run();
    sv_log("qwsv stopped");
    return 0;
}
