/* qwmapgen's library (build/lib/libqwmapgen.a): turns a room plus axis-aligned solid boxes into
 * a BSP29 map file, and lays out a random arena (pillars, crates, spawns, items).
 *
 * The map is one closed room: everything outside room_mins..room_maxs is solid (walls of
 * `wall` units are what the bounds and faces show), and every box is solid. The BSP trees are
 * built directly from the boxes, splitting on their faces: hull 0 (nodes + leafs), hull 1
 * (player box) and hull 2 (large box) as clipnodes with the boxes expanded by the hull size. */
#ifndef QWMG_MAPGEN_H
#define QWMG_MAPGEN_H

#include <stddef.h>
#include <stdint.h>

#define QWMG_MAX_BOXES 256
#define QWMG_MAX_ENTITIES 256

typedef struct qwmg_box {
    float mins[3], maxs[3];
    int contents;              /* QW_CONTENTS_SOLID (-2) or a liquid: WATER -3, SLIME -4, LAVA -5 */
} qwmg_box;

typedef struct qwmg_entity {
    char classname[64];
    float origin[3];
    float angle;               /* yaw in degrees */
} qwmg_entity;

typedef struct qwmg_map {
    float room_mins[3], room_maxs[3];   /* the empty interior */
    float wall;                         /* wall thickness (bounds, faces) */
    int num_boxes;
    qwmg_box boxes[QWMG_MAX_BOXES];     /* solid boxes and liquid volumes inside the room */
    int num_entities;
    qwmg_entity entities[QWMG_MAX_ENTITIES];
    char message[64];                   /* worldspawn "message" (level title) */
    int with_faces;                     /* write renderable faces (else only collision data) */
} qwmg_map;

/* Empty room of size x size x height centred on the origin in X/Y, floor at z = 0. */
void qwmg_map_init(qwmg_map *map, float size, float height);
/* Adds a solid box / an entity; -1 (with a message) when full or the box is empty/outside. */
int qwmg_add_box(qwmg_map *map, const float mins[3], const float maxs[3], char *err, size_t errlen);
/* Adds a liquid volume (contents -3 water, -4 slime, -5 lava): only hull 0 sees it (point
 * contents, player water level); boxes still collide as if it were empty. */
int qwmg_add_liquid(qwmg_map *map, const float mins[3], const float maxs[3], int contents,
                    char *err, size_t errlen);
int qwmg_add_entity(qwmg_map *map, const char *classname, const float origin[3], float angle,
                    char *err, size_t errlen);

/* Writes the BSP29 file into a malloc'ed buffer (*out, *len). Returns 0, or -1 with a message. */
int qwmg_build_bsp(const qwmg_map *map, uint8_t **out, size_t *len, char *err, size_t errlen);

/* Random arena layout. */
typedef struct qwmg_arena_options {
    float size, height;
    int pillars, crates, spawns;
    const char *items;         /* comma-separated classnames, each placed once */
    unsigned seed;
} qwmg_arena_options;

void qwmg_arena_defaults(qwmg_arena_options *opt);
/* Fills map with the room, pillars, crates, spawn points and items, placed so that nothing
 * overlaps and every spawn has room for a player. Returns 0, or -1 with a message. */
int qwmg_arena_layout(qwmg_map *map, const qwmg_arena_options *opt, char *err, size_t errlen);

#endif
