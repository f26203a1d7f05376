/* Random arena layout: pillars (floor to ceiling), crates on the floor, then spawn points and
 * items in the free space, all by rejection sampling with a seeded generator so that the same
 * options always give the same map. */
#include "mapgen.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define GRID 16.0f          /* positions and sizes snap to this */
#define PASSAGE 80.0f       /* free gap kept between boxes so players (32 wide) get through */
#define WALL_GAP 64.0f      /* boxes keep this far from the walls */
#define ATTEMPTS 2000

typedef struct rng { uint64_t s; } rng;

static uint32_t rng_next(rng *r)
{
    /* splitmix64: tiny, good enough for a layout, identical on every platform */
    uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return (uint32_t)((z ^ (z >> 31)) >> 32);
}

/* Uniform multiple of GRID in [lo, hi]. */
static float rng_grid(rng *r, float lo, float hi)
{
    int steps = (int)floorf((hi - lo) / GRID);
    if (steps <= 0)
        return lo;
    return lo + GRID * (float)(rng_next(r) % (uint32_t)(steps + 1));
}

void qwmg_arena_defaults(qwmg_arena_options *opt)
{
    opt->size = 1024;
    opt->height = 256;
    opt->pillars = 4;
    opt->crates = 6;
    opt->spawns = 8;
    opt->items = "item_health,item_health,item_armor1,weapon_rocketlauncher,item_rockets,"
                 "item_shells";
    opt->seed = 1;
}

/* Whether the box mins..maxs, grown by gap on each side in X/Y, touches any placed box. */
static int clear_of_boxes(const qwmg_map *map, const float mins[3], const float maxs[3], float gap)
{
    for (int i = 0; i < map->num_boxes; i++) {
        const qwmg_box *b = &map->boxes[i];
        if (mins[0] - gap < b->maxs[0] && maxs[0] + gap > b->mins[0] &&
            mins[1] - gap < b->maxs[1] && maxs[1] + gap > b->mins[1] &&
            mins[2] < b->maxs[2] && maxs[2] > b->mins[2])
            return 0;
    }
    return 1;
}

static int clear_of_entities(const qwmg_map *map, const float origin[3], float dist)
{
    for (int i = 0; i < map->num_entities; i++) {
        float dx = map->entities[i].origin[0] - origin[0];
        float dy = map->entities[i].origin[1] - origin[1];
        if (dx * dx + dy * dy < dist * dist)
            return 0;
    }
    return 1;
}

static int place_boxes(qwmg_map *map, rng *r, int count, int pillar, char *err, size_t errlen)
{
    for (int n = 0; n < count; n++) {
        int placed = 0;
        for (int attempt = 0; attempt < ATTEMPTS && !placed; attempt++) {
            float side = pillar ? rng_grid(r, 64, 128) : rng_grid(r, 32, 64);
            float height = pillar ? map->room_maxs[2] - map->room_mins[2]
                                  : (rng_next(r) % 2 ? side : 2 * side);
            float lo = map->room_mins[0] + WALL_GAP, hi = map->room_maxs[0] - WALL_GAP - side;
            if (hi < lo)
                break;
            float mins[3] = {rng_grid(r, lo, hi), rng_grid(r, map->room_mins[1] + WALL_GAP,
                                                           map->room_maxs[1] - WALL_GAP - side),
                             map->room_mins[2]};
            float maxs[3] = {mins[0] + side, mins[1] + side, mins[2] + height};
            if (maxs[2] > map->room_maxs[2] - (pillar ? 0 : 96))
                continue;   /* crates leave head room */
            if (!clear_of_boxes(map, mins, maxs, PASSAGE))
                continue;
            if (qwmg_add_box(map, mins, maxs, err, errlen) < 0)
                return -1;
            placed = 1;
        }
        if (!placed) {
            snprintf(err, errlen, "could not place %s %d of %d in a %gx%g room: use a larger "
                     "--size or fewer %s", pillar ? "pillar" : "crate", n + 1, count,
                     map->room_maxs[0] - map->room_mins[0], map->room_maxs[1] - map->room_mins[1],
                     pillar ? "--pillars" : "--crates");
            return -1;
        }
    }
    return 0;
}

/* A point entity whose box (half-width `half`, height `height` above the floor) is clear. */
static int place_entity(qwmg_map *map, rng *r, const char *classname, float z, float half,
                        float height, float spacing, char *err, size_t errlen)
{
    for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
        float x = rng_grid(r, map->room_mins[0] + 48, map->room_maxs[0] - 48);
        float y = rng_grid(r, map->room_mins[1] + 48, map->room_maxs[1] - 48);
        float mins[3] = {x - half, y - half, map->room_mins[2]};
        float maxs[3] = {x + half, y + half, map->room_mins[2] + height};
        float origin[3] = {x, y, map->room_mins[2] + z};
        if (!clear_of_boxes(map, mins, maxs, 16) || !clear_of_entities(map, origin, spacing))
            continue;
        /* Face the middle of the room. */
        float angle = atan2f(-y, -x) * 180.0f / 3.14159265f;
        angle = 45.0f * roundf(angle / 45.0f);
        if (angle < 0)
            angle += 360;
        return qwmg_add_entity(map, classname, origin, angle, err, errlen);
    }
    snprintf(err, errlen, "no free spot left for %s (entity %d): use a larger --size or fewer "
             "pillars, crates, spawns or items", classname, map->num_entities + 1);
    return -1;
}

int qwmg_arena_layout(qwmg_map *map, const qwmg_arena_options *opt, char *err, size_t errlen)
{
    if (!(opt->size >= 256 && opt->size <= 7680)) {
        snprintf(err, errlen, "--size %g out of range: 256..7680 (coordinates must stay "
                 "within +-4096)", opt->size);
        return -1;
    }
    if (!(opt->height >= 128 && opt->height <= 4000)) {
        snprintf(err, errlen, "--height %g out of range: 128..4000", opt->height);
        return -1;
    }
    if (opt->pillars < 0 || opt->crates < 0 || opt->spawns < 1 ||
        opt->pillars + opt->crates > QWMG_MAX_BOXES) {
        snprintf(err, errlen, "bad counts: --pillars and --crates must be >= 0 (together at most "
                 "%d), --spawns >= 1", QWMG_MAX_BOXES);
        return -1;
    }
    qwmg_map_init(map, opt->size, opt->height);
    rng r = {opt->seed * 0x2545F4914F6CDD1Dull + 1};
    if (place_boxes(map, &r, opt->pillars, 1, err, errlen) < 0 ||
        place_boxes(map, &r, opt->crates, 0, err, errlen) < 0)
        return -1;
    /* Spawn origins are 24 above the floor (the player box reaches 24 below its origin). */
    for (int i = 0; i < opt->spawns; i++)
        if (place_entity(map, &r, "info_player_deathmatch", 24, 16, 56, 96, err, errlen) < 0)
            return -1;
    if (place_entity(map, &r, "info_player_start", 24, 16, 56, 64, err, errlen) < 0)
        return -1;
    const char *p = opt->items ? opt->items : "";
    while (*p) {
        const char *comma = strchr(p, ',');
        size_t n = comma ? (size_t)(comma - p) : strlen(p);
        char name[64];
        if (n >= sizeof name) {
            snprintf(err, errlen, "item name too long in --items: %.*s", (int)n, p);
            return -1;
        }
        memcpy(name, p, n);
        name[n] = '\0';
        if (n && place_entity(map, &r, name, 8, 40, 56, 64, err, errlen) < 0)
            return -1;
        p += n + (comma ? 1 : 0);
    }
    return 0;
}
