/* The areanode tree: a fixed binary tree (depth QW_AREA_DEPTH) splitting the world bounds
 * along X or Y (whichever side of the node's box is longer, so a square world alternates X/Y).
 * Each object lives in the deepest node whose box fully contains it, so a box query only visits
 * the nodes it overlaps. The server embeds a qw_area_object in each of its entities.
 *
 * Link, unlink, relink and qw_world_move are transaction_safe (called inside the server's
 * __transaction_atomic blocks). The tree holds no locks unless qw_area_enable_list_locks was
 * called (for callers that synchronise with locks of their own, see that function). */
#ifndef QW_AREA_H
#define QW_AREA_H

#include <pthread.h>
#include <stdint.h>

#include "bsp.h"
#include "trace.h"

#define QW_AREA_DEPTH 5
#define QW_AREA_NODES ((1 << (QW_AREA_DEPTH + 1)) - 1)   /* 63 */
#define QW_MAX_ENT_LEAFS 16

/* Solid types (the values QuakeC uses for .solid). */
enum {
    QW_SOLID_NOT = 0,       /* not linked for collision (still linkable for PVS) */
    QW_SOLID_TRIGGER = 1,   /* touched, not blocking: kept in the trigger list */
    QW_SOLID_BBOX = 2,      /* blocking box */
    QW_SOLID_SLIDEBOX = 3,  /* blocking box (players, monsters) */
    QW_SOLID_BSP = 4        /* blocking brush model (bsp_model) */
};

/* Trace types for qw_world_move. */
enum {
    QW_MOVE_NORMAL = 0,
    QW_MOVE_NOMONSTERS = 1, /* only the world and brush models block */
    QW_MOVE_MISSILE = 2     /* like NORMAL; other objects' boxes are widened by 15 when
                               they have QW_AREA_FLAG_MONSTER set */
};

#define QW_AREA_FLAG_MONSTER 1
#define QW_AREA_FLAG_ITEM 2     /* absmin/absmax widened by 15 in X/Y: easier to pick up */

/* The tree's shape, the trigger list and the solid list each on a 32-byte stripe of its own
 * (libtm's orec locks memory in 32-byte stripes): a move that enters or leaves a node's solid
 * list must not conflict with the commands that only scanned its triggers (every move's touch
 * scan), nor a walk of the shape with either list. An object's fence has a stripe too. */
#define QW_AREA_STRIPE 32
/* How much wider than its box an object's fence is on every side (qw_area_object). */
#define QW_AREA_FENCE 32.0f

/* Doubly linked list node; a list head is a qw_area_link whose prev/next point to itself. */
typedef struct qw_area_link {
    struct qw_area_link *prev, *next;
} qw_area_link;

/* The link object embedded in each server entity. Fill origin, mins, maxs, solid, bsp_model,
 * owner, flags and user, then call qw_area_link_object; the link fields are the tree's. */
typedef struct qw_area_object {
    qw_area_link area;               /* tree's: membership in an areanode list */
    struct qw_areanode *node;        /* tree's: the node holding it, NULL when unlinked */
    qw_area_link *list;              /* tree's: the list of that node it is in */
    float origin[3];
    float mins[3], maxs[3];          /* relative to origin */
    float absmin[3], absmax[3];      /* computed on link: origin + mins/maxs, widened by 1
                                        (by 15 in X/Y for QW_AREA_FLAG_ITEM) */
    int solid;                       /* QW_SOLID_* */
    int bsp_model;                   /* for QW_SOLID_BSP: submodel index (1..N), else 0 */
    int flags;                       /* QW_AREA_FLAG_* */
    const struct qw_area_object *owner;  /* traces by the owner skip us and vice versa */
    void *user;                      /* the server's entity */
    int num_leafs;                   /* computed on link: BSP leafs touched (for PVS), or -1 */
    short leafnums[QW_MAX_ENT_LEAFS];/* leaf index - 1 (the PVS bit number) of those leafs */
    /* tree's: a box holding absmin..absmax, QW_AREA_FENCE wider on each side when written,
     * and written again only once absmin..absmax leaves it (the fat boxes of collision
     * trees). Scans test it before absmin/absmax: one that passes an object by reads only
     * its fence, which a walking player rewrites every eighth move or so instead of every
     * move, so moves far apart no longer conflict through each other's scans. */
    _Alignas(QW_AREA_STRIPE) float fence_min[3], fence_max[3];
} qw_area_object;

typedef struct qw_areanode {
    int axis;                        /* 0 = X, 1 = Y, -1 = leaf node */
    float dist;
    struct qw_areanode *children[2]; /* [0] above dist, [1] below */
    pthread_mutex_t *list_lock;      /* NULL unless qw_area_enable_list_locks */
    _Alignas(QW_AREA_STRIPE) qw_area_link trigger_objects;
    _Alignas(QW_AREA_STRIPE) qw_area_link solid_objects;
} qw_areanode;

typedef struct qw_area {
    const qw_bsp *bsp;
    qw_areanode nodes[QW_AREA_NODES];
    int num_nodes;
    pthread_mutex_t list_locks[QW_AREA_NODES];  /* used after qw_area_enable_list_locks */
} qw_area;

/* A set of nodes, bit n = nodes[n]. The nodes are numbered in tree order (a node before its
 * children, children[0]'s subtree first), so taking locks by increasing bit is one fixed
 * order for everybody. */
typedef uint64_t qw_area_nodeset;

/* Builds the tree over the world model's bounds. The area keeps a pointer to bsp. */
void qw_area_init(qw_area *area, const qw_bsp *bsp);

/* For callers that run area operations from several threads under locks of their own (qwsv's
 * -sync region): from now on every scan and every change of a node's object list holds that
 * node's mutex, so lists stay whole and an object's absmin/absmax/solid, which change only
 * under that mutex or while the object is unlinked, read consistently in a scan. Everything
 * else about an object (origin, the server's data behind `user`) is the caller's to protect.
 * Call once, single-threaded, after qw_area_init. */
void qw_area_enable_list_locks(qw_area *area);

/* The nodes whose region meets mins..maxs (X/Y only: nodes split the world in X and Y, each
 * holds its full height); leaves_only: only the leaf nodes among them. */
LIBTM_PURE qw_area_nodeset qw_area_nodes_meeting(const qw_area *area, const float mins[3],
                                                 const float maxs[3], int leaves_only);
/* Every leaf node of the tree. */
LIBTM_PURE qw_area_nodeset qw_area_all_leaves(const qw_area *area);

/* Prepares an object for use (empty links, not linked). Call once before filling it. */
void qw_area_object_init(qw_area_object *obj);

/* Links obj by its current origin/mins/maxs/solid (an object already linked moves to the node
 * its new box belongs to; one that stays in its node keeps its place in the list). Objects
 * with QW_SOLID_NOT are linked into no list but still get their absmin/absmax and leafs. */
LIBTM_SAFE void qw_area_link_object(qw_area *area, qw_area_object *obj);
LIBTM_SAFE void qw_area_unlink_object(qw_area_object *obj);
/* Changes obj's solid type and relinks it (the type decides the list it is in, so it is
 * changed while the object is in none). */
LIBTM_SAFE void qw_area_set_solid(qw_area *area, qw_area_object *obj, int solid);
/* Moves obj to new_origin and relinks it. */
LIBTM_SAFE void qw_area_relink_object(qw_area *area, qw_area_object *obj, const float new_origin[3]);

/* Lists in out[0..max) the objects of the given kind whose absmin/absmax overlap mins..maxs;
 * returns how many there are (may exceed max: only max are written). kind: QW_SOLID_TRIGGER
 * for triggers, anything else for the blocking objects. */
LIBTM_SAFE int qw_area_query_box(const qw_area *area, const float mins[3], const float maxs[3],
                                 int kind, qw_area_object **out, int max);

/* Traces the box mins..maxs from start to end against the world and every linked blocking
 * object, skipping pass_object, objects it owns and its own owner. The trace's ent is the
 * object hit (NULL = world or nothing). */
LIBTM_SAFE void qw_world_move(const qw_area *area, const float start[3], const float mins[3],
                              const float maxs[3], const float end[3], int move_type,
                              const qw_area_object *pass_object, qw_trace *tr);

/* Traces against a single linked object (brush model or box). */
LIBTM_SAFE void qw_trace_object(const qw_bsp *bsp, const qw_area_object *obj,
                                const float start[3], const float mins[3], const float maxs[3],
                                const float end[3], qw_trace *tr);

#endif
