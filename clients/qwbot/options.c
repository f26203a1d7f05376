/* Command line of qwbot: Quake-style single-dash options (double dash accepted too), one table
 * of them for the option engine (cmdline.h: parsing, --help, the messages about a bad value),
 * and the checks across options. */
#include "options.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "cmdline.h"

#define FIELD(f) CMDLINE_FIELD(qwbot_options, f)
#define COUNT(f, lo, hi) CMDLINE_WHOLE, FIELD(f), .min = lo, .max = hi
#define FLAG(f) CMDLINE_FLAG, FIELD(f)

static const cmdline_option options[] = {
    {"-server", "HOST:PORT", "server address (port 27500 if omitted)", CMDLINE_TEXT, FIELD(server)},
    {"-basedir", "DIR", "directory holding the server's map: DIR/maps/NAME.bsp,\n"
     "DIR/id1/maps/NAME.bsp or DIR/*/maps/NAME.bsp", CMDLINE_TEXT, FIELD(basedir)},
    {"-map", "NAME", "map the server runs (default with -replay: the trace's map)", CMDLINE_TEXT,
     FIELD(map)},
    {"-bots", "N", "number of bots (default with -replay: the trace's bot count;\n"
     "bot i replays stream i modulo the trace's streams)", COUNT(bots, 1, 1024)},
    {"-interactions", "K", "moves per bot (default with -replay: the whole trace)",
     COUNT(interactions, 1, 10000000)},
    {"-record", "FILE", "write the command stream every bot sent (zlib/gzip trace)", CMDLINE_TEXT,
     FIELD(record)},
    {"-replay", "FILE", "send the command streams of a trace instead of the script", CMDLINE_TEXT,
     FIELD(replay)},
    {"-aim", NULL, "with -replay: turn each move to the nearest opponent in view.\n"
     "A -fight trace's moves are relative to the view (run at, circle,\n"
     "fire), so its bots fight again where a plain replay would fire at\n"
     "where the others stood when it was recorded; only the view angles\n"
     "differ from the trace", FLAG(aim)},
    {"-seed", "S", "seed of the scripted behaviour (default 1)",
     COUNT(seed, 0, UINT32_MAX), .init = 1},
    {"-fight", NULL, "scripted mode plays deathmatch: aim at the nearest player in view,\n"
     "rockets from a distance, shotgun up close, respawn after dying;\n"
     "each move is chosen from what the server shows (record it with\n"
     "-record to replay the same fight)", FLAG(fight)},
    {"-movers", NULL, "scripted mode goes to the map's doors, plats, buttons, teleporters,\n"
     "touch triggers and items (from the BSP entity lump under -basedir)\n"
     "and uses them, each bot the kinds in turn; it watches them work in\n"
     "what the server sends; the summary counts it (line qwbot-movers)", FLAG(movers)},
    {"-name", "PREFIX", "bot names are PREFIX1..PREFIXN (default \"qwbot\")", CMDLINE_TEXT,
     FIELD(name)},
    {"-interval", "MS", "scripted mode: one move every MS ms, 5..250 (default 13)",
     COUNT(interval_ms, 5, 250), .init = 13,
     .needs = "a whole number of ms from 5 to 250"},
    {"-speed", "F", "send F times faster than the schedule (0.1..100, default 1): more\n"
     "load from the same commands (their msec and the record are unchanged)", CMDLINE_REAL,
     FIELD(speed), .init = 1, .lo = 0.1, .hi = 100},
    {"-closedloop", NULL, "send each move as soon as the server answered the previous one (or\n"
     "after 100 ms): measures how fast the server can go; the commands\n"
     "and the record are unchanged, only the timing", FLAG(closed_loop)},
    {"-loops", "N", "send each bot's stream (its first K moves) N times in a row, e.g.\n"
     "for longer -closedloop measurements (default 1)", COUNT(loops, 1, 100000),
     .init = 1},
    {"-duration", "S", "stop each bot after S seconds of play even if moves are left (the\n"
     "run still counts as complete)", CMDLINE_REAL, FIELD(duration), .lo = 0, .lo_open = true,
     .hi = 86400, .needs = "seconds, more than 0"},
    {"-timeout", "SECONDS", "time allowed for all bots to spawn (default 30)",
     COUNT(signon_timeout, 1, 3600), .init = 30},
    {"-chktbl", "FILE", "the clc_move checksum table (default $QW_CHKTBL or\n"
     QWBOT_DEFAULT_CHKTBL ")", CMDLINE_TEXT, FIELD(chktbl)},
    {"-progress", NULL, "force the progress line on or off (default: on if stderr\n"
     "is a terminal, else one line every 5 seconds)", FLAG(progress),
     .shown = "-progress | -noprogress"},
    {"-noprogress", NULL, NULL, CMDLINE_SET, FIELD(progress), .init = 0},
    {"-v", NULL, "print what the server prints, and one line per bot at the end",
     FLAG(verbose)},
    {"-help", NULL, "this text", CMDLINE_HELP, .aliases = "-h", .shown = "--help"},
    {NULL},
};

static void usage_head(FILE *stream, const cmdline_program *p)
{
    (void)p;
    fputs("usage: qwbot -server HOST:PORT -basedir DIR -map NAME -bots N -interactions K\n"
          "             [-record FILE | -replay FILE] [-seed S] [-name PREFIX] [options]\n"
          "\n"
          "Drives N QuakeWorld (protocol 28) clients from one process: each bot connects, signs on\n"
          "(prespawn with the checksum of DIR's copy of the map), waits until every bot has spawned,\n"
          "sends K moves (\"interactions\"), then disconnects with \"drop\" and a summary is printed.\n"
          "\n", stream);
}

static void usage_tail(FILE *stream, const cmdline_program *p)
{
    (void)p;
    fputs("\n"
          "Scripted mode (no -replay): walk, then one random action (jump, shoot, turn, weapon,\n"
          "rarely chat), then stop, repeat; seeded, so equal seeds send equal commands. A scripted\n"
          "bot stuck inside another player (some servers spawn players into each other) types\n"
          "\"kill\" to respawn elsewhere, as a player would; the recording keeps it.\n"
          "Exit status: 0 when every bot spawned and sent its K moves, 1 otherwise, 2 on usage "
          "errors.\n", stream);
}

/* Notes -interval, which only scripted mode takes. */
static bool note_interval(const cmdline_program *p, const cmdline_option *o,
                          const char *value, void *target)
{
    (void)p;
    (void)value;
    if (!strcmp(o->name, "-interval"))
        ((qwbot_options *)target)->interval_given = true;
    return true;
}

static const cmdline_program program = {
    .name = "qwbot", .options = options, .column = 22, .fold_dashes = true,
    .usage_head = usage_head, .usage_tail = usage_tail, .applied = note_interval,
};

void qwbot_usage(FILE *stream)
{
    cmdline_usage(&program, stream);
}

/* The combinations that make no sense, and the values that would break the bots' names and
 * the map path; -1 after a message. */
static int check(const qwbot_options *o)
{
    if (o->closed_loop && o->speed != 1.0) {
        fprintf(stderr, "qwbot: -closedloop and -speed exclude each other (closed loop ignores "
                        "the schedule)\n");
        return -1;
    }
    if (!o->server) {
        fprintf(stderr, "qwbot: -server HOST:PORT is required (see --help)\n");
        return -1;
    }
    if (!o->basedir) {
        fprintf(stderr, "qwbot: -basedir DIR is required: the bots read the server's map "
                        "from it to compute the prespawn checksum\n");
        return -1;
    }
    if (o->record && o->replay && !strcmp(o->record, o->replay)) {
        fprintf(stderr, "qwbot: -record and -replay name the same file %s\n", o->record);
        return -1;
    }
    if (o->movers && o->replay) {
        fprintf(stderr, "qwbot: -movers only applies to scripted mode\n");
        return -1;
    }
    if (!o->replay) {
        if (!o->map || !o->bots || !o->interactions) {
            fprintf(stderr, "qwbot: scripted mode needs -map NAME, -bots N and "
                            "-interactions K (or give -replay FILE)\n");
            return -1;
        }
    } else if (o->interval_given || o->fight) {
        fprintf(stderr, "qwbot: %s only applies to scripted mode; a replay sends the trace "
                        "as it was recorded\n", o->fight ? "-fight" : "-interval");
        return -1;
    }
    if (o->aim && !o->replay) {
        fprintf(stderr, "qwbot: -aim applies to -replay (a -fight bot aims by itself)\n");
        return -1;
    }
    if ((o->fight || o->movers) && o->loops > 1) {
        fprintf(stderr, "qwbot: %s chooses each move live: -loops does not apply\n",
                o->fight ? "-fight" : "-movers");
        return -1;
    }
    if (strlen(o->name) > 24) {
        fprintf(stderr, "qwbot: -name %s: at most 24 characters\n", o->name);
        return -1;
    }
    for (const char *p = o->name; *p; p++)
        if (*p == '\\' || *p == '"' || *p == ';' || (unsigned char)*p < 32) {
            fprintf(stderr, "qwbot: -name %s: no backslashes, quotes, semicolons or "
                            "control characters\n", o->name);
            return -1;
        }
    if (o->map)
        for (const char *p = o->map; *p; p++)
            if (*p == '/' || *p == '\\' || *p == '.') {
                fprintf(stderr, "qwbot: -map %s: give the bare map name (no maps/, no .bsp)\n",
                        o->map);
                return -1;
            }
    return 0;
}

int qwbot_options_parse(qwbot_options *o, int argc, char **argv)
{
    memset(o, 0, sizeof *o);
    o->name = "qwbot";
    o->progress = -1;
    cmdline_result r = cmdline_parse(&program, argc, argv, o);
    if (r != CMDLINE_OK)
        return r == CMDLINE_DONE ? 1 : -1;
    return check(o);
}
