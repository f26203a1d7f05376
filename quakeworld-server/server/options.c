/* qwsv's command line (see options.h): the table of options for the option engine
 * (common/cmdline.h), the texts around it in --help, and the checks across options. */
#include "options.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "admin/command_line.h"
#include "admin/cvar.h"
#include "sched/sched.h"
#include "version.h"

/* What an option that stands for a console command records (its cvar holds the default). */
#define COMMAND(name) .data = name, .no_default = true
#define FIELD(f) CMDLINE_FIELD(sv_options, f)
/* -stats, -quitafter, ...: seconds, any number >= 0 */
#define SECONDS(f) CMDLINE_REAL, FIELD(f), .lo = 0, .hi = INFINITY, \
    .needs = "a number of seconds >= 0"

static const cmdline_option options[] = {
    {"-basedir", "DIR", "directory holding id1/maps/NAME.bsp (e.g. ../shared/quake or a "
     "directory made by qwmapgen); DIR/protocol/chktbl.bin, if present, enables the clc_move "
     "checksum check (or set QW_CHKTBL=FILE)", CMDLINE_TEXT, FIELD(basedir), .needs = "a directory"},
    {"-game", "DIR", "the game directory under -basedir searched first for qwprogs.dat "
     "(QuakeWorld's game in QuakeC), before qw/ and id1/; without any the C deathmatch runs",
     CMDLINE_TEXT, FIELD(game), .needs = "a directory name"},
    {"-progs", "FILE", "the QuakeC game to run (a progs.dat of version 6, e.g. "
     "../shared/quake/qw/qwprogs.dat); \"none\": the C deathmatch even where a qwprogs.dat "
     "is found", CMDLINE_TEXT, FIELD(progs), .needs = "a file name or none"},
    {"-qcsharedscratch", NULL, "keep the scratch globals of QuakeWorld's game (multi_damage, "
     "blood_org, damage_attacker, activator, ...) shared between threads, as one copy (by "
     "default each thread has its own: see the README's \"QuakeC inside the sections\")",
     CMDLINE_FLAG, FIELD(qc_shared_scratch)},
    {"-qcfunctions", "FILE", "on exit, write every function of the QuakeC game with how often "
     "it ran (\"never\" for those not reached); the log says how many were reached",
     CMDLINE_TEXT, FIELD(qc_functions), .needs = "a file name"},
    {"-map", "NAME", "map to run (crateprefab_dm, lqdm2, ...)", CMDLINE_TEXT,
     .needs = "a map name", COMMAND("map")},
    {"-port", "N", "UDP port (default {default})", CMDLINE_WHOLE, FIELD(port),
     .init = QW_PORT_SERVER, .min = 1, .max = 65535},
    {"-ip", "ADDR", "address to bind (default: all; use 127.0.0.1 for local tests)", CMDLINE_TEXT,
     FIELD(ip), .needs = "an address"},
    {"-threads", "N", "threads serving clients, master included (1..{max}, default {default})",
     CMDLINE_WHOLE, FIELD(threads), .init = 1, .min = 1, .max = SV_MAX_THREADS},
    {"-sync", "MODE", "{names} (default {default}; none needs -threads 1 or -sched lpt): "
     "{phrases}", CMDLINE_CHOICE, FIELD(sync), .init = SYNC_LOCK, .choices = sv_sync_modes},
    {"-sched", "MODE", "{names} (default {default}): {phrases}", CMDLINE_CHOICE, FIELD(sched),
     .init = SCHED_STATIC, .choices = sv_sched_modes},
    {"-jobweight", "W", "{names} (default {default}): a job's weight for -sched lpt, {phrases}",
     CMDLINE_CHOICE, FIELD(job_weight), .init = JOB_WEIGHT_CLIENTS, .choices = sv_job_weights},
    {"-framecsv", "FILE", "write one CSV row per frame (jobs, weights, messages, the time every "
     "worker was busy); see stats/frame_stats.c", CMDLINE_TEXT, FIELD(frame_csv),
     .needs = "a file name"},
    {"-maxclients", "N", "player slots (1..{max}, default {default}; slots from 32 on only for "
     "clients that say \"bigslots 1\" in their userinfo, such as qwbot)", CMDLINE_WHOLE,
     FIELD(maxclients), .min = 1, .max = SV_MAX_CLIENTS, COMMAND("maxclients")},
    {"-stats", "SECONDS", "print statistics every SECONDS (and always on exit)",
     SECONDS(stats_interval)},
    {"-waitall", NULL, "start each frame's request processing only when every client has sent "
     "a packet (or after 1 s)", CMDLINE_FLAG, FIELD(waitall)},
    {"-nosteal", NULL, "each worker serves only its own clients (by default a worker done with "
     "its own takes over others' not begun yet, in RP with -sched static and in S)", CMDLINE_FLAG,
     FIELD(no_steal)},
    {"-handover", NULL, "with -sched static: a worker of RP that comes to a client while "
     "another thread holds the global lock (-sync lock, stmlock) or runs alone in libtm's "
     "serial mode (-sync stm) leaves the frame's remaining clients to that thread and goes on "
     "to the barrier (less CPU per command, fewer commands/s); by default it claims the client "
     "and waits (the paper's way)",
     CMDLINE_FLAG, FIELD(handover)},
    {"-quitafter", "S", "stop the server after S seconds (0 = run until SIGINT/SIGTERM or quit; "
     "before version 1.1 this was -timelimit)", SECONDS(quit_after)},
    {"-clienttimeout", "S", "drop clients silent for S seconds (default {default})",
     SECONDS(client_timeout), .init = SV_TIMEOUT},
    {"-timelimit", "MIN", "the same as +set timelimit MIN: a match lasts MIN minutes",
     CMDLINE_TEXT, .needs = "a number of minutes", COMMAND("timelimit")},
    {"-fraglimit", "N", "the same as +set fraglimit N: a match ends at N frags",
     CMDLINE_WHOLE, FIELD(fraglimit), .min = 0, .max = 100000, COMMAND("fraglimit")},
    {"-replay", "TRACE", "a load inside the server: virtual clients replay the moves of this "
     "qwbot trace (-record), turned to the nearest opponent in view as qwbot -aim does; their "
     "packets enter the request phase as network ones do and their replies are built, then "
     "counted, not sent (net/replay.h); network clients may play beside them", CMDLINE_TEXT,
     FIELD(replay), .needs = "a trace file"},
    {"-replayclients", "N", "how many virtual clients -replay runs (default: the trace's bots; "
     "client i replays stream i modulo the trace's)", CMDLINE_WHOLE,
     FIELD(replay_clients), .min = 1, .max = SV_MAX_CLIENTS},
    {"-replayspeed", "F", "0 (default): closed loop, each virtual client sends its next move "
     "as soon as its reply is built, and the game's clock follows their moves (as a timedemo "
     "follows its demo); F: at F times the recorded pace, on the real clock",
     SECONDS(replay_speed)},
    {"-logfile", "FILE", "append the log to FILE too, with wall-clock timestamps", CMDLINE_TEXT,
     FIELD(logfile), .needs = "a file name"},
    {"--version", NULL, "print the version", .kind = CMDLINE_VERSION, .aliases = "-version"},
    {"--help", NULL, "this text", .kind = CMDLINE_HELP, .aliases = "-h -help"},
    {NULL},
};

/* {default} of an option that stands for a console command: its cvar's. */
static const char *command_default(const cmdline_option *o)
{
    return o->data ? sv_cvar_find(o->data)->default_value : NULL;
}

static void usage_head(FILE *out, const cmdline_program *p)
{
    (void)p;
    fputs("usage: qwsv -basedir DIR -map NAME [options] [+set NAME VALUE] [+map NAME] [+exec FILE] "
          "...\n"
          "A QuakeWorld protocol 28 deathmatch server (the Atomic Quake frame: U, RP, S).\n"
          "\n", out);
}

static void usage_tail(FILE *out, const cmdline_program *p)
{
    (void)p;
    fputs("\n"
"Console commands (also in DIR/id1/server.cfg, run first, on stdin and over rcon):\n"
"  +set NAME VALUE   set a cvar: hostname, maxclients, maxspectators, timelimit (minutes),\n"
"                    fraglimit, rcon_password, sv_gamedir, sv_maplist (the rotation), ...\n"
"  +map NAME         the map to run (like -map)\n"
"  +exec FILE        run the commands of DIR/id1/FILE\n"
"  +COMMAND ARGS     any console command; they run in order after server.cfg\n"
"  (cmdlist and cvarlist list them all; see the server's README for admins)\n"
"\n"
"Statistics lines start with \"qwsv-stats\" and are key=value pairs (see stats/print.c).\n",
          out);
}

static void version(void)
{
    printf("qwsv %s (QuakeWorld protocol %d; sync modes lock, region%s)\n", SV_VERSION,
           QW_PROTOCOL_VERSION, SV_HAVE_TM ? ", stm, stmlock (libitm ABI)" : "");
}

/* An option that stands for a console command records it with its value. */
static bool record_command(const cmdline_program *p, const cmdline_option *o,
                           const char *value, void *target)
{
    (void)p;
    (void)target;
    if (o->data)
        sv_cmdline_add(o->data, value);
    return true;
}

/* +COMMAND ARGS... (admin/command_line.h) */
static int plus_command(int argc, char **argv, int i, void *target)
{
    (void)target;
    return argv[i][0] == '+' ? sv_cmdline_plus(argc, argv, i) : -1;
}

static const cmdline_program program = {
    .name = "qwsv", .options = options, .column = 20, .width = 88,
    .usage_head = usage_head, .usage_tail = usage_tail, .version = version,
    .default_text = command_default, .applied = record_command, .word = plus_command,
};

bool sv_options_parse(int argc, char **argv, sv_options *opts)
{
    cmdline_result r = cmdline_parse(&program, argc, argv, opts);
    if (r == CMDLINE_DONE)
        exit(0);
    if (r == CMDLINE_BAD)
        return false;
    if (!opts->basedir) {
        fprintf(stderr, "qwsv: -basedir is required (see qwsv --help)\n");
        return false;
    }
    if (!SV_HAVE_TM && (opts->sync == SYNC_STM || opts->sync == SYNC_STMLOCK)) {
        fprintf(stderr, "qwsv: this build has no transactional memory (SV_WITHOUT_TM)\n");
        return false;
    }
    if (opts->sync == SYNC_NONE && opts->threads != 1 && opts->sched != SCHED_LPT) {
        fprintf(stderr, "qwsv: -sync none is only safe with -threads 1 or -sched lpt\n");
        return false;
    }
    return true;
}
