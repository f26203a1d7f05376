/* Collision against the map's hulls: point contents and box traces through the world, brush
 * submodels and axis-aligned boxes (Quake's recursive hull check).
 *
 * A box of size mins..maxs is traced as a point through the hull expanded by that size:
 * hull 0 (from the nodes) for points, hull 1 for boxes up to 32 units wide (the player,
 * -16,-16,-24..16,16,32), hull 2 for larger ones (-32,-32,-24..32,32,64). As in Quake, the
 * box's mins select the offset, so only those three sizes collide exactly.
 *
 * All functions are transaction_pure (LIBTM_PURE, see bsp.h): they read only the immutable map
 * and their arguments and write only the caller's outputs, so the server calls them inside
 * __transaction_atomic without a barrier per map read. Inside a transaction, pass them only
 * locals or immutable data: copy an entity's origin or box to locals first. */
#ifndef QW_TRACE_H
#define QW_TRACE_H

#include "bsp.h"

struct qw_area_object;

/* How far the impact point is backed off the plane, so the next trace starts outside. */
#define QW_DIST_EPSILON 0.03125f

typedef struct qw_trace {
    int allsolid;              /* the whole move stayed inside solid */
    int startsolid;            /* the move started inside solid */
    int inopen, inwater;       /* the move passed through empty / liquid space */
    float fraction;            /* part of the move completed: 1 = no impact */
    float endpos[3];           /* where the box stops (world coordinates) */
    qw_bsp_plane plane;        /* the surface hit (normal points back toward the start) */
    /* What was hit: set by qw_world_move (area.h); NULL = the world or nothing. */
    const struct qw_area_object *ent;
} qw_trace;

/* Contents (QW_CONTENTS_*) at point p of a hull, starting from clipnode `num`. Pure: walks the
 * map's clipnodes (or a box hull on the caller's stack). */
LIBTM_PURE int qw_hull_point_contents(const qw_bsp_hull *hull, int num, const float p[3]);
/* Contents of the world (hull 0 of model 0) at p. Pure: the world's hull is the map's. */
LIBTM_PURE int qw_point_contents(const qw_bsp *bsp, const float p[3]);

/* Traces a point from start to end through a hull (hull coordinates). Initialises *tr.
 * Pure: reads the hull's immutable nodes and planes, writes only *tr (a local). */
LIBTM_PURE void qw_hull_trace(const qw_bsp_hull *hull, const float start[3], const float end[3],
                              qw_trace *tr);

/* Hull number (0, 1, 2) used for a box of this size, by its width along X. Pure: arithmetic. */
LIBTM_PURE int qw_hull_for_size(const float mins[3], const float maxs[3]);

/* Traces the box mins..maxs from start to end against brush model `model` (0 = the world)
 * placed at model_origin (translation only). Returns -1 if the model does not exist (then *tr
 * is a trace with fraction 1), else 0. Pure: the model table and hulls are the map's; pass
 * an entity's origin as a local copy (qw_trace_object does). */
LIBTM_PURE int qw_trace_bsp_model(const qw_bsp *bsp, int model, const float model_origin[3],
                                  const float start[3], const float mins[3],
                                  const float maxs[3], const float end[3], qw_trace *tr);
/* Shorthand for the world (model 0 at the origin). Pure, as qw_trace_bsp_model. */
LIBTM_PURE void qw_trace_world(const qw_bsp *bsp, const float start[3], const float mins[3],
                               const float maxs[3], const float end[3], qw_trace *tr);

/* Traces the box mins..maxs from start to end against the solid box
 * box_origin + (box_mins..box_maxs), e.g. another entity's bounding box. Pure: the box hull
 * is built on its own stack; the entity's box must come in as local copies. */
LIBTM_PURE void qw_trace_box(const float box_origin[3], const float box_mins[3],
                             const float box_maxs[3], const float start[3], const float mins[3],
                             const float maxs[3], const float end[3], qw_trace *tr);

/* A temporary hull for a box (six planes), built on the caller's stack: thread-private, so
 * the pure functions may build and trace it. `hull` points into the struct itself. */
typedef struct qw_box_hull {
    qw_bsp_plane planes[6];
    qw_bsp_clipnode clipnodes[6];
    qw_bsp_hull hull;
} qw_box_hull;
/* Pure: writes only *box (the caller's stack). */
LIBTM_PURE void qw_box_hull_init(qw_box_hull *box, const float mins[3], const float maxs[3]);

#endif
