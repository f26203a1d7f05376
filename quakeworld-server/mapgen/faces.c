/* Surfaces to draw: the six inner sides of the room and every side of every box that is not
 * flush with the room's boundary (those face into the wall and are never seen). */
#include "faces.h"
#include "bsp.h"

#include <math.h>
#include <stdlib.h>

#define TILE 128.0f

static int push(mg_face_list *list, const mg_face *f)
{
    if (list->count == list->cap) {
        int cap = list->cap ? list->cap * 2 : 64;
        mg_face *p = realloc(list->faces, sizeof *p * (size_t)cap);
        if (!p)
            return -1;
        list->faces = p;
        list->cap = cap;
    }
    list->faces[list->count++] = *f;
    return 0;
}

/* Cuts the rectangle into grid-aligned tiles along the two axes other than f->axis. */
static int add_tiled(mg_face_list *list, const mg_face *f)
{
    int a = (f->axis + 1) % 3, b = (f->axis + 2) % 3;
    for (float u = f->mins[a]; u < f->maxs[a];) {
        float u_end = (floorf(u / TILE) + 1) * TILE;
        if (u_end > f->maxs[a])
            u_end = f->maxs[a];
        for (float v = f->mins[b]; v < f->maxs[b];) {
            float v_end = (floorf(v / TILE) + 1) * TILE;
            if (v_end > f->maxs[b])
                v_end = f->maxs[b];
            mg_face tile = *f;
            tile.mins[a] = u;
            tile.maxs[a] = u_end;
            tile.mins[b] = v;
            tile.maxs[b] = v_end;
            if (push(list, &tile) < 0)
                return -1;
            v = v_end;
        }
        u = u_end;
    }
    return 0;
}

static void set_rect(mg_face *f, const float mins[3], const float maxs[3], int axis, float dist, int side)
{
    f->texture = MG_TEX_GRID;
    for (int i = 0; i < 3; i++) {
        f->mins[i] = mins[i];
        f->maxs[i] = maxs[i];
    }
    f->axis = axis;
    f->dist = dist;
    f->side = side;
    f->mins[axis] = f->maxs[axis] = dist;
}

int mg_collect_faces(const qwmg_map *map, mg_face_list *out)
{
    out->count = out->cap = 0;
    out->faces = NULL;
    mg_face f;
    for (int axis = 0; axis < 3; axis++) {
        /* The room's low wall faces +axis (into the room), the high wall -axis. */
        set_rect(&f, map->room_mins, map->room_maxs, axis, map->room_mins[axis], 0);
        if (add_tiled(out, &f) < 0)
            return -1;
        set_rect(&f, map->room_mins, map->room_maxs, axis, map->room_maxs[axis], 1);
        if (add_tiled(out, &f) < 0)
            return -1;
    }
    for (int i = 0; i < map->num_boxes; i++) {
        const qwmg_box *box = &map->boxes[i];
        int liquid = box->contents != QW_CONTENTS_SOLID;
        int texture = box->contents == QW_CONTENTS_WATER ? MG_TEX_WATER
                    : box->contents == QW_CONTENTS_SLIME ? MG_TEX_SLIME
                    : box->contents == QW_CONTENTS_LAVA ? MG_TEX_LAVA : MG_TEX_GRID;
        for (int axis = 0; axis < 3; axis++) {
            for (int high = 0; high < 2; high++) {
                float dist = high ? box->maxs[axis] : box->mins[axis];
                if (high ? dist >= map->room_maxs[axis] : dist <= map->room_mins[axis])
                    continue;   /* flush with the room's boundary: never seen */
                /* Solid: the side facing out (low side faces -axis). Liquid: both sides, so
                 * the surface shows from the air and from under it. */
                for (int side = 0; side < 2; side++) {
                    int outward = high ? 0 : 1;
                    if (!liquid && side != outward)
                        continue;
                    set_rect(&f, box->mins, box->maxs, axis, dist, side);
                    f.texture = texture;
                    if (add_tiled(out, &f) < 0)
                        return -1;
                }
            }
        }
    }
    return 0;
}

void mg_face_list_free(mg_face_list *list)
{
    free(list->faces);
    list->faces = NULL;
    list->count = list->cap = 0;
}
