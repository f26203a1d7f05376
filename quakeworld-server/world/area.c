/* The areanode tree and world moves against the objects linked in it (Quake's SV_Move). */
#include "area.h"
#include "pvs.h"
#include "store.h"

#include <stdbool.h>
#include <stddef.h>

static void list_clear(qw_area_link *head)
{
    head->prev = head->next = head;
}

static qw_areanode *create_node(qw_area *area, int depth, const float mins[3], const float maxs[3])
{
    qw_areanode *node = &area->nodes[area->num_nodes++];
    list_clear(&node->trigger_objects);
    list_clear(&node->solid_objects);
    node->list_lock = NULL;
    if (depth == QW_AREA_DEPTH) {
        node->axis = -1;
        node->dist = 0;
        node->children[0] = node->children[1] = NULL;
        return node;
    }
    node->axis = maxs[0] - mins[0] > maxs[1] - mins[1] ? 0 : 1;
    node->dist = 0.5f * (maxs[node->axis] + mins[node->axis]);
    float upper_mins[3], lower_maxs[3];
    for (int i = 0; i < 3; i++) {
        upper_mins[i] = mins[i];
        lower_maxs[i] = maxs[i];
    }
    upper_mins[node->axis] = lower_maxs[node->axis] = node->dist;
    node->children[0] = create_node(area, depth + 1, upper_mins, maxs);
    node->children[1] = create_node(area, depth + 1, mins, lower_maxs);
    return node;
}

void qw_area_init(qw_area *area, const qw_bsp *bsp)
{
    area->bsp = bsp;
    area->num_nodes = 0;
    create_node(area, 0, bsp->models[0].mins, bsp->models[0].maxs);
}

void qw_area_enable_list_locks(qw_area *area)
{
    for (int n = 0; n < area->num_nodes; n++) {
        pthread_mutex_init(&area->list_locks[n], NULL);
        area->nodes[n].list_lock = &area->list_locks[n];
    }
}

/* Pure: the mutex is no transactional memory, and list_lock is NULL in the transactional
 * modes (they never enable the locks), so inside a transaction these return at once. */
LIBTM_PURE static void lock_list(const qw_areanode *node)
{
    if (node->list_lock)
        pthread_mutex_lock(node->list_lock);
}

LIBTM_PURE static void unlock_list(const qw_areanode *node)
{
    if (node->list_lock)
        pthread_mutex_unlock(node->list_lock);
}

void qw_area_object_init(qw_area_object *obj)
{
    obj->area.prev = obj->area.next = NULL;
    obj->node = NULL;
    obj->list = NULL;
    for (int i = 0; i < 3; i++)
        obj->origin[i] = obj->mins[i] = obj->maxs[i] = obj->absmin[i] = obj->absmax[i] = 0;
    obj->solid = QW_SOLID_NOT;
    obj->bsp_model = 0;
    obj->flags = 0;
    obj->owner = NULL;
    obj->user = NULL;
    obj->num_leafs = 0;
    for (int i = 0; i < 3; i++) {
        obj->fence_min[i] = 1;   /* empty: the first link writes it */
        obj->fence_max[i] = -1;
    }
}

LIBTM_SAFE void qw_area_unlink_object(qw_area_object *obj)
{
    qw_areanode *node = obj->node;
    if (!node)
        return;
    lock_list(node);
    obj->area.prev->next = obj->area.next;
    obj->area.next->prev = obj->area.prev;
    obj->area.prev = obj->area.next = NULL;
    unlock_list(node);
    obj->node = NULL;
    obj->list = NULL;
}

/* The deepest node whose region holds the box whole. Pure: like nodes_meeting_box below, it
 * reads only the tree's shape, which qw_area_init alone writes; absmin/absmax: locals. */
LIBTM_PURE static qw_areanode *node_holding_box(qw_area *area, const float absmin[3],
                                                const float absmax[3])
{
    qw_areanode *node = &area->nodes[0];
    while (node->axis != -1) {
        if (absmin[node->axis] > node->dist)
            node = node->children[0];
        else if (absmax[node->axis] < node->dist)
            node = node->children[1];
        else
            break;  /* crosses the split: stays here */
    }
    return node;
}

/* Whether obj's box is already absmin..absmax (read under its node's lock, as writers write
 * it; the caller knows obj stays in that node). */
LIBTM_SAFE static bool same_box(const qw_area_object *obj, const float absmin[3],
                                const float absmax[3])
{
    lock_list(obj->node);
    bool same = true;
    for (int i = 0; i < 3; i++)
        same &= obj->absmin[i] == absmin[i] && obj->absmax[i] == absmax[i];
    unlock_list(obj->node);
    return same;
}

/* Writes obj's box, and its fence when the box left it. Under the node's lock when linked. */
LIBTM_SAFE static void write_box(qw_area_object *obj, const float absmin[3], const float absmax[3])
{
    bool inside = true;
    for (int i = 0; i < 3; i++) {
        obj->absmin[i] = absmin[i];
        obj->absmax[i] = absmax[i];
        inside &= obj->fence_min[i] <= absmin[i] && absmax[i] <= obj->fence_max[i];
    }
    if (inside)
        return;
    for (int i = 0; i < 3; i++) {
        obj->fence_min[i] = absmin[i] - QW_AREA_FENCE;
        obj->fence_max[i] = absmax[i] + QW_AREA_FENCE;
    }
}

LIBTM_SAFE void qw_area_link_object(qw_area *area, qw_area_object *obj)
{
    /* Widened by 1 so that objects exactly touching still find each other. Computed in locals:
     * the (pure) leaf search must not see the shared object, only private copies. */
    float absmin[3], absmax[3];
    for (int i = 0; i < 3; i++) {
        float widen = i < 2 && (obj->flags & QW_AREA_FLAG_ITEM) ? 15 : 1;
        absmin[i] = obj->origin[i] + obj->mins[i] - widen;
        absmax[i] = obj->origin[i] + obj->maxs[i] + widen;
    }
    qw_areanode *node = NULL;
    qw_area_link *head = NULL;
    if (obj->solid != QW_SOLID_NOT) {
        node = node_holding_box(area, absmin, absmax);
        /* An object that now fits one of its node's children stays where it is: a box
         * straddling a split leaves its node for the parent and would come back a few moves
         * later, and every entry and exit writes a list that every command moving nearby has
         * read. Queries visit a node's ancestors, so an object listed one level higher than
         * needed is still found; a second level down, it moves. */
        qw_areanode *held = obj->node;
        if (held && (held->children[0] == node || held->children[1] == node))
            node = held;
        head = obj->solid == QW_SOLID_TRIGGER ? &node->trigger_objects : &node->solid_objects;
    }
    bool stays = node && obj->node == node && obj->list == head;
    if (stays && same_box(obj, absmin, absmax))
        return; /* did not move (a tenth of the players' moves in a fight): nothing to write,
                   so nothing for a transaction that scans this object to conflict with */

    short leafnums[QW_MAX_ENT_LEAFS];
    int num_leafs = qw_bsp_box_leafs(area->bsp, absmin, absmax, leafnums, QW_MAX_ENT_LEAFS);
    for (int i = 0; i < num_leafs; i++)
        obj->leafnums[i] = leafnums[i];
    obj->num_leafs = num_leafs;
    if (stays) {
        /* stays where it is: most moves are small, and leaving the list alone keeps moves of
         * different objects from writing the same list pointers */
        lock_list(node);
        write_box(obj, absmin, absmax);
        unlock_list(node);
        return;
    }
    qw_area_unlink_object(obj);
    write_box(obj, absmin, absmax);
    if (!node)
        return;
    lock_list(node);
    obj->area.next = head;
    obj->area.prev = head->prev;
    head->prev->next = &obj->area;
    head->prev = &obj->area;
    unlock_list(node);
    obj->node = node;
    obj->list = head;
}

LIBTM_SAFE void qw_area_set_solid(qw_area *area, qw_area_object *obj, int solid)
{
    qw_area_unlink_object(obj);
    obj->solid = solid;
    qw_area_link_object(area, obj);
}

LIBTM_SAFE void qw_area_relink_object(qw_area *area, qw_area_object *obj, const float new_origin[3])
{
    qw_store_vec(obj->origin, new_origin); /* no store when it stays: see link_object */
    qw_area_link_object(area, obj);
}

LIBTM_SAFE static inline qw_area_object *object_of(qw_area_link *link)
{
    return (qw_area_object *)((char *)link - offsetof(qw_area_object, area));
}

LIBTM_SAFE static int boxes_overlap(const float amin[3], const float amax[3], const float bmin[3],
                                    const float bmax[3])
{
    for (int i = 0; i < 3; i++)
        if (amin[i] > bmax[i] || amax[i] < bmin[i])
            return 0;
    return 1;
}

/* Lists in out[] the nodes whose region meets mins..maxs, in depth-first order (a node before
 * its children, children[0] first); returns how many (at most QW_AREA_NODES).
 * Pure: the tree's shape (axis, dist, children) is written only by qw_area_init, so walking it
 * needs no barriers while other threads relink objects (which changes only the nodes' lists);
 * mins/maxs must be the caller's locals. */
LIBTM_PURE static int nodes_meeting_box(const qw_areanode *node, const float mins[3],
                                        const float maxs[3], const qw_areanode **out, int count)
{
    out[count++] = node;
    if (node->axis == -1)
        return count;
    if (maxs[node->axis] > node->dist)
        count = nodes_meeting_box(node->children[0], mins, maxs, out, count);
    if (mins[node->axis] < node->dist)
        count = nodes_meeting_box(node->children[1], mins, maxs, out, count);
    return count;
}

LIBTM_PURE qw_area_nodeset qw_area_nodes_meeting(const qw_area *area, const float mins[3],
                                                 const float maxs[3], int leaves_only)
{
    const qw_areanode *nodes[QW_AREA_NODES];
    int n = nodes_meeting_box(&area->nodes[0], mins, maxs, nodes, 0);
    qw_area_nodeset set = 0;
    for (int i = 0; i < n; i++)
        if (!leaves_only || nodes[i]->axis == -1)
            set |= (qw_area_nodeset)1 << (nodes[i] - area->nodes);
    return set;
}

LIBTM_PURE qw_area_nodeset qw_area_all_leaves(const qw_area *area)
{
    qw_area_nodeset set = 0;
    for (int i = 0; i < area->num_nodes; i++)
        if (area->nodes[i].axis == -1)
            set |= (qw_area_nodeset)1 << i;
    return set;
}

LIBTM_SAFE int qw_area_query_box(const qw_area *area, const float mins[3], const float maxs[3],
                                 int kind, qw_area_object **out, int max)
{
    float lo[3], hi[3];  /* private copies for the pure walk (callers may pass an absmin) */
    for (int i = 0; i < 3; i++) {
        lo[i] = mins[i];
        hi[i] = maxs[i];
    }
    const qw_areanode *nodes[QW_AREA_NODES];
    int num_nodes = nodes_meeting_box(&area->nodes[0], lo, hi, nodes, 0);
    int count = 0;
    for (int n = 0; n < num_nodes; n++) {
        const qw_area_link *head = kind == QW_SOLID_TRIGGER ? &nodes[n]->trigger_objects
                                                             : &nodes[n]->solid_objects;
        lock_list(nodes[n]);
        for (qw_area_link *l = head->next; l != head; l = l->next) {
            qw_area_object *obj = object_of(l);
            if (!boxes_overlap(obj->fence_min, obj->fence_max, lo, hi) ||
                !boxes_overlap(obj->absmin, obj->absmax, lo, hi))
                continue;
            if (count < max)
                out[count] = obj;
            count++;
        }
        unlock_list(nodes[n]);
    }
    return count;
}

LIBTM_SAFE void qw_trace_object(const qw_bsp *bsp, const qw_area_object *obj,
                                const float start[3], const float mins[3], const float maxs[3],
                                const float end[3], qw_trace *tr)
{
    /* The traces are pure: give them private copies of the (shared) object's placement. */
    float origin[3], box_mins[3], box_maxs[3];
    for (int i = 0; i < 3; i++) {
        origin[i] = obj->origin[i];
        box_mins[i] = obj->mins[i];
        box_maxs[i] = obj->maxs[i];
    }
    if (obj->solid == QW_SOLID_BSP)
        qw_trace_bsp_model(bsp, obj->bsp_model, origin, start, mins, maxs, end, tr);
    else
        qw_trace_box(origin, box_mins, box_maxs, start, mins, maxs, end, tr);
}

typedef struct move_clip {
    const qw_bsp *bsp;
    float boxmins[3], boxmaxs[3];   /* bounds of the whole move */
    const float *start, *end, *mins, *maxs;
    float mins2[3], maxs2[3];       /* widened box for missiles against monsters */
    int type;
    const qw_area_object *pass;
    qw_trace trace;
} move_clip;

/* Clips the move against the blocking objects listed in one node. Returns 0 once the trace is
 * all in solid (nothing can change it any more), else 1. */
LIBTM_SAFE static int clip_to_node(const qw_areanode *node, move_clip *clip)
{
    const qw_area_link *head = &node->solid_objects;
    for (qw_area_link *l = head->next; l != head; l = l->next) {
        const qw_area_object *touch = object_of(l);
        /* the fence first: passing an object far from the move reads nothing it rewrites
         * each move (solid shares a stripe with absmin) */
        if (!boxes_overlap(clip->boxmins, clip->boxmaxs, touch->fence_min, touch->fence_max))
            continue;
        if (touch->solid == QW_SOLID_NOT || touch->solid == QW_SOLID_TRIGGER || touch == clip->pass)
            continue;
        if (clip->type == QW_MOVE_NOMONSTERS && touch->solid != QW_SOLID_BSP)
            continue;
        if (!boxes_overlap(clip->boxmins, clip->boxmaxs, touch->absmin, touch->absmax))
            continue;
        /* Points (size 0) never interact with boxes that have size. */
        if (clip->pass && clip->pass->maxs[0] - clip->pass->mins[0] != 0 &&
            touch->maxs[0] - touch->mins[0] == 0)
            continue;
        if (clip->trace.allsolid)
            return 0;
        if (clip->pass && (touch->owner == clip->pass || clip->pass->owner == touch))
            continue;  /* own missiles and own owner */

        qw_trace tr;
        if (touch->flags & QW_AREA_FLAG_MONSTER)
            qw_trace_object(clip->bsp, touch, clip->start, clip->mins2, clip->maxs2, clip->end, &tr);
        else
            qw_trace_object(clip->bsp, touch, clip->start, clip->mins, clip->maxs, clip->end, &tr);
        if (tr.allsolid || tr.startsolid || tr.fraction < clip->trace.fraction) {
            tr.ent = touch;
            int was_startsolid = clip->trace.startsolid;
            clip->trace = tr;
            if (was_startsolid)
                clip->trace.startsolid = 1;
        } else if (tr.startsolid) {
            clip->trace.startsolid = 1;
        }
    }
    return 1;
}

/* Clips against every object in the nodes the move's bounds meet (Quake's SV_ClipToLinks). */
LIBTM_SAFE static void clip_to_links(const qw_area *area, move_clip *clip)
{
    const qw_areanode *nodes[QW_AREA_NODES];
    int num_nodes = nodes_meeting_box(&area->nodes[0], clip->boxmins, clip->boxmaxs, nodes, 0);
    for (int n = 0; n < num_nodes; n++) {
        lock_list(nodes[n]);
        int go_on = clip_to_node(nodes[n], clip);
        unlock_list(nodes[n]);
        if (!go_on)
            return;
    }
}

LIBTM_SAFE void qw_world_move(const qw_area *area, const float start[3], const float mins[3],
                              const float maxs[3], const float end[3], int move_type,
                              const qw_area_object *pass_object, qw_trace *tr)
{
    /* Private copies for the pure traces: callers may pass shared vectors (an entity's
     * origin), which a pure function must not read inside a transaction. */
    float start_l[3], end_l[3], mins_l[3], maxs_l[3];
    for (int i = 0; i < 3; i++) {
        start_l[i] = start[i];
        end_l[i] = end[i];
        mins_l[i] = mins[i];
        maxs_l[i] = maxs[i];
    }
    move_clip clip;
    clip.bsp = area->bsp;
    clip.start = start_l;
    clip.end = end_l;
    clip.mins = mins_l;
    clip.maxs = maxs_l;
    clip.type = move_type;
    clip.pass = pass_object;
    qw_trace_world(area->bsp, start_l, mins_l, maxs_l, end_l, &clip.trace);
    /* Nothing beyond the wall the move stops at can be hit (an object must be nearer than
     * the wall to replace it), so only objects up to there are looked at: fewer nodes and
     * objects read, a shot down a corridor no longer reads every player along its line. */
    const float *stop = clip.trace.startsolid ? end_l : clip.trace.endpos;
    for (int i = 0; i < 3; i++) {
        clip.mins2[i] = move_type == QW_MOVE_MISSILE ? -15 : mins_l[i];
        clip.maxs2[i] = move_type == QW_MOVE_MISSILE ? 15 : maxs_l[i];
        float lo = start_l[i] < stop[i] ? start_l[i] : stop[i];
        float hi = start_l[i] < stop[i] ? stop[i] : start_l[i];
        /* The missile box is the larger one, so it bounds both kinds of clip. */
        float bmin = clip.mins2[i] < mins_l[i] ? clip.mins2[i] : mins_l[i];
        float bmax = clip.maxs2[i] > maxs_l[i] ? clip.maxs2[i] : maxs_l[i];
        clip.boxmins[i] = lo + bmin - 1;
        clip.boxmaxs[i] = hi + bmax + 1;
    }
    if (!clip.trace.allsolid)
        clip_to_links(area, &clip);
    *tr = clip.trace;
}
