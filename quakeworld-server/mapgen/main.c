/* qwmapgen: writes a BSP29 arena map (one closed room with pillars, crates, spawns, items,
 * rocket launchers, teleporters) that both our server and real QuakeWorld servers load. */
#include "mapgen.h"
#include "bsp.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static void usage(FILE *out)
{
    fprintf(out,
        "Usage: qwmapgen -o FILE.bsp [options]\n"
        "Writes a BSP29 QuakeWorld map: one closed room (floor at z=0, centred on x=y=0) with\n"
        "axis-aligned pillars and crates, deathmatch spawn points, items, rocket launchers and\n"
        "teleporters.\n"
        "\n"
        "  -o, --output FILE    map to write, e.g. DIR/id1/maps/arena.bsp (folders are created)\n"
        "      --size N         room width and depth in units (default 1024, 256..7680)\n"
        "      --height N       room height (default 256, 128..4000)\n"
        "      --pillars N      floor-to-ceiling pillars, 64..128 wide (default 4)\n"
        "      --crates N       crates on the floor, 32..64 wide (default 6)\n"
        "      --spawns N       info_player_deathmatch spawn points (default 8)\n"
        "      --items LIST     comma-separated item classnames, one of each listed (default\n"
        "                       item_health,item_health,item_armor1,weapon_rocketlauncher,\n"
        "                       item_rockets,item_shells); \"\" for none\n"
        "      --launchers N    rocket launchers, each with a box of rockets, besides --items;\n"
        "                       launcher n lies on spawn point n (whoever spawns there starts\n"
        "                       armed), the rockets anywhere (default 0, at most 128)\n"
        "      --teleporters N  teleporters: invisible trigger_teleport pads (64 units wide,\n"
        "                       brush models *1..*N) sending players to an\n"
        "                       info_teleport_destination at least a quarter of the room away\n"
        "                       (default 0, at most 32)\n"
        "      --teleport-destinations M  destinations of those pads, shared in turn (pad n\n"
        "                       sends to destination n mod M): fewer than N crowd the\n"
        "                       arrivals, who telefrag each other (default 0: one per pad)\n"
        "      --seed N         layout seed (default 1); same options + seed = same file\n"
        "      --box X1,Y1,Z1,X2,Y2,Z2  add a solid box (repeatable; e.g. stairs for tests)\n"
        "      --water X1,Y1,Z1,X2,Y2,Z2  add a water volume (repeatable); also --slime, --lava\n"
        "      --message TEXT   level title (default \"qwmapgen arena\")\n"
        "      --no-faces       write collision data only (nothing for clients to draw)\n"
        "  -h, --help           this text\n"
        "\n"
        "Prints the map checksums (checksum2 is what clients send) and counts on success.\n");
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

enum { OPT_SIZE = 256, OPT_HEIGHT, OPT_PILLARS, OPT_CRATES, OPT_SPAWNS, OPT_ITEMS, OPT_SEED,
       OPT_BOX, OPT_MESSAGE, OPT_NO_FACES, OPT_WATER, OPT_SLIME, OPT_LAVA, OPT_LAUNCHERS,
       OPT_TELEPORTERS, OPT_TELEPORT_DESTINATIONS };

int main(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"output", required_argument, 0, 'o'}, {"size", required_argument, 0, OPT_SIZE},
        {"height", required_argument, 0, OPT_HEIGHT}, {"pillars", required_argument, 0, OPT_PILLARS},
        {"crates", required_argument, 0, OPT_CRATES}, {"spawns", required_argument, 0, OPT_SPAWNS},
        {"items", required_argument, 0, OPT_ITEMS}, {"seed", required_argument, 0, OPT_SEED},
        {"box", required_argument, 0, OPT_BOX}, {"message", required_argument, 0, OPT_MESSAGE},
        {"no-faces", no_argument, 0, OPT_NO_FACES}, {"water", required_argument, 0, OPT_WATER},
        {"slime", required_argument, 0, OPT_SLIME}, {"lava", required_argument, 0, OPT_LAVA},
        {"launchers", required_argument, 0, OPT_LAUNCHERS},
        {"teleporters", required_argument, 0, OPT_TELEPORTERS},
        {"teleport-destinations", required_argument, 0, OPT_TELEPORT_DESTINATIONS},
        {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0}};
    qwmg_arena_options opt;
    qwmg_arena_defaults(&opt);
    const char *output = NULL, *message = NULL;
    int no_faces = 0, num_extra = 0;
    static qwmg_box extra[QWMG_MAX_BOXES];
    int c, optidx = 0;
    double v;
    while ((c = getopt_long(argc, argv, "o:h", longopts, &optidx)) != -1) {
        switch (c) {
        case 'o': output = optarg; break;
        case 'h': usage(stdout); return 0;
        case OPT_SIZE: if (parse_number("--size", optarg, 256, 7680, &v)) return 2; opt.size = (float)v; break;
        case OPT_HEIGHT: if (parse_number("--height", optarg, 128, 4000, &v)) return 2; opt.height = (float)v; break;
        case OPT_PILLARS: if (parse_number("--pillars", optarg, 0, QWMG_MAX_BOXES, &v)) return 2; opt.pillars = (int)v; break;
        case OPT_CRATES: if (parse_number("--crates", optarg, 0, QWMG_MAX_BOXES, &v)) return 2; opt.crates = (int)v; break;
        case OPT_SPAWNS: if (parse_number("--spawns", optarg, 1, 64, &v)) return 2; opt.spawns = (int)v; break;
        case OPT_ITEMS: opt.items = optarg; break;
        case OPT_LAUNCHERS: if (parse_number("--launchers", optarg, 0, QWMG_MAX_ENTITIES / 2, &v)) return 2; opt.launchers = (int)v; break;
        case OPT_TELEPORTERS: if (parse_number("--teleporters", optarg, 0, QWMG_MAX_TRIGGERS, &v)) return 2; opt.teleporters = (int)v; break;
        case OPT_TELEPORT_DESTINATIONS: if (parse_number("--teleport-destinations", optarg, 0, QWMG_MAX_TRIGGERS, &v)) return 2; opt.teleport_destinations = (int)v; break;
        case OPT_SEED: if (parse_number("--seed", optarg, 0, 4294967295.0, &v)) return 2; opt.seed = (unsigned)v; break;
        case OPT_MESSAGE: message = optarg; break;
        case OPT_NO_FACES: no_faces = 1; break;
        case OPT_BOX: case OPT_WATER: case OPT_SLIME: case OPT_LAVA: {
            qwmg_box *b = &extra[num_extra];
            if (num_extra >= QWMG_MAX_BOXES ||
                sscanf(optarg, "%f,%f,%f,%f,%f,%f", &b->mins[0], &b->mins[1], &b->mins[2],
                       &b->maxs[0], &b->maxs[1], &b->maxs[2]) != 6) {
                fprintf(stderr, "qwmapgen: --%s needs six comma-separated numbers "
                        "X1,Y1,Z1,X2,Y2,Z2, got \"%s\"\n", longopts[optidx].name, optarg);
                return 2;
            }
            b->contents = c == OPT_BOX ? QW_CONTENTS_SOLID : c == OPT_WATER ? QW_CONTENTS_WATER
                        : c == OPT_SLIME ? QW_CONTENTS_SLIME : QW_CONTENTS_LAVA;
            num_extra++;
            break;
        }
        default: usage(stderr); return 2;
        }
    }
    if (optind < argc) {
        fprintf(stderr, "qwmapgen: unexpected argument \"%s\" (see --help)\n", argv[optind]);
        return 2;
    }
    if (!output) {
        fprintf(stderr, "qwmapgen: -o FILE.bsp is required (see --help)\n");
        return 2;
    }

    static qwmg_map map;
    char err[512];
    if (qwmg_arena_layout(&map, &opt, err, sizeof err) < 0) {
        fprintf(stderr, "qwmapgen: %s\n", err);
        return 1;
    }
    for (int i = 0; i < num_extra; i++) {
        const qwmg_box *b = &extra[i];
        int rc = b->contents == QW_CONTENTS_SOLID
                     ? qwmg_add_box(&map, b->mins, b->maxs, err, sizeof err)
                     : qwmg_add_liquid(&map, b->mins, b->maxs, b->contents, err, sizeof err);
        if (rc < 0) {
            fprintf(stderr, "qwmapgen: --%s: %s\n", b->contents == QW_CONTENTS_SOLID ? "box"
                    : "water/--slime/--lava", err);
            return 2;
        }
    }
    if (message)
        snprintf(map.message, sizeof map.message, "%s", message);
    map.with_faces = !no_faces;

    uint8_t *bsp;
    size_t len;
    if (qwmg_build_bsp(&map, &bsp, &len, err, sizeof err) < 0) {
        fprintf(stderr, "qwmapgen: %s\n", err);
        return 1;
    }
    if (make_parents(output) < 0) {
        fprintf(stderr, "qwmapgen: cannot create the folders for %s: %s\n", output, strerror(errno));
        free(bsp);
        return 1;
    }
    FILE *f = fopen(output, "wb");
    if (!f || fwrite(bsp, 1, len, f) != len || fclose(f) != 0) {
        fprintf(stderr, "qwmapgen: cannot write %s: %s\n", output, strerror(errno));
        free(bsp);
        return 1;
    }
    /* Self-check: the file must load with the same validation the server applies. */
    qw_bsp *check = qw_bsp_load_memory(bsp, len, output, err, sizeof err);
    if (!check) {
        fprintf(stderr, "qwmapgen: internal error, the generated map does not load: %s\n", err);
        free(bsp);
        return 1;
    }
    printf("%s: %zu bytes, %d boxes, %d entities, %d leafs, %d clipnodes, checksum %u "
           "checksum2 %u\n", output, len, map.num_boxes, map.num_entities + 1, check->num_leafs,
           check->num_clipnodes, check->checksum, check->checksum2);
    qw_bsp_free(check);
    free(bsp);
    return 0;
}
