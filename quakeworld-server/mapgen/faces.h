/* Visible surfaces of a box map (internal to qwmapgen): the room's inner walls and the boxes'
 * sides (liquid surfaces from both sides), cut into tiles on a 128-unit grid so that no surface exceeds the engines' lightmap
 * extent limits. */
#ifndef QWMG_FACES_H
#define QWMG_FACES_H

#include "mapgen.h"

typedef struct mg_face {
    int axis;                  /* plane normal axis */
    float dist;                /* plane: coordinate[axis] = dist */
    int side;                  /* 0: faces +axis, 1: faces -axis */
    float mins[3], maxs[3];    /* the rectangle (mins[axis] = maxs[axis] = dist) */
    int texture;               /* MG_TEX_* */
} mg_face;

/* Textures written to the map, in this order. */
enum { MG_TEX_GRID = 0, MG_TEX_WATER, MG_TEX_SLIME, MG_TEX_LAVA, MG_NUM_TEXTURES };

typedef struct mg_face_list {
    int count, cap;
    mg_face *faces;
} mg_face_list;

/* Collects the tiles. Returns 0, or -1 on out of memory. */
int mg_collect_faces(const qwmg_map *map, mg_face_list *out);
void mg_face_list_free(mg_face_list *list);

#endif
