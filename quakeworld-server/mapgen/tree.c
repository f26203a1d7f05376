/* BSP construction for boxes: the room's six walls first (outside = solid), then recursive
 * splits on box faces inside the room until every cell is either inside a box (solid) or
 * free of boxes (empty). Each split takes the face plane that cuts the fewest boxes. */
#include "tree.h"

#include <stdlib.h>

typedef struct box_list {
    int count;
    qwmg_box *boxes;
} box_list;

static mg_tnode *new_node(const float mins[3], const float maxs[3])
{
    mg_tnode *n = calloc(1, sizeof *n);
    if (!n)
        return NULL;
    for (int i = 0; i < 3; i++) {
        n->mins[i] = mins[i];
        n->maxs[i] = maxs[i];
    }
    return n;
}

static mg_tnode *new_leaf(int contents, const float mins[3], const float maxs[3])
{
    mg_tnode *n = new_node(mins, maxs);
    if (n)
        n->contents = contents;
    return n;
}

void mg_tree_free(mg_tnode *node)
{
    if (!node)
        return;
    mg_tree_free(node->child[0]);
    mg_tree_free(node->child[1]);
    free(node);
}

static int overlaps(const qwmg_box *b, const float mins[3], const float maxs[3])
{
    for (int i = 0; i < 3; i++)
        if (b->mins[i] >= maxs[i] || b->maxs[i] <= mins[i])
            return 0;
    return 1;
}

static int contains(const qwmg_box *b, const float mins[3], const float maxs[3])
{
    for (int i = 0; i < 3; i++)
        if (b->mins[i] > mins[i] || b->maxs[i] < maxs[i])
            return 0;
    return 1;
}

/* Cost of splitting at axis/dist: boxes cut in two weigh most, then imbalance. */
static long split_cost(const box_list *list, int axis, float dist)
{
    long cut = 0, front = 0, back = 0;
    for (int i = 0; i < list->count; i++) {
        const qwmg_box *b = &list->boxes[i];
        if (b->mins[axis] < dist && b->maxs[axis] > dist)
            cut++;
        else if (b->mins[axis] >= dist)
            front++;
        else
            back++;
    }
    long imbalance = front > back ? front - back : back - front;
    return cut * 1000 + imbalance;
}

static mg_tnode *build_cell(const box_list *in, const float mins[3], const float maxs[3]);

static mg_tnode *split_cell(const box_list *list, const float mins[3], const float maxs[3])
{
    int best_axis = -1;
    float best_dist = 0;
    long best_cost = 0;
    for (int i = 0; i < list->count; i++) {
        const qwmg_box *b = &list->boxes[i];
        for (int axis = 0; axis < 3; axis++) {
            float faces[2] = {b->mins[axis], b->maxs[axis]};
            for (int f = 0; f < 2; f++) {
                float d = faces[f];
                if (d <= mins[axis] || d >= maxs[axis])
                    continue;
                long cost = split_cost(list, axis, d);
                if (best_axis < 0 || cost < best_cost) {
                    best_axis = axis;
                    best_dist = d;
                    best_cost = cost;
                }
            }
        }
    }
    if (best_axis < 0)
        return new_leaf(QW_CONTENTS_SOLID, mins, maxs);  /* unreachable, see build_cell */
    mg_tnode *node = new_node(mins, maxs);
    if (!node)
        return NULL;
    node->axis = best_axis;
    node->dist = best_dist;
    float front_mins[3], back_maxs[3];
    for (int i = 0; i < 3; i++) {
        front_mins[i] = mins[i];
        back_maxs[i] = maxs[i];
    }
    front_mins[best_axis] = back_maxs[best_axis] = best_dist;
    node->child[0] = build_cell(list, front_mins, maxs);
    node->child[1] = build_cell(list, mins, back_maxs);
    if (!node->child[0] || !node->child[1]) {
        mg_tree_free(node);
        return NULL;
    }
    return node;
}

static mg_tnode *build_cell(const box_list *in, const float mins[3], const float maxs[3])
{
    box_list here = {0, malloc(sizeof(qwmg_box) * (size_t)(in->count ? in->count : 1))};
    if (!here.boxes)
        return NULL;
    int partial = 0, liquid = 0;
    for (int i = 0; i < in->count; i++) {
        const qwmg_box *b = &in->boxes[i];
        if (!overlaps(b, mins, maxs))
            continue;
        if (contains(b, mins, maxs)) {
            if (b->contents == QW_CONTENTS_SOLID) {
                free(here.boxes);
                return new_leaf(QW_CONTENTS_SOLID, mins, maxs);
            }
            /* Overlapping liquids: the most dangerous (lowest value) wins. */
            if (liquid == 0 || b->contents < liquid)
                liquid = b->contents;
        } else {
            partial++;
        }
        here.boxes[here.count++] = *b;
    }
    /* A box that overlaps the cell without containing it has a face strictly inside the
     * cell, so split_cell always finds a plane when `partial` is nonzero. */
    mg_tnode *node = partial ? split_cell(&here, mins, maxs)
                             : new_leaf(liquid ? liquid : QW_CONTENTS_EMPTY, mins, maxs);
    free(here.boxes);
    return node;
}

/* Splits `cell` by one face plane of a box: the outside half is a leaf of `outside`
 * contents, the inside continues in `mins`..`maxs`. */
static mg_tnode *wall_node(int axis, float dist, int outside_is_front, int outside,
                           float mins[3], float maxs[3])
{
    mg_tnode *node = new_node(mins, maxs);
    if (!node)
        return NULL;
    node->axis = axis;
    node->dist = dist;
    float omins[3], omaxs[3];
    for (int i = 0; i < 3; i++) {
        omins[i] = mins[i];
        omaxs[i] = maxs[i];
    }
    if (outside_is_front) {
        omins[axis] = dist;
        maxs[axis] = dist;   /* the inside continues below */
    } else {
        omaxs[axis] = dist;
        mins[axis] = dist;
    }
    mg_tnode *leaf = new_leaf(outside, omins, omaxs);
    if (!leaf) {
        free(node);
        return NULL;
    }
    node->child[outside_is_front ? 0 : 1] = leaf;
    return node;
}

/* A chain of six nodes on the faces of the box lo..hi, whatever lies outside it a leaf of
 * `outside` contents. Returns the root, with the last node and its free child (where the
 * inside goes, the cell mins..maxs) in *last and *last_slot; NULL on out of memory. */
static mg_tnode *six_faces(const float lo[3], const float hi[3], int outside,
                           const float world_mins[3], const float world_maxs[3], float mins[3],
                           float maxs[3], mg_tnode **last, int *last_slot)
{
    for (int i = 0; i < 3; i++) {
        mins[i] = world_mins[i];
        maxs[i] = world_maxs[i];
    }
    mg_tnode *root = NULL, *parent = NULL;
    int parent_slot = 0;
    for (int axis = 0; axis < 3; axis++) {
        for (int side = 0; side < 2; side++) {
            /* side 0: plane at the low face, outside behind it;
             * side 1: plane at the high face, outside in front. */
            mg_tnode *node = wall_node(axis, side ? hi[axis] : lo[axis], side, outside, mins, maxs);
            if (!node) {
                mg_tree_free(root);
                return NULL;
            }
            if (parent)
                parent->child[parent_slot] = node;
            else
                root = node;
            parent = node;
            parent_slot = side ? 1 : 0;
        }
    }
    *last = parent;
    *last_slot = parent_slot;
    return root;
}

mg_tnode *mg_build_hull_tree(const qwmg_map *map, const float clip_mins[3],
                             const float clip_maxs[3], const float world_mins[3],
                             const float world_maxs[3])
{
    float inner_mins[3], inner_maxs[3];
    for (int i = 0; i < 3; i++) {
        inner_mins[i] = map->room_mins[i] - clip_mins[i];
        inner_maxs[i] = map->room_maxs[i] - clip_maxs[i];
        if (inner_mins[i] >= inner_maxs[i])
            return new_leaf(QW_CONTENTS_SOLID, world_mins, world_maxs);
    }

    box_list grown = {0, malloc(sizeof(qwmg_box) * (size_t)(map->num_boxes ? map->num_boxes : 1))};
    if (!grown.boxes)
        return NULL;
    /* Liquids exist only in hull 0 (point contents); boxes move through them as through air. */
    int point_hull = clip_maxs[0] - clip_mins[0] == 0;
    for (int b = 0; b < map->num_boxes; b++) {
        if (map->boxes[b].contents != QW_CONTENTS_SOLID && !point_hull)
            continue;
        qwmg_box g = map->boxes[b];
        for (int i = 0; i < 3; i++) {
            g.mins[i] = map->boxes[b].mins[i] - clip_maxs[i];
            g.maxs[i] = map->boxes[b].maxs[i] - clip_mins[i];
        }
        grown.boxes[grown.count++] = g;
    }

    /* The six room planes, outside solid; the inside is the room's cell. */
    float mins[3], maxs[3];
    mg_tnode *parent;
    int parent_slot;
    mg_tnode *root = six_faces(inner_mins, inner_maxs, QW_CONTENTS_SOLID, world_mins, world_maxs,
                               mins, maxs, &parent, &parent_slot);
    if (!root) {
        free(grown.boxes);
        return NULL;
    }
    parent->child[parent_slot] = build_cell(&grown, mins, maxs);
    free(grown.boxes);
    if (!parent->child[parent_slot]) {
        mg_tree_free(root);
        return NULL;
    }
    return root;
}

mg_tnode *mg_build_box_tree(const float box_mins[3], const float box_maxs[3],
                            const float clip_mins[3], const float clip_maxs[3],
                            const float world_mins[3], const float world_maxs[3])
{
    float lo[3], hi[3], mins[3], maxs[3];
    for (int i = 0; i < 3; i++) {
        lo[i] = box_mins[i] - clip_maxs[i];
        hi[i] = box_maxs[i] - clip_mins[i];
    }
    mg_tnode *last;
    int slot;
    mg_tnode *root = six_faces(lo, hi, QW_CONTENTS_EMPTY, world_mins, world_maxs, mins, maxs,
                               &last, &slot);
    if (!root)
        return NULL;
    last->child[slot] = new_leaf(QW_CONTENTS_SOLID, mins, maxs);
    if (!last->child[slot]) {
        mg_tree_free(root);
        return NULL;
    }
    return root;
}
