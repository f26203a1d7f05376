/* Command line of qwbot: Quake-style single-dash options (double dash accepted too). */
#include "options.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

void qwbot_usage(FILE *stream)
{
    fprintf(stream,
"usage: qwbot -server HOST:PORT -basedir DIR -map NAME -bots N -interactions K\n"
"             [-record FILE | -replay FILE] [-seed S] [-name PREFIX] [options]\n"
"\n"
"Drives N QuakeWorld (protocol 28) clients from one process: each bot connects, signs on\n"
"(prespawn with the checksum of DIR's copy of the map), waits until every bot has spawned,\n"
"sends K moves (\"interactions\"), then disconnects with \"drop\" and a summary is printed.\n"
"\n"
"  -server HOST:PORT   server address (port 27500 if omitted)\n"
"  -basedir DIR        directory holding the server's map: DIR/maps/NAME.bsp,\n"
"                      DIR/id1/maps/NAME.bsp or DIR/*/maps/NAME.bsp\n"
"  -map NAME           map the server runs (default with -replay: the trace's map)\n"
"  -bots N             number of bots (default with -replay: the trace's bot count;\n"
"                      bot i replays stream i modulo the trace's streams)\n"
"  -interactions K     moves per bot (default with -replay: the whole trace)\n"
"  -record FILE        write the command stream every bot sent (zlib/gzip trace)\n"
"  -replay FILE        send the command streams of a trace instead of the script\n"
"  -aim                with -replay: turn each move to the nearest opponent in view.\n"
"                      A -fight trace's moves are relative to the view (run at, circle,\n"
"                      fire), so its bots fight again where a plain replay would fire at\n"
"                      where the others stood when it was recorded; only the view angles\n"
"                      differ from the trace\n"
"  -seed S             seed of the scripted behaviour (default 1)\n"
"  -fight              scripted mode plays deathmatch: aim at the nearest player in view,\n"
"                      rockets from a distance, shotgun up close, respawn after dying;\n"
"                      each move is chosen from what the server shows (record it with\n"
"                      -record to replay the same fight)\n"
"  -name PREFIX        bot names are PREFIX1..PREFIXN (default \"qwbot\")\n"
"  -interval MS        scripted mode: one move every MS ms, 5..250 (default 13)\n"
"  -speed F           send F times faster than the schedule (0.1..100, default 1): more\n"
"                      load from the same commands (their msec and the record are unchanged)\n"
"  -closedloop        send each move as soon as the server answered the previous one (or\n"
"                      after 100 ms): measures how fast the server can go; the commands\n"
"                      and the record are unchanged, only the timing\n"
"  -loops N           send each bot's stream (its first K moves) N times in a row, e.g.\n"
"                      for longer -closedloop measurements (default 1)\n"
"  -duration S        stop each bot after S seconds of play even if moves are left (the\n"
"                      run still counts as complete)\n"
"  -timeout SECONDS    time allowed for all bots to spawn (default 30)\n"
"  -chktbl FILE        the clc_move checksum table (default $QW_CHKTBL or\n"
"                      " QWBOT_DEFAULT_CHKTBL ")\n"
"  -progress | -noprogress   force the progress line on or off (default: on if stderr\n"
"                      is a terminal, else one line every 5 seconds)\n"
"  -v                  print what the server prints, and one line per bot at the end\n"
"  --help              this text\n"
"\n"
"Scripted mode (no -replay): walk, then one random action (jump, shoot, turn, weapon,\n"
"rarely chat), then stop, repeat; seeded, so equal seeds send equal commands. A scripted\n"
"bot stuck inside another player (some servers spawn players into each other) types\n"
"\"kill\" to respawn elsewhere, as a player would; the recording keeps it.\n"
"Exit status: 0 when every bot spawned and sent its K moves, 1 otherwise, 2 on usage errors.\n");
}

static int parse_uint(const char *opt, const char *text, unsigned long long max,
                      unsigned long long *out)
{
    char *end;
    errno = 0;
    if (!text || !*text || *text == '-') {
        fprintf(stderr, "qwbot: %s needs a non-negative number (got \"%s\")\n", opt,
                text ? text : "");
        return -1;
    }
    unsigned long long v = strtoull(text, &end, 10);
    if (errno || *end || v > max) {
        fprintf(stderr, "qwbot: %s %s: expected a whole number from 0 to %llu\n", opt, text,
                max);
        return -1;
    }
    *out = v;
    return 0;
}

int qwbot_options_parse(qwbot_options *o, int argc, char **argv)
{
    memset(o, 0, sizeof *o);
    o->seed = 1;
    o->name = "qwbot";
    o->interval_ms = 13;
    o->speed = 1.0;
    o->loops = 1;
    o->signon_timeout = 30;
    o->progress = -1;
    int interval_given = 0;

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (a[0] == '-' && a[1] == '-')
            a++;
        if (!strcmp(a, "-help") || !strcmp(a, "-h")) {
            qwbot_usage(stdout);
            return 1;
        }
        if (!strcmp(a, "-v")) {
            o->verbose = 1;
            continue;
        }
        if (!strcmp(a, "-progress")) {
            o->progress = 1;
            continue;
        }
        if (!strcmp(a, "-closedloop")) {
            o->closed_loop = 1;
            continue;
        }
        if (!strcmp(a, "-fight")) {
            o->fight = 1;
            continue;
        }
        if (!strcmp(a, "-aim")) {
            o->aim = 1;
            continue;
        }
        if (!strcmp(a, "-noprogress")) {
            o->progress = 0;
            continue;
        }
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
        unsigned long long n;
        if (!strcmp(a, "-server") || !strcmp(a, "-basedir") || !strcmp(a, "-map") ||
            !strcmp(a, "-record") || !strcmp(a, "-replay") || !strcmp(a, "-name") ||
            !strcmp(a, "-chktbl")) {
            if (!val || !*val) {
                fprintf(stderr, "qwbot: %s needs a value (see --help)\n", a);
                return -1;
            }
            if (!strcmp(a, "-server")) o->server = val;
            else if (!strcmp(a, "-basedir")) o->basedir = val;
            else if (!strcmp(a, "-map")) o->map = val;
            else if (!strcmp(a, "-record")) o->record = val;
            else if (!strcmp(a, "-replay")) o->replay = val;
            else if (!strcmp(a, "-name")) o->name = val;
            else o->chktbl = val;
            i++;
        } else if (!strcmp(a, "-bots")) {
            if (parse_uint(a, val, 1024, &n))
                return -1;
            if (n == 0) {
                fprintf(stderr, "qwbot: -bots must be at least 1\n");
                return -1;
            }
            o->bots = (unsigned)n;
            i++;
        } else if (!strcmp(a, "-interactions")) {
            if (parse_uint(a, val, 10000000, &n))
                return -1;
            if (n == 0) {
                fprintf(stderr, "qwbot: -interactions must be at least 1\n");
                return -1;
            }
            o->interactions = (uint32_t)n;
            i++;
        } else if (!strcmp(a, "-seed")) {
            if (parse_uint(a, val, UINT32_MAX, &n))
                return -1;
            o->seed = n;
            i++;
        } else if (!strcmp(a, "-interval")) {
            if (parse_uint(a, val, 250, &n))
                return -1;
            if (n < 5) {
                fprintf(stderr, "qwbot: -interval must be 5..250 ms\n");
                return -1;
            }
            o->interval_ms = (unsigned)n;
            interval_given = 1;
            i++;
        } else if (!strcmp(a, "-speed")) {
            char *end;
            double f = val ? strtod(val, &end) : 0;
            if (!val || *end || !(f >= 0.1 && f <= 100)) {
                fprintf(stderr, "qwbot: -speed %s: expected a number from 0.1 to 100\n",
                        val ? val : "");
                return -1;
            }
            o->speed = f;
            i++;
        } else if (!strcmp(a, "-duration")) {
            char *end;
            double f = val ? strtod(val, &end) : 0;
            if (!val || *end || !(f > 0 && f <= 86400)) {
                fprintf(stderr, "qwbot: -duration %s: expected seconds, more than 0\n",
                        val ? val : "");
                return -1;
            }
            o->duration = f;
            i++;
        } else if (!strcmp(a, "-loops")) {
            if (parse_uint(a, val, 100000, &n))
                return -1;
            if (n == 0) {
                fprintf(stderr, "qwbot: -loops must be at least 1\n");
                return -1;
            }
            o->loops = (unsigned)n;
            i++;
        } else if (!strcmp(a, "-timeout")) {
            if (parse_uint(a, val, 3600, &n))
                return -1;
            if (n == 0) {
                fprintf(stderr, "qwbot: -timeout must be at least 1\n");
                return -1;
            }
            o->signon_timeout = (unsigned)n;
            i++;
        } else {
            fprintf(stderr, "qwbot: unknown option \"%s\" (see --help)\n", argv[i]);
            return -1;
        }
    }

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
    if (!o->replay) {
        if (!o->map || !o->bots || !o->interactions) {
            fprintf(stderr, "qwbot: scripted mode needs -map NAME, -bots N and "
                            "-interactions K (or give -replay FILE)\n");
            return -1;
        }
    } else if (interval_given || o->fight) {
        fprintf(stderr, "qwbot: %s only applies to scripted mode; a replay sends the trace "
                        "as it was recorded\n", o->fight ? "-fight" : "-interval");
        return -1;
    }
    if (o->aim && !o->replay) {
        fprintf(stderr, "qwbot: -aim applies to -replay (a -fight bot aims by itself)\n");
        return -1;
    }
    if (o->fight && o->loops > 1) {
        fprintf(stderr, "qwbot: -fight chooses each move live: -loops does not apply\n");
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
