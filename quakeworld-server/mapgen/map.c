/* The box map description: a room, solid boxes inside it, point entities, and trigger volumes
 * with the brush entities that use them. */
#include "mapgen.h"
#include "bsp.h"

#include <stdio.h>
#include <string.h>

void qwmg_map_init(qwmg_map *map, float size, float height)
{
    memset(map, 0, sizeof *map);
    map->room_mins[0] = map->room_mins[1] = -size / 2;
    map->room_maxs[0] = map->room_maxs[1] = size / 2;
    map->room_mins[2] = 0;
    map->room_maxs[2] = height;
    map->wall = 16;
    map->with_faces = 1;
    snprintf(map->message, sizeof map->message, "qwmapgen arena");
}

/* Whether mins..maxs is a box inside the room; -1 with a message if not. */
static int check_volume(const qwmg_map *map, const float mins[3], const float maxs[3],
                        char *err, size_t errlen)
{
    for (int i = 0; i < 3; i++) {
        if (!(mins[i] < maxs[i])) {
            snprintf(err, errlen, "box %g,%g,%g..%g,%g,%g is empty along axis %d (mins must be "
                     "below maxs)", mins[0], mins[1], mins[2], maxs[0], maxs[1], maxs[2], i);
            return -1;
        }
        if (mins[i] < map->room_mins[i] || maxs[i] > map->room_maxs[i]) {
            snprintf(err, errlen, "box %g,%g,%g..%g,%g,%g reaches outside the room "
                     "%g,%g,%g..%g,%g,%g", mins[0], mins[1], mins[2], maxs[0], maxs[1], maxs[2],
                     map->room_mins[0], map->room_mins[1], map->room_mins[2],
                     map->room_maxs[0], map->room_maxs[1], map->room_maxs[2]);
            return -1;
        }
    }
    return 0;
}

static int add_volume(qwmg_map *map, const float mins[3], const float maxs[3], int contents,
                      char *err, size_t errlen)
{
    if (map->num_boxes >= QWMG_MAX_BOXES) {
        snprintf(err, errlen, "too many boxes (at most %d)", QWMG_MAX_BOXES);
        return -1;
    }
    if (check_volume(map, mins, maxs, err, errlen) < 0)
        return -1;
    qwmg_box *b = &map->boxes[map->num_boxes++];
    memcpy(b->mins, mins, sizeof b->mins);
    memcpy(b->maxs, maxs, sizeof b->maxs);
    b->contents = contents;
    return 0;
}

int qwmg_add_box(qwmg_map *map, const float mins[3], const float maxs[3], char *err, size_t errlen)
{
    return add_volume(map, mins, maxs, QW_CONTENTS_SOLID, err, errlen);
}

int qwmg_add_liquid(qwmg_map *map, const float mins[3], const float maxs[3], int contents,
                    char *err, size_t errlen)
{
    if (contents != QW_CONTENTS_WATER && contents != QW_CONTENTS_SLIME &&
        contents != QW_CONTENTS_LAVA) {
        snprintf(err, errlen, "liquid contents %d: use -3 (water), -4 (slime) or -5 (lava)",
                 contents);
        return -1;
    }
    return add_volume(map, mins, maxs, contents, err, errlen);
}

int qwmg_add_entity(qwmg_map *map, const char *classname, const float origin[3], float angle,
                    char *err, size_t errlen)
{
    if (map->num_entities >= QWMG_MAX_ENTITIES) {
        snprintf(err, errlen, "too many entities (at most %d)", QWMG_MAX_ENTITIES);
        return -1;
    }
    size_t n = strlen(classname);
    if (n == 0 || n >= sizeof map->entities[0].classname || strpbrk(classname, "\"{}\n ")) {
        snprintf(err, errlen, "bad entity classname \"%s\" (1-63 characters, no quotes, braces "
                 "or spaces)", classname);
        return -1;
    }
    qwmg_entity *e = &map->entities[map->num_entities++];
    memset(e, 0, sizeof *e);
    memcpy(e->classname, classname, n + 1);
    memcpy(e->origin, origin, sizeof e->origin);
    e->angle = angle;
    return 0;
}

qwmg_entity *qwmg_add_trigger(qwmg_map *map, const char *classname, const float mins[3],
                              const float maxs[3], const char *target, char *err,
                              size_t errlen)
{
    if (map->num_triggers >= QWMG_MAX_TRIGGERS) {
        snprintf(err, errlen, "too many trigger volumes (at most %d)", QWMG_MAX_TRIGGERS);
        return NULL;
    }
    if (check_volume(map, mins, maxs, err, errlen) < 0)
        return NULL;
    if (strlen(target) >= sizeof map->entities[0].target) {
        snprintf(err, errlen, "target name \"%s\" too long", target);
        return NULL;
    }
    float centre[3];
    for (int i = 0; i < 3; i++)
        centre[i] = (mins[i] + maxs[i]) / 2;
    if (qwmg_add_entity(map, classname, centre, 0, err, errlen) < 0)
        return NULL;
    qwmg_box *t = &map->triggers[map->num_triggers++];
    memcpy(t->mins, mins, sizeof t->mins);
    memcpy(t->maxs, maxs, sizeof t->maxs);
    t->contents = QW_CONTENTS_SOLID;
    qwmg_entity *e = &map->entities[map->num_entities - 1];
    snprintf(e->model, sizeof e->model, "*%d", map->num_triggers);
    snprintf(e->target, sizeof e->target, "%s", target);
    return e;
}
