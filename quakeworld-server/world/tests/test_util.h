/* Helpers shared by the world tests: the shared Quake data and maps generated in memory. */
#ifndef QW_WORLD_TEST_UTIL_H
#define QW_WORLD_TEST_UTIL_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "bsp.h"
#include "mapgen.h"

/* Path of a file under $QW_SHARED/quake, written to buf; NULL if it does not exist. */
static inline const char *shared_quake_file(char *buf, size_t size, const char *rel)
{
    const char *shared = getenv("QW_SHARED");
    if (!shared)
        shared = "/work/shared";
    snprintf(buf, size, "%s/quake/%s", shared, rel);
    return access(buf, R_OK) == 0 ? buf : NULL;
}

/* A room size x size x height (floor z = 0, centred on x = y = 0) with boxes given as
 * {x1, y1, z1, x2, y2, z2}; aborts the test program on failure. */
static inline qw_bsp *room_with_boxes(float size, float height, const float (*boxes)[6], int n)
{
    static qwmg_map map;
    char err[256];
    qwmg_map_init(&map, size, height);
    map.with_faces = 0;
    for (int i = 0; i < n; i++)
        if (qwmg_add_box(&map, boxes[i], boxes[i] + 3, err, sizeof err) < 0) {
            fprintf(stderr, "room_with_boxes: %s\n", err);
            abort();
        }
    uint8_t *file;
    size_t len;
    if (qwmg_build_bsp(&map, &file, &len, err, sizeof err) < 0) {
        fprintf(stderr, "room_with_boxes: %s\n", err);
        abort();
    }
    qw_bsp *bsp = qw_bsp_load_memory(file, len, "generated.bsp", err, sizeof err);
    free(file);
    if (!bsp) {
        fprintf(stderr, "room_with_boxes: %s\n", err);
        abort();
    }
    return bsp;
}

/* The same with one liquid volume {x1, y1, z1, x2, y2, z2} of the given contents added. */
static inline qw_bsp *room_with_liquid(float size, float height, const float (*boxes)[6], int n,
                                       const float liquid[6], int contents)
{
    static qwmg_map map;
    char err[256];
    qwmg_map_init(&map, size, height);
    map.with_faces = 1;
    for (int i = 0; i < n; i++)
        if (qwmg_add_box(&map, boxes[i], boxes[i] + 3, err, sizeof err) < 0) {
            fprintf(stderr, "room_with_liquid: %s\n", err);
            abort();
        }
    if (qwmg_add_liquid(&map, liquid, liquid + 3, contents, err, sizeof err) < 0) {
        fprintf(stderr, "room_with_liquid: %s\n", err);
        abort();
    }
    uint8_t *file;
    size_t len;
    qw_bsp *bsp = NULL;
    if (qwmg_build_bsp(&map, &file, &len, err, sizeof err) == 0) {
        bsp = qw_bsp_load_memory(file, len, "liquid.bsp", err, sizeof err);
        free(file);
    }
    if (!bsp) {
        fprintf(stderr, "room_with_liquid: %s\n", err);
        abort();
    }
    return bsp;
}

/* Loads a shared map, or returns NULL (the test then skips). */
static inline qw_bsp *load_shared_map(const char *name)
{
    char rel[128], path[512], err[256];
    snprintf(rel, sizeof rel, "id1/maps/%s.bsp", name);
    if (!shared_quake_file(path, sizeof path, rel))
        return NULL;
    qw_bsp *bsp = qw_bsp_load(path, err, sizeof err);
    if (!bsp) {
        fprintf(stderr, "%s\n", err);
        abort();
    }
    return bsp;
}

#endif
