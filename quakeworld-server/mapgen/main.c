/* qwmapgen: writes a BSP29 arena map (one closed room with pillars, crates, spawns, items,
 * rocket launchers, teleporters) that both our server and real QuakeWorld servers load. */
#include "mapgen.h"
#include "bsp.h"

#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* What the command line asks for. */
typedef struct command_line {
    qwmg_arena_options arena;
    const char *output, *message;
    int no_faces;
    int num_extra;                   /* --box, --water, --slime, --lava */
    qwmg_box extra[QWMG_MAX_BOXES];
} command_line;

typedef enum option_kind {
    OPT_HELP,  /* prints --help */
    OPT_TEXT,  /* a string */
    OPT_FLAG,  /* sets an int to 1 */
    OPT_FLOAT, /* a number from lo to hi, stored as a float */
    OPT_INT,   /* ... as an int */
    OPT_UINT,  /* ... as an unsigned */
    OPT_BOX,   /* X1,Y1,Z1,X2,Y2,Z2: one more of the extra boxes, of `contents` */
} option_kind;

/* One option: its long name (--NAME), its letter (-L) if any, what follows it, its --help
 * lines (NULL: not listed), and what it sets. One table drives getopt_long, --help and the
 * messages about a bad value. */
typedef struct option_spec {
    const char *name;
    char letter;
    const char *value;
    const char *help;
    option_kind kind;
    size_t field;                    /* offsetof(command_line, what it sets) */
    double lo, hi;
    int contents;                    /* OPT_BOX */
} option_spec;

#define FIELD(f) .field = offsetof(command_line, f)

static const option_spec options[] = {
    {"output", 'o', "FILE", "map to write, e.g. DIR/id1/maps/arena.bsp (folders are created)",
     OPT_TEXT, FIELD(output)},
    {"size", 0, "N", "room width and depth in units (default 1024, 256..7680)", OPT_FLOAT,
     FIELD(arena.size), 256, 7680},
    {"height", 0, "N", "room height (default 256, 128..4000)", OPT_FLOAT, FIELD(arena.height),
     128, 4000},
    {"pillars", 0, "N", "floor-to-ceiling pillars, 64..128 wide (default 4)", OPT_INT,
     FIELD(arena.pillars), 0, QWMG_MAX_BOXES},
    {"crates", 0, "N", "crates on the floor, 32..64 wide (default 6)", OPT_INT,
     FIELD(arena.crates), 0, QWMG_MAX_BOXES},
    {"spawns", 0, "N", "info_player_deathmatch spawn points (default 8)", OPT_INT,
     FIELD(arena.spawns), 1, 64},
    {"items", 0, "LIST", "comma-separated item classnames, one of each listed (default\n"
     "item_health,item_health,item_armor1,weapon_rocketlauncher,\n"
     "item_rockets,item_shells); \"\" for none", OPT_TEXT, FIELD(arena.items)},
    {"launchers", 0, "N", "rocket launchers, each with a box of rockets, besides --items;\n"
     "launcher n lies on spawn point n (whoever spawns there starts\n"
     "armed), the rockets anywhere (default 0, at most 128)", OPT_INT, FIELD(arena.launchers),
     0, QWMG_MAX_ENTITIES / 2},
    {"teleporters", 0, "N", "teleporters: invisible trigger_teleport pads (64 units wide,\n"
     "brush models *1..*N) sending players to an\n"
     "info_teleport_destination at least a quarter of the room away\n"
     "(default 0, at most 32)", OPT_INT, FIELD(arena.teleporters), 0, QWMG_MAX_TRIGGERS},
    {"teleport-destinations", 0, "M", "destinations of those pads, shared in turn (pad n\n"
     "sends to destination n mod M): fewer than N crowd the\n"
     "arrivals, who telefrag each other (default 0: one per pad)", OPT_INT,
     FIELD(arena.teleport_destinations), 0, QWMG_MAX_TRIGGERS},
    {"seed", 0, "N", "layout seed (default 1); same options + seed = same file", OPT_UINT,
     FIELD(arena.seed), 0, 4294967295.0},
    {"box", 0, "X1,Y1,Z1,X2,Y2,Z2", "add a solid box (repeatable; e.g. stairs for tests)",
     OPT_BOX, .contents = QW_CONTENTS_SOLID},
    {"water", 0, "X1,Y1,Z1,X2,Y2,Z2", "add a water volume (repeatable); also --slime, --lava",
     OPT_BOX, .contents = QW_CONTENTS_WATER},
    {"slime", 0, "X1,Y1,Z1,X2,Y2,Z2", NULL, OPT_BOX, .contents = QW_CONTENTS_SLIME},
    {"lava", 0, "X1,Y1,Z1,X2,Y2,Z2", NULL, OPT_BOX, .contents = QW_CONTENTS_LAVA},
    {"message", 0, "TEXT", "level title (default \"qwmapgen arena\")", OPT_TEXT, FIELD(message)},
    {"no-faces", 0, NULL, "write collision data only (nothing for clients to draw)", OPT_FLAG,
     FIELD(no_faces)},
    {"help", 'h', NULL, "this text", .kind = OPT_HELP},
};
#define NUM_OPTIONS (sizeof options / sizeof options[0])

/* --help: an option's text starts in this column. */
#define HELP_COLUMN 23

static void usage(FILE *out)
{
    fputs("Usage: qwmapgen -o FILE.bsp [options]\n"
          "Writes a BSP29 QuakeWorld map: one closed room (floor at z=0, centred on x=y=0) with\n"
          "axis-aligned pillars and crates, deathmatch spawn points, items, rocket launchers and\n"
          "teleporters.\n"
          "\n", out);
    for (size_t i = 0; i < NUM_OPTIONS; i++) {
        const option_spec *o = &options[i];
        if (!o->help)
            continue;
        char left[64], letter[8] = "    ";
        if (o->letter)
            snprintf(letter, sizeof letter, "-%c, ", o->letter);
        snprintf(left, sizeof left, "%s--%s%s%s", letter, o->name, o->value ? " " : "",
                 o->value ? o->value : "");
        if ((int)strlen(left) > HELP_COLUMN - 4)
            fprintf(out, "  %s  ", left);
        else
            fprintf(out, "  %-*s", HELP_COLUMN - 2, left);
        for (const char *line = o->help; *line;) {
            size_t len = strcspn(line, "\n");
            fprintf(out, "%*s%.*s\n", line == o->help ? 0 : HELP_COLUMN, "", (int)len, line);
            line += len + (line[len] == '\n');
        }
    }
    fputs("\n"
          "Prints the map checksums (checksum2 is what clients send) and counts on success.\n",
          out);
}

static int parse_number(const char *opt, const char *s, double lo, double hi, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || *end || v < lo || v > hi) {
        fprintf(stderr, "qwmapgen: %s needs a number in %g..%g, got \"%s\"\n", opt, lo, hi, s);
        return -1;
    }
    *out = v;
    return 0;
}

/* Stores option o's argument in *cl; -1 after a message when it is wrong. */
static int apply(const option_spec *o, const char *arg, command_line *cl)
{
    void *field = (char *)cl + o->field;
    char name[64];
    snprintf(name, sizeof name, "--%s", o->name);
    double v;
    switch (o->kind) {
    case OPT_HELP:
        return 0;
    case OPT_TEXT:
        *(const char **)field = arg;
        return 0;
    case OPT_FLAG:
        *(int *)field = 1;
        return 0;
    case OPT_FLOAT:
    case OPT_INT:
    case OPT_UINT:
        if (parse_number(name, arg, o->lo, o->hi, &v))
            return -1;
        if (o->kind == OPT_FLOAT)
            *(float *)field = (float)v;
        else if (o->kind == OPT_INT)
            *(int *)field = (int)v;
        else
            *(unsigned *)field = (unsigned)v;
        return 0;
    case OPT_BOX: {
        qwmg_box *b = &cl->extra[cl->num_extra];
        if (cl->num_extra >= QWMG_MAX_BOXES ||
            sscanf(arg, "%f,%f,%f,%f,%f,%f", &b->mins[0], &b->mins[1], &b->mins[2],
                   &b->maxs[0], &b->maxs[1], &b->maxs[2]) != 6) {
            fprintf(stderr, "qwmapgen: %s needs six comma-separated numbers "
                    "X1,Y1,Z1,X2,Y2,Z2, got \"%s\"\n", name, arg);
            return -1;
        }
        b->contents = o->contents;
        cl->num_extra++;
        return 0;
    }
    }
    return -1;
}

/* Reads the command line into *cl (getopt_long, from the table). Returns 0 to go on, 1 after
 * --help, 2 after a message about a bad command line. */
static int parse_command_line(int argc, char **argv, command_line *cl)
{
    static struct option longopts[NUM_OPTIONS + 1];
    char letters[2 * NUM_OPTIONS + 1] = "";
    for (size_t i = 0; i < NUM_OPTIONS; i++) {
        const option_spec *o = &options[i];
        bool has_arg = o->kind != OPT_HELP && o->kind != OPT_FLAG;
        longopts[i] = (struct option){o->name, has_arg ? required_argument : no_argument, NULL,
                                      256 + (int)i};
        if (o->letter) {
            size_t n = strlen(letters);
            letters[n] = o->letter;
            letters[n + 1] = has_arg ? ':' : '\0';
            letters[n + 2] = '\0';
        }
    }
    qwmg_arena_defaults(&cl->arena);
    int c;
    while ((c = getopt_long(argc, argv, letters, longopts, NULL)) != -1) {
        const option_spec *o = NULL;
        for (size_t i = 0; i < NUM_OPTIONS; i++)
            if (c == 256 + (int)i || (options[i].letter && c == options[i].letter))
                o = &options[i];
        if (!o) {
            usage(stderr);
            return 2;
        }
        if (o->kind == OPT_HELP) {
            usage(stdout);
            return 1;
        }
        if (apply(o, optarg, cl) != 0)
            return 2;
    }
    if (optind < argc) {
        fprintf(stderr, "qwmapgen: unexpected argument \"%s\" (see --help)\n", argv[optind]);
        return 2;
    }
    if (!cl->output) {
        fprintf(stderr, "qwmapgen: -o FILE.bsp is required (see --help)\n");
        return 2;
    }
    return 0;
}

/* Creates the folders leading to path (like mkdir -p of its dirname). */
static int make_parents(const char *path)
{
    char buf[4096];
    if (strlen(path) >= sizeof buf)
        return -1;
    strcpy(buf, path);
    for (char *p = buf + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(buf, 0777) < 0 && errno != EEXIST)
            return -1;
        *p = '/';
    }
    return 0;
}

int main(int argc, char **argv)
{
    static command_line cl;
    int rc = parse_command_line(argc, argv, &cl);
    if (rc)
        return rc == 1 ? 0 : rc;

    static qwmg_map map;
    char err[512];
    if (qwmg_arena_layout(&map, &cl.arena, err, sizeof err) < 0) {
        fprintf(stderr, "qwmapgen: %s\n", err);
        return 1;
    }
    for (int i = 0; i < cl.num_extra; i++) {
        const qwmg_box *b = &cl.extra[i];
        int added = b->contents == QW_CONTENTS_SOLID
                     ? qwmg_add_box(&map, b->mins, b->maxs, err, sizeof err)
                     : qwmg_add_liquid(&map, b->mins, b->maxs, b->contents, err, sizeof err);
        if (added < 0) {
            fprintf(stderr, "qwmapgen: --%s: %s\n", b->contents == QW_CONTENTS_SOLID ? "box"
                    : "water/--slime/--lava", err);
            return 2;
        }
    }
    if (cl.message)
        snprintf(map.message, sizeof map.message, "%s", cl.message);
    map.with_faces = !cl.no_faces;

    uint8_t *bsp;
    size_t len;
    if (qwmg_build_bsp(&map, &bsp, &len, err, sizeof err) < 0) {
        fprintf(stderr, "qwmapgen: %s\n", err);
        return 1;
    }
    if (make_parents(cl.output) < 0) {
        fprintf(stderr, "qwmapgen: cannot create the folders for %s: %s\n", cl.output, strerror(errno));
        free(bsp);
        return 1;
    }
    FILE *f = fopen(cl.output, "wb");
    if (!f || fwrite(bsp, 1, len, f) != len || fclose(f) != 0) {
        fprintf(stderr, "qwmapgen: cannot write %s: %s\n", cl.output, strerror(errno));
        free(bsp);
        return 1;
    }
    /* Self-check: the file must load with the same validation the server applies. */
    qw_bsp *check = qw_bsp_load_memory(bsp, len, cl.output, err, sizeof err);
    if (!check) {
        fprintf(stderr, "qwmapgen: internal error, the generated map does not load: %s\n", err);
        free(bsp);
        return 1;
    }
    printf("%s: %zu bytes, %d boxes, %d entities, %d leafs, %d clipnodes, checksum %u "
           "checksum2 %u\n", cl.output, len, map.num_boxes, map.num_entities + 1, check->num_leafs,
           check->num_clipnodes, check->checksum, check->checksum2);
    qw_bsp_free(check);
    free(bsp);
    return 0;
}
