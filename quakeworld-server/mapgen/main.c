/* qwmapgen: writes a BSP29 arena map (one closed room with pillars, crates, spawns, items,
 * rocket launchers, teleporters) that both our server and real QuakeWorld servers load. */
#include "mapgen.h"
#include "bsp.h"

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmdline.h"

/* What the command line asks for. */
typedef struct command_line {
    qwmg_arena_options arena;
    const char *output, *message;
    int no_faces;
    int num_extra;                   /* --box, --water, --slime, --lava */
    qwmg_box extra[QWMG_MAX_BOXES];
} command_line;

#define FIELD(f) CMDLINE_FIELD(command_line, f)
#define WHOLE(f, lo, hi) CMDLINE_WHOLE, FIELD(f), .min = lo, .max = hi
#define BOX(kind) CMDLINE_CALL, .call = take_box, .init = kind, \
    .needs = "six comma-separated numbers X1,Y1,Z1,X2,Y2,Z2"

/* --box, --water, --slime, --lava: one more of the extra boxes, of the contents in init. */
static bool take_box(const cmdline_option *o, const char *value, void *target)
{
    command_line *cl = target;
    if (cl->num_extra >= QWMG_MAX_BOXES)
        return false;
    qwmg_box *b = &cl->extra[cl->num_extra];
    if (sscanf(value, "%f,%f,%f,%f,%f,%f", &b->mins[0], &b->mins[1], &b->mins[2], &b->maxs[0],
               &b->maxs[1], &b->maxs[2]) != 6)
        return false;
    b->contents = (int)o->init;
    cl->num_extra++;
    return true;
}

static const cmdline_option options[] = {
    {"--output", "FILE", "map to write, e.g. DIR/id1/maps/arena.bsp (folders are created)",
     CMDLINE_TEXT, FIELD(output), .aliases = "-o"},
    {"--size", "N", "room width and depth in units (default 1024, 256..7680)", CMDLINE_REAL,
     FIELD(arena.size), .lo = 256, .hi = 7680, .no_default = true},
    {"--height", "N", "room height (default 256, 128..4000)", CMDLINE_REAL,
     FIELD(arena.height), .lo = 128, .hi = 4000, .no_default = true},
    {"--pillars", "N", "floor-to-ceiling pillars, 64..128 wide (default 4)",
     WHOLE(arena.pillars, 0, QWMG_MAX_BOXES), .no_default = true},
    {"--crates", "N", "crates on the floor, 32..64 wide (default 6)",
     WHOLE(arena.crates, 0, QWMG_MAX_BOXES), .no_default = true},
    {"--spawns", "N", "info_player_deathmatch spawn points (default 8)",
     WHOLE(arena.spawns, 1, 64), .no_default = true},
    {"--items", "LIST", "comma-separated item classnames, one of each listed (default\n"
     "item_health,item_health,item_armor1,weapon_rocketlauncher,\n"
     "item_rockets,item_shells); \"\" for none", CMDLINE_TEXT, FIELD(arena.items),
     .empty_ok = true},
    {"--launchers", "N", "rocket launchers, each with a box of rockets, besides --items;\n"
     "launcher n lies on spawn point n (whoever spawns there starts\n"
     "armed), the rockets anywhere (default 0, at most 128)",
     WHOLE(arena.launchers, 0, QWMG_MAX_ENTITIES / 2), .no_default = true},
    {"--teleporters", "N", "teleporters: invisible trigger_teleport pads (64 units wide,\n"
     "brush models *1..*N) sending players to an\n"
     "info_teleport_destination at least a quarter of the room away\n"
     "(default 0, at most 32)", WHOLE(arena.teleporters, 0, QWMG_MAX_TRIGGERS),
     .no_default = true},
    {"--teleport-destinations", "M", "destinations of those pads, shared in turn (pad n\n"
     "sends to destination n mod M): fewer than N crowd the\n"
     "arrivals, who telefrag each other (default 0: one per pad)",
     WHOLE(arena.teleport_destinations, 0, QWMG_MAX_TRIGGERS), .no_default = true},
    {"--seed", "N", "layout seed (default 1); same options + seed = same file",
     WHOLE(arena.seed, 0, 4294967295u), .no_default = true},
    {"--box", "X1,Y1,Z1,X2,Y2,Z2", "add a solid box (repeatable; e.g. stairs for tests)",
     BOX(QW_CONTENTS_SOLID)},
    {"--water", "X1,Y1,Z1,X2,Y2,Z2", "add a water volume (repeatable); also --slime, --lava",
     BOX(QW_CONTENTS_WATER)},
    {"--slime", "X1,Y1,Z1,X2,Y2,Z2", NULL, BOX(QW_CONTENTS_SLIME)},
    {"--lava", "X1,Y1,Z1,X2,Y2,Z2", NULL, BOX(QW_CONTENTS_LAVA)},
    {"--message", "TEXT", "level title (default \"qwmapgen arena\")", CMDLINE_TEXT,
     FIELD(message), .empty_ok = true},
    {"--no-faces", NULL, "write collision data only (nothing for clients to draw)",
     CMDLINE_FLAG, FIELD(no_faces)},
    {"--help", NULL, "this text", CMDLINE_HELP, .aliases = "-h"},
    {NULL},
};

static void usage_head(FILE *out, const cmdline_program *p)
{
    (void)p;
    fputs("Usage: qwmapgen -o FILE.bsp [options]\n"
          "Writes a BSP29 QuakeWorld map: one closed room (floor at z=0, centred on x=y=0) with\n"
          "axis-aligned pillars and crates, deathmatch spawn points, items, rocket launchers and\n"
          "teleporters.\n"
          "\n", out);
}

static void usage_tail(FILE *out, const cmdline_program *p)
{
    (void)p;
    fputs("\n"
          "Prints the map checksums (checksum2 is what clients send) and counts on success.\n",
          out);
}

static const cmdline_program program = {
    .name = "qwmapgen", .options = options, .column = 23, .gnu = true, .short_column = true,
    .usage_head = usage_head, .usage_tail = usage_tail,
};

/* Reads the command line into *cl (the arena's defaults first). Returns 0 to go on, 1 after
 * --help, 2 after a message about a bad command line. */
static int parse_command_line(int argc, char **argv, command_line *cl)
{
    qwmg_arena_defaults(&cl->arena);
    cmdline_result r = cmdline_parse(&program, argc, argv, cl);
    if (r != CMDLINE_OK)
        return r == CMDLINE_DONE ? 1 : 2;
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
