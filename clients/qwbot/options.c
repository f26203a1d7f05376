/* Command line of qwbot: Quake-style single-dash options (double dash accepted too), one table
 * of them that drives the parsing, --help and the messages about a bad command line. */
#include "options.h"

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

typedef enum option_kind {
    OPT_HELP,  /* prints --help */
    OPT_FLAG,  /* stores `init` in an int */
    OPT_TEXT,  /* a word, not empty */
    OPT_COUNT, /* a whole number from min to max (unsigned) */
    OPT_REAL,  /* a number from lo to hi (double) */
} option_kind;

typedef struct option {
    const char *name;         /* as typed with one dash: "-server" */
    const char *value;        /* what follows the name in --help ("HOST:PORT"), NULL: nothing */
    const char *help;         /* --help's lines, NULL: not listed (an alias) */
    option_kind kind;
    size_t field;             /* offsetof(qwbot_options, what it sets) */
    double init;              /* its default, or what a flag stores */
    unsigned long long min, max;  /* OPT_COUNT; below min: "NAME must be too_small" */
    const char *too_small;
    double lo, hi;            /* OPT_REAL: from lo (above lo with lo_open) to hi */
    bool lo_open;
    const char *expects;      /* OPT_REAL: what a wrong value's message asks for */
    const char *shown;        /* the left column of --help when not "NAME VALUE" */
} option;

#define FIELD(f) .field = offsetof(qwbot_options, f)
#define COUNT(f, lo, hi, small) OPT_COUNT, FIELD(f), .min = lo, .max = hi, .too_small = small

static const option options[] = {
    {"-server", "HOST:PORT", "server address (port 27500 if omitted)", OPT_TEXT, FIELD(server)},
    {"-basedir", "DIR", "directory holding the server's map: DIR/maps/NAME.bsp,\n"
     "DIR/id1/maps/NAME.bsp or DIR/*/maps/NAME.bsp", OPT_TEXT, FIELD(basedir)},
    {"-map", "NAME", "map the server runs (default with -replay: the trace's map)", OPT_TEXT,
     FIELD(map)},
    {"-bots", "N", "number of bots (default with -replay: the trace's bot count;\n"
     "bot i replays stream i modulo the trace's streams)", COUNT(bots, 1, 1024, "at least 1")},
    {"-interactions", "K", "moves per bot (default with -replay: the whole trace)",
     COUNT(interactions, 1, 10000000, "at least 1")},
    {"-record", "FILE", "write the command stream every bot sent (zlib/gzip trace)", OPT_TEXT,
     FIELD(record)},
    {"-replay", "FILE", "send the command streams of a trace instead of the script", OPT_TEXT,
     FIELD(replay)},
    {"-aim", NULL, "with -replay: turn each move to the nearest opponent in view.\n"
     "A -fight trace's moves are relative to the view (run at, circle,\n"
     "fire), so its bots fight again where a plain replay would fire at\n"
     "where the others stood when it was recorded; only the view angles\n"
     "differ from the trace", OPT_FLAG, FIELD(aim), .init = 1},
    {"-seed", "S", "seed of the scripted behaviour (default 1)",
     COUNT(seed, 0, UINT32_MAX, NULL), .init = 1},
    {"-fight", NULL, "scripted mode plays deathmatch: aim at the nearest player in view,\n"
     "rockets from a distance, shotgun up close, respawn after dying;\n"
     "each move is chosen from what the server shows (record it with\n"
     "-record to replay the same fight)", OPT_FLAG, FIELD(fight), .init = 1},
    {"-name", "PREFIX", "bot names are PREFIX1..PREFIXN (default \"qwbot\")", OPT_TEXT,
     FIELD(name)},
    {"-interval", "MS", "scripted mode: one move every MS ms, 5..250 (default 13)",
     COUNT(interval_ms, 5, 250, "5..250 ms"), .init = 13},
    {"-speed", "F", "send F times faster than the schedule (0.1..100, default 1): more\n"
     "load from the same commands (their msec and the record are unchanged)", OPT_REAL,
     FIELD(speed), .init = 1, .lo = 0.1, .hi = 100, .expects = "a number from 0.1 to 100"},
    {"-closedloop", NULL, "send each move as soon as the server answered the previous one (or\n"
     "after 100 ms): measures how fast the server can go; the commands\n"
     "and the record are unchanged, only the timing", OPT_FLAG, FIELD(closed_loop), .init = 1},
    {"-loops", "N", "send each bot's stream (its first K moves) N times in a row, e.g.\n"
     "for longer -closedloop measurements (default 1)", COUNT(loops, 1, 100000, "at least 1"),
     .init = 1},
    {"-duration", "S", "stop each bot after S seconds of play even if moves are left (the\n"
     "run still counts as complete)", OPT_REAL, FIELD(duration), .lo = 0, .lo_open = true,
     .hi = 86400, .expects = "seconds, more than 0"},
    {"-timeout", "SECONDS", "time allowed for all bots to spawn (default 30)",
     COUNT(signon_timeout, 1, 3600, "at least 1"), .init = 30},
    {"-chktbl", "FILE", "the clc_move checksum table (default $QW_CHKTBL or\n"
     QWBOT_DEFAULT_CHKTBL ")", OPT_TEXT, FIELD(chktbl)},
    {"-progress", NULL, "force the progress line on or off (default: on if stderr\n"
     "is a terminal, else one line every 5 seconds)", OPT_FLAG, FIELD(progress), .init = 1,
     .shown = "-progress | -noprogress"},
    {"-noprogress", NULL, NULL, OPT_FLAG, FIELD(progress), .init = 0},
    {"-v", NULL, "print what the server prints, and one line per bot at the end", OPT_FLAG,
     FIELD(verbose), .init = 1},
    {"-help", NULL, "this text", .kind = OPT_HELP, .shown = "--help"},
    {"-h", NULL, NULL, .kind = OPT_HELP},
};
#define NUM_OPTIONS (sizeof options / sizeof options[0])

/* --help: an option's text starts in this column. */
#define HELP_COLUMN 22

static void print_option(FILE *stream, const option *o)
{
    char left[64];
    if (o->shown)
        snprintf(left, sizeof left, "%s", o->shown);
    else
        snprintf(left, sizeof left, "%s%s%s", o->name, o->value ? " " : "",
                 o->value ? o->value : "");
    if ((int)strlen(left) > HELP_COLUMN - 4)
        fprintf(stream, "  %s  ", left);
    else
        fprintf(stream, "  %-*s", HELP_COLUMN - 2, left);
    for (const char *line = o->help; *line;) {
        size_t len = strcspn(line, "\n");
        fprintf(stream, "%s%.*s\n", line == o->help ? "" : "                      ", (int)len,
                line);
        line += len + (line[len] == '\n');
    }
}

void qwbot_usage(FILE *stream)
{
    fputs("usage: qwbot -server HOST:PORT -basedir DIR -map NAME -bots N -interactions K\n"
          "             [-record FILE | -replay FILE] [-seed S] [-name PREFIX] [options]\n"
          "\n"
          "Drives N QuakeWorld (protocol 28) clients from one process: each bot connects, signs on\n"
          "(prespawn with the checksum of DIR's copy of the map), waits until every bot has spawned,\n"
          "sends K moves (\"interactions\"), then disconnects with \"drop\" and a summary is printed.\n"
          "\n", stream);
    for (size_t i = 0; i < NUM_OPTIONS; i++)
        if (options[i].help)
            print_option(stream, &options[i]);
    fputs("\n"
          "Scripted mode (no -replay): walk, then one random action (jump, shoot, turn, weapon,\n"
          "rarely chat), then stop, repeat; seeded, so equal seeds send equal commands. A scripted\n"
          "bot stuck inside another player (some servers spawn players into each other) types\n"
          "\"kill\" to respawn elsewhere, as a player would; the recording keeps it.\n"
          "Exit status: 0 when every bot spawned and sent its K moves, 1 otherwise, 2 on usage "
          "errors.\n", stream);
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

/* Stores option o's value val (NULL at the end of the command line) in *opts; -1 after a
 * message when it is missing or wrong. */
static int apply(const option *o, const char *val, qwbot_options *opts)
{
    void *field = (char *)opts + o->field;
    switch (o->kind) {
    case OPT_HELP:
        return 0;
    case OPT_FLAG:
        *(int *)field = (int)o->init;
        return 0;
    case OPT_TEXT:
        if (!val || !*val) {
            fprintf(stderr, "qwbot: %s needs a value (see --help)\n", o->name);
            return -1;
        }
        *(const char **)field = val;
        return 0;
    case OPT_COUNT: {
        unsigned long long n;
        if (parse_uint(o->name, val, o->max, &n))
            return -1;
        if (n < o->min) {
            fprintf(stderr, "qwbot: %s must be %s\n", o->name, o->too_small);
            return -1;
        }
        *(unsigned *)field = (unsigned)n;
        return 0;
    }
    case OPT_REAL: {
        char *end;
        double f = val ? strtod(val, &end) : 0;
        if (!val || *end || !((o->lo_open ? f > o->lo : f >= o->lo) && f <= o->hi)) {
            fprintf(stderr, "qwbot: %s %s: expected %s\n", o->name, val ? val : "", o->expects);
            return -1;
        }
        *(double *)field = f;
        return 0;
    }
    }
    return -1;
}

static const option *find_option(const char *name)
{
    for (size_t i = 0; i < NUM_OPTIONS; i++)
        if (!strcmp(options[i].name, name))
            return &options[i];
    return NULL;
}

/* Every option's default; -name's is "qwbot". */
static void set_defaults(qwbot_options *o)
{
    memset(o, 0, sizeof *o);
    for (size_t i = 0; i < NUM_OPTIONS; i++) {
        const option *opt = &options[i];
        void *field = (char *)o + opt->field;
        if (opt->kind == OPT_COUNT)
            *(unsigned *)field = (unsigned)opt->init;
        else if (opt->kind == OPT_REAL)
            *(double *)field = opt->init;
    }
    o->name = "qwbot";
    o->progress = -1;
}

/* The combinations that make no sense, and the values that would break the bots' names and
 * the map path; -1 after a message. */
static int check(const qwbot_options *o, bool interval_given)
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

int qwbot_options_parse(qwbot_options *o, int argc, char **argv)
{
    set_defaults(o);
    bool interval_given = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (a[0] == '-' && a[1] == '-')
            a++;
        const option *opt = find_option(a);
        if (!opt) {
            fprintf(stderr, "qwbot: unknown option \"%s\" (see --help)\n", argv[i]);
            return -1;
        }
        if (opt->kind == OPT_HELP) {
            qwbot_usage(stdout);
            return 1;
        }
        bool takes_value = opt->kind != OPT_FLAG;
        if (apply(opt, takes_value && i + 1 < argc ? argv[i + 1] : NULL, o) != 0)
            return -1;
        interval_given |= !strcmp(opt->name, "-interval");
        i += takes_value;
    }
    return check(o, interval_given);
}
