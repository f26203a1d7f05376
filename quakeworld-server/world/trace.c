/* Point contents and the recursive hull check (Quake's semantics: the impact point is backed
 * off DIST_EPSILON toward the start, and stepped back further if it still lands in solid). */
#include "trace.h"

static float plane_distance(const qw_bsp_plane *plane, const float p[3])
{
    if (plane->type < 3)
        return p[plane->type] - plane->dist;
    return plane->normal[0] * p[0] + plane->normal[1] * p[1] + plane->normal[2] * p[2] - plane->dist;
}

LIBTM_PURE int qw_hull_point_contents(const qw_bsp_hull *hull, int num, const float p[3])
{
    /* The loader guarantees children come after their parents, so this terminates. */
    while (num >= 0) {
        if (num > hull->lastclipnode)
            return QW_CONTENTS_SOLID;
        const qw_bsp_clipnode *node = &hull->clipnodes[num];
        float d = plane_distance(&hull->planes[node->planenum], p);
        num = node->children[d < 0 ? 1 : 0];
    }
    return num;
}

LIBTM_PURE int qw_point_contents(const qw_bsp *bsp, const float p[3])
{
    return qw_hull_point_contents(&bsp->hulls[0], bsp->hulls[0].firstclipnode, p);
}

static void lerp3(const float a[3], const float b[3], float f, float out[3])
{
    for (int i = 0; i < 3; i++)
        out[i] = a[i] + f * (b[i] - a[i]);
}

/* Returns 1 if the segment p1..p2 (fractions p1f..p2f of the whole move) is clear through
 * subtree `num`, 0 once it hit something (tr then holds the impact). */
static int recursive_hull_check(const qw_bsp_hull *hull, int num, float p1f, float p2f,
                                const float p1[3], const float p2[3], qw_trace *tr)
{
    if (num < 0) {
        if (num != QW_CONTENTS_SOLID) {
            tr->allsolid = 0;
            if (num == QW_CONTENTS_EMPTY)
                tr->inopen = 1;
            else
                tr->inwater = 1;
        } else {
            tr->startsolid = 1;
        }
        return 1;
    }
    if (num > hull->lastclipnode)
        return 1;  /* cannot happen with a loaded map; never read out of bounds */

    const qw_bsp_clipnode *node = &hull->clipnodes[num];
    const qw_bsp_plane *plane = &hull->planes[node->planenum];
    float t1 = plane_distance(plane, p1), t2 = plane_distance(plane, p2);

    if (t1 >= 0 && t2 >= 0)
        return recursive_hull_check(hull, node->children[0], p1f, p2f, p1, p2, tr);
    if (t1 < 0 && t2 < 0)
        return recursive_hull_check(hull, node->children[1], p1f, p2f, p1, p2, tr);

    /* The segment crosses the plane: split it at a point just on the near side. */
    float frac = t1 < 0 ? (t1 + QW_DIST_EPSILON) / (t1 - t2) : (t1 - QW_DIST_EPSILON) / (t1 - t2);
    if (frac < 0)
        frac = 0;
    if (frac > 1)
        frac = 1;
    float midf = p1f + (p2f - p1f) * frac;
    float mid[3];
    lerp3(p1, p2, frac, mid);
    int side = t1 < 0;

    if (!recursive_hull_check(hull, node->children[side], p1f, midf, p1, mid, tr))
        return 0;
    if (qw_hull_point_contents(hull, node->children[side ^ 1], mid) != QW_CONTENTS_SOLID)
        return recursive_hull_check(hull, node->children[side ^ 1], midf, p2f, mid, p2, tr);
    if (tr->allsolid)
        return 0;  /* never got out of the solid area */

    /* The far side is solid: this plane is the impact surface, facing the start. */
    for (int i = 0; i < 3; i++)
        tr->plane.normal[i] = side ? -plane->normal[i] : plane->normal[i];
    tr->plane.dist = side ? -plane->dist : plane->dist;
    tr->plane.type = plane->type;

    /* Float error can leave mid inside solid: step back toward the start until it is not. */
    while (qw_hull_point_contents(hull, hull->firstclipnode, mid) == QW_CONTENTS_SOLID) {
        frac -= 0.1f;
        if (!(frac >= 0)) {   /* also ends the loop for NaN from a corrupt plane */
            tr->fraction = midf;
            for (int i = 0; i < 3; i++)
                tr->endpos[i] = mid[i];
            return 0;
        }
        midf = p1f + (p2f - p1f) * frac;
        lerp3(p1, p2, frac, mid);
    }
    tr->fraction = midf;
    for (int i = 0; i < 3; i++)
        tr->endpos[i] = mid[i];
    return 0;
}

static void trace_init(qw_trace *tr, const float end[3])
{
    tr->allsolid = 1;
    tr->startsolid = 0;
    tr->inopen = 0;
    tr->inwater = 0;
    tr->fraction = 1;
    for (int i = 0; i < 3; i++) {
        tr->endpos[i] = end[i];
        tr->plane.normal[i] = 0;
    }
    tr->plane.dist = 0;
    tr->plane.type = 0;
    tr->ent = 0;
}

LIBTM_PURE void qw_hull_trace(const qw_bsp_hull *hull, const float start[3], const float end[3],
                              qw_trace *tr)
{
    trace_init(tr, end);
    recursive_hull_check(hull, hull->firstclipnode, 0, 1, start, end, tr);
}

LIBTM_PURE int qw_hull_for_size(const float mins[3], const float maxs[3])
{
    float width = maxs[0] - mins[0];
    if (width < 3)
        return 0;
    if (width <= 32)
        return 1;
    return 2;
}

/* Traces in the hull's frame (start/end shifted by -offset) and shifts the result back. */
static void trace_offset(const qw_bsp_hull *hull, const float offset[3],
                         const float start[3], const float end[3], qw_trace *tr)
{
    float start_l[3], end_l[3];
    for (int i = 0; i < 3; i++) {
        start_l[i] = start[i] - offset[i];
        end_l[i] = end[i] - offset[i];
    }
    qw_hull_trace(hull, start_l, end_l, tr);
    if (tr->fraction == 1) {
        for (int i = 0; i < 3; i++)
            tr->endpos[i] = end[i];
    } else {
        for (int i = 0; i < 3; i++)
            tr->endpos[i] += offset[i];
        /* The plane is now in world space too. */
        tr->plane.dist += tr->plane.normal[0] * offset[0] + tr->plane.normal[1] * offset[1] +
                          tr->plane.normal[2] * offset[2];
    }
}

LIBTM_PURE int qw_trace_bsp_model(const qw_bsp *bsp, int model, const float model_origin[3],
                                  const float start[3], const float mins[3],
                                  const float maxs[3], const float end[3], qw_trace *tr)
{
    qw_bsp_hull hull;
    int hullnum = qw_hull_for_size(mins, maxs);
    if (qw_bsp_model_hull(bsp, model, hullnum, &hull) < 0) {
        trace_init(tr, end);
        tr->allsolid = 0;
        return -1;
    }
    /* The hull is the map expanded by its own clip box: align the box's mins with it. */
    float offset[3];
    for (int i = 0; i < 3; i++)
        offset[i] = hull.clip_mins[i] - mins[i] + model_origin[i];
    trace_offset(&hull, offset, start, end, tr);
    return 0;
}

LIBTM_PURE void qw_trace_world(const qw_bsp *bsp, const float start[3], const float mins[3],
                               const float maxs[3], const float end[3], qw_trace *tr)
{
    static const float zero[3] = {0, 0, 0};
    qw_trace_bsp_model(bsp, 0, zero, start, mins, maxs, end, tr);
}

LIBTM_PURE void qw_box_hull_init(qw_box_hull *box, const float mins[3], const float maxs[3])
{
    for (int i = 0; i < 6; i++) {
        int axis = i >> 1, side = i & 1;
        box->clipnodes[i].planenum = i;
        box->clipnodes[i].children[side] = QW_CONTENTS_EMPTY;
        box->clipnodes[i].children[side ^ 1] = i != 5 ? i + 1 : QW_CONTENTS_SOLID;
        for (int k = 0; k < 3; k++)
            box->planes[i].normal[k] = k == axis ? 1.0f : 0.0f;
        box->planes[i].type = axis;
        box->planes[i].dist = side ? mins[axis] : maxs[axis];
    }
    box->hull.clipnodes = box->clipnodes;
    box->hull.planes = box->planes;
    box->hull.firstclipnode = 0;
    box->hull.lastclipnode = 5;
    for (int k = 0; k < 3; k++) {
        box->hull.clip_mins[k] = 0;
        box->hull.clip_maxs[k] = 0;
    }
}

LIBTM_PURE void qw_trace_box(const float box_origin[3], const float box_mins[3],
                             const float box_maxs[3], const float start[3], const float mins[3],
                             const float maxs[3], const float end[3], qw_trace *tr)
{
    /* Minkowski sum: the moving box's origin hits when it enters (box - its extent). */
    float hmins[3], hmaxs[3];
    for (int i = 0; i < 3; i++) {
        hmins[i] = box_mins[i] - maxs[i];
        hmaxs[i] = box_maxs[i] - mins[i];
    }
    qw_box_hull box;
    qw_box_hull_init(&box, hmins, hmaxs);
    trace_offset(&box.hull, box_origin, start, end, tr);
}
