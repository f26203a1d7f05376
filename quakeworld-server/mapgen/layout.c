/* Random arena layout: pillars (floor to ceiling), crates on the floor, then spawn points,
 * items, rocket launchers and teleporters in the free space, all by rejection sampling with a
 * seeded generator so that the same options always give the same map. */
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
    opt->launchers = 0;
    opt->teleporters = 0;
    opt->teleport_destinations = 0;
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

/* A free spot for something whose box (half-width `half`, height `height` above the floor) is
 * clear of boxes, `spacing` from every entity and at least `away_dist` from each of the
 * `num_away` points `away`, `margin` from the walls: its origin (`z` above the floor) and a
 * yaw that faces the middle of the room. -1 when none is found. */
static int find_spot(const qwmg_map *map, rng *r, float z, float half, float height,
                     float spacing, float margin, const float (*away)[3], int num_away,
                     float away_dist, float origin[3], float *angle)
{
    for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
        float x = rng_grid(r, map->room_mins[0] + margin, map->room_maxs[0] - margin);
        float y = rng_grid(r, map->room_mins[1] + margin, map->room_maxs[1] - margin);
        float mins[3] = {x - half, y - half, map->room_mins[2]};
        float maxs[3] = {x + half, y + half, map->room_mins[2] + height};
        float at[3] = {x, y, map->room_mins[2] + z};
        if (!clear_of_boxes(map, mins, maxs, 16) || !clear_of_entities(map, at, spacing))
            continue;
        int near = 0;
        for (int i = 0; i < num_away && !near; i++)
            near = (x - away[i][0]) * (x - away[i][0]) + (y - away[i][1]) * (y - away[i][1]) <
                   away_dist * away_dist;
        if (near)
            continue;
        memcpy(origin, at, sizeof at);
        *angle = atan2f(-y, -x) * 180.0f / 3.14159265f;
        *angle = 45.0f * roundf(*angle / 45.0f);
        if (*angle < 0)
            *angle += 360;
        return 0;
    }
    return -1;
}

static int no_spot(const qwmg_map *map, const char *what, char *err, size_t errlen)
{
    snprintf(err, errlen, "no free spot left for %s (entity %d): use a larger --size or fewer "
             "pillars, crates, spawns, items, launchers or teleporters", what,
             map->num_entities + 1);
    return -1;
}

/* A point entity whose box (half-width `half`, height `height` above the floor) is clear. */
static int place_entity(qwmg_map *map, rng *r, const char *classname, float z, float half,
                        float height, float spacing, char *err, size_t errlen)
{
    float origin[3], angle;
    if (find_spot(map, r, z, half, height, spacing, 48, NULL, 0, 0, origin, &angle) < 0)
        return no_spot(map, classname, err, errlen);
    return qwmg_add_entity(map, classname, origin, angle, err, errlen);
}

/* Rocket launcher n (from 0): on spawn point n while there is one, so that whoever spawns
 * there starts armed (weapons come back 30 s after a pickup), else in free space; its box of
 * rockets in free space. */
static int place_launcher(qwmg_map *map, rng *r, int n, char *err, size_t errlen)
{
    int spawn = -1;
    for (int i = 0; i < map->num_entities && spawn < 0; i++)
        if (!strcmp(map->entities[i].classname, "info_player_deathmatch") && n-- == 0)
            spawn = i;
    if (spawn < 0) {
        if (place_entity(map, r, "weapon_rocketlauncher", 8, 40, 56, 64, err, errlen) < 0)
            return -1;
    } else {
        const qwmg_entity *s = &map->entities[spawn];
        float origin[3] = {s->origin[0], s->origin[1], map->room_mins[2] + 8};
        if (qwmg_add_entity(map, "weapon_rocketlauncher", origin, s->angle, err, errlen) < 0)
            return -1;
    }
    return place_entity(map, r, "item_rockets", 8, 40, 56, 64, err, errlen);
}

/* Teleporters: `pads` invisible trigger_teleport pads (64 wide and high, on the floor, well
 * inside the room), pad n sending to destination n modulo `dests` (fewer destinations than
 * pads: arrivals crowd there and telefrag each other), each info_teleport_destination on the
 * floor at least a quarter of the room from every pad that sends to it, facing the middle
 * (players arrive 27 units above it, as in id's QuakeC). */
#define PAD_HALF 32.0f
#define PAD_HEIGHT 64.0f
static int place_teleporters(qwmg_map *map, rng *r, int pads, int dests, char *err,
                             size_t errlen)
{
    float pad_at[QWMG_MAX_TRIGGERS][3];
    for (int n = 0; n < pads; n++) {
        char target[16];
        snprintf(target, sizeof target, "tele%d", n % dests + 1);
        float unused;
        if (find_spot(map, r, PAD_HEIGHT / 2, PAD_HALF, PAD_HEIGHT, 96, 96, NULL, 0, 0,
                      pad_at[n], &unused) < 0)
            return no_spot(map, "trigger_teleport", err, errlen);
        float mins[3] = {pad_at[n][0] - PAD_HALF, pad_at[n][1] - PAD_HALF, map->room_mins[2]};
        float maxs[3] = {pad_at[n][0] + PAD_HALF, pad_at[n][1] + PAD_HALF,
                         map->room_mins[2] + PAD_HEIGHT};
        if (!qwmg_add_trigger(map, "trigger_teleport", mins, maxs, target, err, errlen))
            return -1;
    }
    float quarter = (map->room_maxs[0] - map->room_mins[0]) / 4;
    for (int d = 0; d < dests; d++) {
        float senders[QWMG_MAX_TRIGGERS][3], dest[3], yaw;
        int num_senders = 0;
        for (int n = d; n < pads; n += dests)
            memcpy(senders[num_senders++], pad_at[n], sizeof pad_at[n]);
        if (find_spot(map, r, 0, 16, 56, 96, 48, (const float (*)[3])senders, num_senders,
                      quarter, dest, &yaw) < 0)
            return no_spot(map, "info_teleport_destination", err, errlen);
        if (qwmg_add_entity(map, "info_teleport_destination", dest, yaw, err, errlen) < 0)
            return -1;
        snprintf(map->entities[map->num_entities - 1].targetname,
                 sizeof map->entities[0].targetname, "tele%d", d + 1);
    }
    return 0;
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
    if (opt->launchers < 0 || opt->launchers > QWMG_MAX_ENTITIES / 2) {
        snprintf(err, errlen, "bad count: --launchers must be 0..%d, got %d",
                 QWMG_MAX_ENTITIES / 2, opt->launchers);
        return -1;
    }
    if (opt->teleporters < 0 || opt->teleporters > QWMG_MAX_TRIGGERS) {
        snprintf(err, errlen, "bad count: --teleporters must be 0..%d (the most trigger "
                 "volumes a map may have here), got %d", QWMG_MAX_TRIGGERS, opt->teleporters);
        return -1;
    }
    int dests = opt->teleport_destinations ? opt->teleport_destinations : opt->teleporters;
    if (opt->teleport_destinations < 0 ||
        (opt->teleporters > 0 && dests > opt->teleporters)) {
        snprintf(err, errlen, "bad count: --teleport-destinations must be 1..--teleporters "
                 "(%d), or 0 for one per teleporter; got %d", opt->teleporters,
                 opt->teleport_destinations);
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
    for (int i = 0; i < opt->launchers; i++)
        if (place_launcher(map, &r, i, err, errlen) < 0)
            return -1;
    if (opt->teleporters > 0 && place_teleporters(map, &r, opt->teleporters, dests, err,
                                                  errlen) < 0)
        return -1;
    return 0;
}
