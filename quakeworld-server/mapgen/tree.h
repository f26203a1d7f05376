/* Building BSP trees from axis-aligned boxes (internal to qwmapgen's library). */
#ifndef QWMG_TREE_H
#define QWMG_TREE_H

#include "mapgen.h"
#include "bsp.h"

/* A node of a built tree: an axial split (child[0] = coordinate >= dist) or a leaf. */
typedef struct mg_tnode {
    int contents;              /* 0 = split node, else QW contents (-1 empty, -2 solid) */
    int axis;
    float dist;
    struct mg_tnode *child[2];
    float mins[3], maxs[3];    /* the cell this node covers (clipped to the world bounds) */
} mg_tnode;

/* Builds the tree of one hull: the room interior shrunk by the hull box clip_mins..clip_maxs
 * is empty except for the boxes grown by it; everything else is solid. world_mins/maxs bound
 * the cells. Returns NULL on out of memory. Free with mg_tree_free. */
mg_tnode *mg_build_hull_tree(const qwmg_map *map, const float clip_mins[3],
                             const float clip_maxs[3], const float world_mins[3],
                             const float world_maxs[3]);
/* The tree of one hull of a brush model: solid inside the box mins..maxs grown by the hull
 * box clip_mins..clip_maxs, empty around it (six splits on its faces). NULL on out of
 * memory. */
mg_tnode *mg_build_box_tree(const float box_mins[3], const float box_maxs[3],
                            const float clip_mins[3], const float clip_maxs[3],
                            const float world_mins[3], const float world_maxs[3]);
void mg_tree_free(mg_tnode *node);

#endif
