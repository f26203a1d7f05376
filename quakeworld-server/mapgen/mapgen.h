/* qwmapgen's library (build/lib/libqwmapgen.a): turns a room plus axis-aligned solid boxes into
 * a BSP29 map file, and lays out a random arena (pillars, crates, spawns, items, rocket
 * launchers, teleporters). Trigger volumes (the teleporters' pads) become brush models *1, *2,
 * ... with trees of their own, which only the entities naming them use.
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
#define QWMG_MAX_TRIGGERS 32

typedef struct qwmg_box {
    float mins[3], maxs[3];
    int contents;              /* QW_CONTENTS_SOLID (-2) or a liquid: WATER -3, SLIME -4, LAVA -5 */
} qwmg_box;

typedef struct qwmg_entity {
    char classname[64];
    float origin[3];           /* a brush entity's centre, for the layout (not written) */
    float angle;               /* yaw in degrees */
    char model[8];             /* a brush entity's model ("*1", ...); "" for a point entity */
    char target[16], targetname[16];   /* what it fires or sends to; its own name; or "" */
} qwmg_entity;

typedef struct qwmg_map {
    float room_mins[3], room_maxs[3];   /* the empty interior */
    float wall;                         /* wall thickness (bounds, faces) */
    int num_boxes;
    qwmg_box boxes[QWMG_MAX_BOXES];     /* solid boxes and liquid volumes inside the room */
    int num_entities;
    qwmg_entity entities[QWMG_MAX_ENTITIES];
    int num_triggers;
    qwmg_box triggers[QWMG_MAX_TRIGGERS];   /* trigger volumes: brush models *1, *2, ... */
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
/* Adds an invisible trigger volume as the map's next brush model and the brush entity that
 * uses it (classname, e.g. trigger_teleport, firing `target`). Returns the entity, or NULL
 * with a message when full or the volume is empty/outside the room. */
qwmg_entity *qwmg_add_trigger(qwmg_map *map, const char *classname, const float mins[3],
                              const float maxs[3], const char *target, char *err,
                              size_t errlen);

/* Writes the BSP29 file into a malloc'ed buffer (*out, *len). Returns 0, or -1 with a message. */
int qwmg_build_bsp(const qwmg_map *map, uint8_t **out, size_t *len, char *err, size_t errlen);

/* Random arena layout. */
typedef struct qwmg_arena_options {
    float size, height;
    int pillars, crates, spawns;
    const char *items;         /* comma-separated classnames, each placed once */
    int launchers;             /* rocket launchers (on the first spawn points), each with a
                                  box of rockets, beside items */
    int teleporters;           /* trigger_teleport pads (at most QWMG_MAX_TRIGGERS) */
    int teleport_destinations; /* their destinations, pads sharing them in turn; 0 = one each */
    unsigned seed;
} qwmg_arena_options;

void qwmg_arena_defaults(qwmg_arena_options *opt);
/* Fills map with the room, pillars, crates, spawn points, items, launchers and teleporters,
 * placed so that nothing overlaps and every spawn has room for a player. Returns 0, or -1
 * with a message. */
int qwmg_arena_layout(qwmg_map *map, const qwmg_arena_options *opt, char *err, size_t errlen);

#endif
