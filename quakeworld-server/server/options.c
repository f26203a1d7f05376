/* qwsv's command line (see options.h): the table of options, the parser and --help. */
#include "options.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "admin/command_line.h"
#include "admin/cvar.h"
#include "sched/sched.h"
#include "version.h"

typedef enum option_kind {
    OPT_HELP,    /* prints --help, exits 0 */
    OPT_VERSION, /* prints the version, exits 0 */
    OPT_FLAG,    /* sets a bool */
    OPT_INT,     /* an int from lo to hi */
    OPT_SECONDS, /* a double >= 0 */
    OPT_TEXT,    /* any word */
    OPT_CHOICE,  /* a name of `choices`, stored as its value (an int) */
    OPT_COMMAND, /* any word, only recorded as the console command `command` */
} option_kind;

typedef struct option {
    const char *name;
    const char *value;          /* what follows the name in --help ("N"); NULL: nothing */
    const char *help;           /* --help's text (wrapped there), NULL for an alias that
                                   --help does not list; {default}, {max} and, for a choice,
                                   {names} and {phrases} are filled in */
    option_kind kind;
    size_t field;               /* offsetof(sv_options, what it sets) */
    double init;                /* the field's default, unless the option is a command's */
    int lo, hi;                 /* OPT_INT */
    const char *needs;          /* OPT_TEXT, OPT_COMMAND: what a missing value lacks */
    const sv_choice *choices;   /* OPT_CHOICE */
    const char *command;        /* also recorded as this console command, whose cvar holds
                                   the field's default */
} option;

#define FIELD(f) .field = offsetof(sv_options, f)

static const option options[] = {
    {"-basedir", "DIR", "directory holding id1/maps/NAME.bsp (e.g. ../shared/quake or a "
     "directory made by qwmapgen); DIR/protocol/chktbl.bin, if present, enables the clc_move "
     "checksum check (or set QW_CHKTBL=FILE)", OPT_TEXT, FIELD(basedir), .needs = "a directory"},
    {"-game", "DIR", "the game directory under -basedir searched first for qwprogs.dat "
     "(QuakeWorld's game in QuakeC), before qw/ and id1/; without any the C deathmatch runs",
     OPT_TEXT, FIELD(game), .needs = "a directory name"},
    {"-progs", "FILE", "the QuakeC game to run (a progs.dat of version 6, e.g. "
     "../shared/quake/qw/qwprogs.dat); \"none\": the C deathmatch even where a qwprogs.dat "
     "is found", OPT_TEXT, FIELD(progs), .needs = "a file name or none"},
    {"-qcsharedscratch", NULL, "keep the scratch globals of QuakeWorld's game (multi_damage, "
     "blood_org, damage_attacker, activator, ...) shared between threads, as one copy (by "
     "default each thread has its own: see the README's \"QuakeC inside the sections\")",
     OPT_FLAG, FIELD(qc_shared_scratch)},
    {"-qcfunctions", "FILE", "on exit, write every function of the QuakeC game with how often "
     "it ran (\"never\" for those not reached); the log says how many were reached",
     OPT_TEXT, FIELD(qc_functions), .needs = "a file name"},
    {"-map", "NAME", "map to run (crateprefab_dm, lqdm2, ...)", OPT_COMMAND,
     .needs = "a map name", .command = "map"},
    {"-port", "N", "UDP port (default {default})", OPT_INT, FIELD(port),
     .init = QW_PORT_SERVER, .lo = 1, .hi = 65535},
    {"-ip", "ADDR", "address to bind (default: all; use 127.0.0.1 for local tests)", OPT_TEXT,
     FIELD(ip), .needs = "an address"},
    {"-threads", "N", "threads serving clients, master included (1..{max}, default {default})",
     OPT_INT, FIELD(threads), .init = 1, .lo = 1, .hi = SV_MAX_THREADS},
    {"-sync", "MODE", "{names} (default {default}; none needs -threads 1 or -sched lpt): "
     "{phrases}", OPT_CHOICE, FIELD(sync), .init = SYNC_LOCK, .choices = sv_sync_modes},
    {"-sched", "MODE", "{names} (default {default}): {phrases}", OPT_CHOICE, FIELD(sched),
     .init = SCHED_STATIC, .choices = sv_sched_modes},
    {"-jobweight", "W", "{names} (default {default}): a job's weight for -sched lpt, {phrases}",
     OPT_CHOICE, FIELD(job_weight), .init = JOB_WEIGHT_CLIENTS, .choices = sv_job_weights},
    {"-framecsv", "FILE", "write one CSV row per frame (jobs, weights, messages, the time every "
     "worker was busy); see stats/frame_stats.c", OPT_TEXT, FIELD(frame_csv),
     .needs = "a file name"},
    {"-maxclients", "N", "player slots (1..{max}, default {default}; slots from 32 on only for "
     "clients that say \"bigslots 1\" in their userinfo, such as qwbot)", OPT_INT,
     FIELD(maxclients), .lo = 1, .hi = SV_MAX_CLIENTS, .command = "maxclients"},
    {"-stats", "SECONDS", "print statistics every SECONDS (and always on exit)", OPT_SECONDS,
     FIELD(stats_interval)},
    {"-waitall", NULL, "start each frame's request processing only when every client has sent "
     "a packet (or after 1 s)", OPT_FLAG, FIELD(waitall)},
    {"-nosteal", NULL, "each worker serves only its own clients (by default a worker done with "
     "its own takes over others' not begun yet, in RP with -sched static and in S)", OPT_FLAG,
     FIELD(no_steal)},
    {"-quitafter", "S", "stop the server after S seconds (0 = run until SIGINT/SIGTERM or quit; "
     "before version 1.1 this was -timelimit)", OPT_SECONDS, FIELD(quit_after)},
    {"-clienttimeout", "S", "drop clients silent for S seconds (default {default})",
     OPT_SECONDS, FIELD(client_timeout), .init = SV_TIMEOUT},
    {"-timelimit", "MIN", "the same as +set timelimit MIN: a match lasts MIN minutes",
     OPT_COMMAND, .needs = "a number of minutes", .command = "timelimit"},
    {"-fraglimit", "N", "the same as +set fraglimit N: a match ends at N frags", OPT_INT,
     FIELD(fraglimit), .lo = 0, .hi = 100000, .command = "fraglimit"},
    {"-replay", "TRACE", "a load inside the server: virtual clients replay the moves of this "
     "qwbot trace (-record), turned to the nearest opponent in view as qwbot -aim does; their "
     "packets enter the request phase as network ones do and their replies are built, then "
     "counted, not sent (net/replay.h); network clients may play beside them", OPT_TEXT,
     FIELD(replay), .needs = "a trace file"},
    {"-replayclients", "N", "how many virtual clients -replay runs (default: the trace's bots; "
     "client i replays stream i modulo the trace's)", OPT_INT, FIELD(replay_clients),
     .lo = 1, .hi = SV_MAX_CLIENTS},
    {"-replayspeed", "F", "0 (default): closed loop, each virtual client sends its next move "
     "as soon as its reply is built, and the game's clock follows their moves (as a timedemo "
     "follows its demo); F: at F times the recorded pace, on the real clock", OPT_SECONDS,
     FIELD(replay_speed)},
    {"-logfile", "FILE", "append the log to FILE too, with wall-clock timestamps", OPT_TEXT,
     FIELD(logfile), .needs = "a file name"},
    {"--version", NULL, "print the version", .kind = OPT_VERSION},
    {"-version", NULL, NULL, .kind = OPT_VERSION},
    {"--help", NULL, "this text", .kind = OPT_HELP},
    {"-h", NULL, NULL, .kind = OPT_HELP},
    {"-help", NULL, NULL, .kind = OPT_HELP},
};
#define NUM_OPTIONS (sizeof options / sizeof options[0])

/* --help: an option's text starts in this column and its lines end by this one. */
#define HELP_COLUMN 20
#define HELP_WIDTH 88

/* Appends the names of a choice table to out: "a | b | c" (separator " | "), or for a
 * message "a, b or c" (separator NULL). */
static void append_names(char *out, size_t size, const sv_choice *table, const char *separator)
{
    for (const sv_choice *c = table; c->name; c++) {
        const char *before = c == table ? "" : separator ? separator : c[1].name ? ", " : " or ";
        size_t n = strlen(out);
        snprintf(out + n, size - n, "%s%s", before, c->name);
    }
}

/* Appends the phrases of a choice table as one list: "a, b, or c" when there are more than
 * two or one holds a comma, else "a or b". */
static void append_phrases(char *out, size_t size, const sv_choice *table)
{
    int count = 0;
    bool commas = false;
    for (const sv_choice *c = table; c->name; c++, count++)
        commas |= strchr(c->help, ',') != NULL;
    const char *last = count > 2 || commas ? ", or " : " or ";
    for (const sv_choice *c = table; c->name; c++) {
        const char *before = c == table ? "" : c[1].name ? ", " : last;
        size_t n = strlen(out);
        snprintf(out + n, size - n, "%s%s", before, c->help);
    }
}

static void append_default(char *out, size_t size, const option *o)
{
    size_t n = strlen(out);
    if (o->command)
        snprintf(out + n, size - n, "%s", sv_cvar_find(o->command)->default_value);
    else if (o->kind == OPT_CHOICE)
        snprintf(out + n, size - n, "%s", sv_choice_name(o->choices, (int)o->init));
    else
        snprintf(out + n, size - n, "%g", o->init);
}

/* An option's help with its {placeholders} filled in. */
static void fill_help(char *out, size_t size, const option *o)
{
    out[0] = 0;
    for (const char *p = o->help; *p;) {
        size_t n = strlen(out);
        if (!strncmp(p, "{default}", 9)) {
            append_default(out, size, o);
            p += 9;
        } else if (!strncmp(p, "{max}", 5)) {
            snprintf(out + n, size - n, "%d", o->hi);
            p += 5;
        } else if (!strncmp(p, "{names}", 7)) {
            append_names(out, size, o->choices, " | ");
            p += 7;
        } else if (!strncmp(p, "{phrases}", 9)) {
            append_phrases(out, size, o->choices);
            p += 9;
        } else if (n + 1 < size) {
            out[n] = *p++;
            out[n + 1] = 0;
        } else {
            break;
        }
    }
}

/* Prints "  NAME VALUE" and the text from HELP_COLUMN on, its words wrapped at HELP_WIDTH. */
static void print_option(FILE *out, const option *o)
{
    char left[64], text[1024];
    snprintf(left, sizeof left, "%s%s%s", o->name, o->value ? " " : "", o->value ? o->value : "");
    fill_help(text, sizeof text, o);
    int column = (int)strlen(left) > HELP_COLUMN - 4 ? fprintf(out, "  %s  ", left)
                                                    : fprintf(out, "  %-*s", HELP_COLUMN - 2, left);
    bool line_empty = true;
    for (const char *word = text; *word;) {
        size_t len = strcspn(word, " ");
        if (!line_empty && column + 1 + (int)len > HELP_WIDTH) {
            column = fprintf(out, "\n%*s", HELP_COLUMN, "") - 1;
            line_empty = true;
        }
        column += fprintf(out, "%s%.*s", line_empty ? "" : " ", (int)len, word);
        line_empty = false;
        word += len;
        word += strspn(word, " ");
    }
    fputc('\n', out);
}

static void usage(FILE *out)
{
    fputs("usage: qwsv -basedir DIR -map NAME [options] [+set NAME VALUE] [+map NAME] [+exec FILE] "
          "...\n"
          "A QuakeWorld protocol 28 deathmatch server (the Atomic Quake frame: U, RP, S).\n"
          "\n", out);
    for (size_t i = 0; i < NUM_OPTIONS; i++)
        if (options[i].help)
            print_option(out, &options[i]);
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

static bool parse_int(const option *o, const char *v, int *out)
{
    char *end;
    long x = v ? strtol(v, &end, 10) : 0;
    if (!v || *end || x < o->lo || x > o->hi) {
        fprintf(stderr, "qwsv: %s needs a number from %d to %d (got %s)\n", o->name, o->lo,
                o->hi, v ? v : "nothing");
        return false;
    }
    *out = (int)x;
    return true;
}

static bool parse_seconds(const option *o, const char *v, double *out)
{
    char *end;
    double x = v ? strtod(v, &end) : -1;
    if (!v || *end || x < 0) {
        fprintf(stderr, "qwsv: %s needs a number of seconds >= 0 (got %s)\n", o->name,
                v ? v : "nothing");
        return false;
    }
    *out = x;
    return true;
}

static bool parse_choice(const option *o, const char *v, int *out)
{
    const sv_choice *c = v ? sv_choice_named(o->choices, v) : NULL;
    if (!c) {
        char names[256] = "";
        append_names(names, sizeof names, o->choices, NULL);
        fprintf(stderr, "qwsv: %s must be %s (got %s)\n", o->name, names, v ? v : "nothing");
        return false;
    }
    *out = c->value;
    return true;
}

/* Applies option o with the word after it, v (NULL at the end of the command line). False
 * after a message when v is missing or wrong. */
static bool apply(const option *o, const char *v, sv_options *opts)
{
    void *field = (char *)opts + o->field;
    bool ok = true;
    switch (o->kind) {
    case OPT_HELP:
        usage(stdout);
        exit(0);
    case OPT_VERSION:
        printf("qwsv %s (QuakeWorld protocol %d; sync modes lock, region%s)\n", SV_VERSION,
               QW_PROTOCOL_VERSION, SV_HAVE_TM ? ", stm, stmlock (libitm ABI)" : "");
        exit(0);
    case OPT_FLAG:
        *(bool *)field = true;
        break;
    case OPT_INT:
        ok = parse_int(o, v, field);
        break;
    case OPT_SECONDS:
        ok = parse_seconds(o, v, field);
        break;
    case OPT_CHOICE:
        ok = parse_choice(o, v, field);
        break;
    case OPT_TEXT:
    case OPT_COMMAND:
        if (!v)
            fprintf(stderr, "qwsv: %s needs %s\n", o->name, o->needs);
        else if (o->kind == OPT_TEXT)
            *(const char **)field = v;
        ok = v != NULL;
        break;
    }
    if (ok && o->command)
        sv_cmdline_add(o->command, v);
    return ok;
}

/* Every option's default, but those of the options that stand for console commands (their
 * cvars' defaults are in place already). */
static void set_defaults(sv_options *opts)
{
    for (size_t i = 0; i < NUM_OPTIONS; i++) {
        const option *o = &options[i];
        void *field = (char *)opts + o->field;
        if (o->command)
            continue;
        if (o->kind == OPT_INT || o->kind == OPT_CHOICE)
            *(int *)field = (int)o->init;
        else if (o->kind == OPT_SECONDS)
            *(double *)field = o->init;
    }
}

static const option *find_option(const char *name)
{
    for (size_t i = 0; i < NUM_OPTIONS; i++)
        if (!strcmp(options[i].name, name))
            return &options[i];
    return NULL;
}

bool sv_options_parse(int argc, char **argv, sv_options *opts)
{
    set_defaults(opts);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (a[0] == '+') {
            i = sv_cmdline_plus(argc, argv, i);
            continue;
        }
        const option *o = find_option(a);
        if (!o) {
            fprintf(stderr, "qwsv: unknown option %s (see qwsv --help)\n", a);
            return false;
        }
        bool takes_value = o->kind != OPT_HELP && o->kind != OPT_VERSION && o->kind != OPT_FLAG;
        if (!apply(o, takes_value && i + 1 < argc ? argv[i + 1] : NULL, opts))
            return false;
        i += takes_value;
    }
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
