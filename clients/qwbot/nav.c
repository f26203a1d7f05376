/* -movers: the map's goals and the graph to walk to them (see nav.h). */
#include "nav.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bsp.h"
#include "trace.h"

#define MAX_NODES 3072
#define GRID 96.0f             /* spacing of the floor grid's columns */
#define GRID_RANGE 140.0f      /* a grid node's edges: to its eight neighbours */
#define MAX_GOALS 1024
#define STEP 18.0f             /* the height a player walks up */
#define EDGE_RANGE 1024.0f     /* longer straight walks are not tried */
#define NOT_IN_DEATHMATCH 2048 /* spawnflags: removed from a deathmatch */

static const float player_mins[3] = {-16, -16, -24}, player_maxs[3] = {16, 16, 32};
static const float point[3] = {0, 0, 0};

const char *qwbot_goal_kind_name(qwbot_goal_kind k)
{
    static const char *const names[] = {"door", "trigger", "plat", "button", "teleport", "item"};
    return (unsigned)k < QWBOT_GOAL_KINDS ? names[k] : "?";
}

static void trace_player(const qwbot_nav *nav, const float a[3], const float b[3], qw_trace *tr)
{
    qw_trace_world(nav->bsp, a, player_mins, player_maxs, b, tr);
}

static bool hazard(const qwbot_nav *nav, const float origin[3])
{
    float feet[3] = {origin[0], origin[1], origin[2] - 20};
    int c = qw_point_contents(nav->bsp, feet);
    return c == QW_CONTENTS_LAVA || c == QW_CONTENTS_SLIME || c == QW_CONTENTS_SKY;
}

/* Where a player standing at p's x, y would be: p dropped to the floor (false: inside solid,
 * no floor within 4096 units, or lava). */
static bool drop_to_floor(const qwbot_nav *nav, const float p[3], float out[3])
{
    /* an item's origin lies a few units above its floor: a player's box there (24 below
     * the origin) starts in the floor, so try from higher up too */
    static const float lift[] = {0, 24, 40, 56};
    for (unsigned i = 0; i < sizeof lift / sizeof lift[0]; i++) {
        qw_trace tr;
        float from[3] = {p[0], p[1], p[2] + lift[i]}, down[3] = {p[0], p[1], p[2] - 4096};
        trace_player(nav, from, down, &tr);
        if (tr.startsolid || tr.allsolid || tr.fraction >= 1)
            continue;
        memcpy(out, tr.endpos, sizeof tr.endpos);
        return !hazard(nav, out);
    }
    return false;
}

/* Is there floor below p within `depth` units? */
static bool floor_below(const qwbot_nav *nav, const float p[3], float depth)
{
    qw_trace tr;
    float down[3] = {p[0], p[1], p[2] - depth};
    trace_player(nav, p, down, &tr);
    if (tr.startsolid || tr.fraction >= 1)
        return false;
    return !hazard(nav, tr.endpos);
}

bool qwbot_nav_visible(const qwbot_nav *nav, const float a[3], const float b[3])
{
    qw_trace tr;
    qw_trace_world(nav->bsp, a, point, point, b, &tr);
    return tr.fraction >= 1 && !tr.startsolid;
}

/* Does the segment a..b cross the box? (slabs) */
static bool segment_hits_box(const float a[3], const float b[3], const float mins[3],
                             const float maxs[3])
{
    float t0 = 0, t1 = 1;
    for (int i = 0; i < 3; i++) {
        float d = b[i] - a[i];
        if (fabsf(d) < 1e-6f) {
            if (a[i] < mins[i] || a[i] > maxs[i])
                return false;
            continue;
        }
        float ta = (mins[i] - a[i]) / d, tb = (maxs[i] - a[i]) / d;
        if (ta > tb) {
            float t = ta;
            ta = tb;
            tb = t;
        }
        t0 = ta > t0 ? ta : t0;
        t1 = tb < t1 ? tb : t1;
        if (t0 > t1)
            return false;
    }
    return true;
}

bool qwbot_nav_sees_goal(const qwbot_nav *nav, const float a[3], const qwbot_goal *g)
{
    if (!qwbot_nav_visible(nav, a, g->center))
        return false;
    for (int i = 0; i < nav->nblockers; i++) {
        const struct qwbot_blocker *k = &nav->blockers[i];
        if (k->model != g->model && segment_hits_box(a, g->center, k->mins, k->maxs))
            return false;
    }
    return true;
}

static bool straight_walk(const qwbot_nav *nav, const float a[3], const float b[3])
{
    float s[3] = {a[0], a[1], a[2] + STEP}, e[3] = {b[0], b[1], b[2] + STEP};
    qw_trace tr;
    trace_player(nav, s, e, &tr);
    if (tr.startsolid || tr.fraction < 1)
        return false;
    float dx = b[0] - a[0], dy = b[1] - a[1];
    float len = sqrtf(dx * dx + dy * dy);
    int samples = (int)(len / 24.0f);
    float depth = STEP + fabsf(b[2] - a[2]) + 40;
    for (int i = 1; i < samples; i++) {
        float t = (float)i / (float)samples;
        float p[3] = {a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1]),
                      a[2] + t * (b[2] - a[2]) + STEP};
        if (!floor_below(nav, p, depth))
            return false;
    }
    return true;
}

/* Off a ledge: level from a to above b, then down onto b. */
static bool drop_walk(const qwbot_nav *nav, const float a[3], const float b[3])
{
    if (b[2] > a[2] - 2 * STEP)
        return false;
    float s[3] = {a[0], a[1], a[2] + STEP}, above[3] = {b[0], b[1], a[2] + STEP};
    qw_trace tr;
    trace_player(nav, s, above, &tr);
    if (tr.startsolid || tr.fraction < 1)
        return false;
    float down[3] = {b[0], b[1], b[2] - 1};
    trace_player(nav, above, down, &tr);
    return !tr.startsolid && fabsf(tr.endpos[2] - b[2]) < 4;
}

bool qwbot_nav_walkable(const qwbot_nav *nav, const float a[3], const float b[3])
{
    return straight_walk(nav, a, b) || drop_walk(nav, a, b);
}

static int add_node(qwbot_nav *nav, const float p[3])
{
    for (int i = 0; i < nav->nnodes; i++) {
        const float *q = nav->node[i];
        if (fabsf(q[0] - p[0]) < 8 && fabsf(q[1] - p[1]) < 8 && fabsf(q[2] - p[2]) < 8)
            return i;
    }
    if (nav->nnodes >= MAX_NODES)
        return -1;
    memcpy(nav->node[nav->nnodes], p, sizeof nav->node[0]);
    return nav->nnodes++;
}

/* A node to reach a box centred at c: below it, or beside it (a button in a wall), within
 * sight of it. */
static int node_near(qwbot_nav *nav, const qwbot_goal *g, bool need_sight)
{
    static const float rings[] = {0, 40, 64, 96};
    static const float lower[] = {0, 48, 96};   /* a button in a ceiling: from below it */
    for (unsigned l = 0; l < sizeof lower / sizeof lower[0]; l++) {
        for (unsigned r = 0; r < sizeof rings / sizeof rings[0]; r++) {
            for (int dir = 0; dir < (r ? 8 : 1); dir++) {
                float a = (float)dir * (float)M_PI / 4;
                const float *c = g->center;
                float p[3] = {c[0] + rings[r] * cosf(a), c[1] + rings[r] * sinf(a),
                              c[2] - lower[l]}, f[3];
                if (!drop_to_floor(nav, p, f) || c[2] - f[2] > 640)
                    continue;
                float eye[3] = {f[0], f[1], f[2] + 22};
                if (need_sight && !qwbot_nav_sees_goal(nav, eye, g))
                    continue;
                return add_node(nav, f);
            }
        }
    }
    return -1;
}

static bool vec_of(const qw_entity_fields *e, const char *key, float v[3])
{
    const char *s = qw_entity_get(e, key);
    return s && sscanf(s, "%f %f %f", &v[0], &v[1], &v[2]) == 3;
}

static int goal_kind(const qw_entity_fields *e, const char *cls)
{
    const char *tn = qw_entity_get(e, "targetname");
    const char *sf = qw_entity_get(e, "spawnflags");
    int flags = sf ? atoi(sf) : 0;
    if (flags & NOT_IN_DEATHMATCH)
        return -1;
    if (!strcmp(cls, "func_door"))
        return tn ? -1 : QWBOT_GOAL_DOOR;   /* a targeted door opens only when triggered */
    if (!strcmp(cls, "trigger_once") || !strcmp(cls, "trigger_multiple"))
        return flags & 1 ? -1 : QWBOT_GOAL_TRIGGER;   /* 1: not by touch */
    if (!strcmp(cls, "func_plat"))
        return QWBOT_GOAL_PLAT;
    if (!strcmp(cls, "func_button"))
        return QWBOT_GOAL_BUTTON;
    if (!strcmp(cls, "trigger_teleport"))
        return tn ? -1 : QWBOT_GOAL_TELEPORT;        /* a targeted one is off until used */
    if (!strncmp(cls, "item_", 5) || !strncmp(cls, "weapon_", 7))
        return strncmp(cls, "item_key", 8) && strcmp(cls, "item_sigil") ? QWBOT_GOAL_ITEM : -1;
    return -1;
}

static int read_entities(qwbot_nav *nav, char *err, size_t errlen)
{
    qw_entity_fields *e = malloc(sizeof *e);
    if (!e) {
        snprintf(err, errlen, "%s: out of memory for its entities", nav->path);
        return -1;
    }
    qw_entity_iter it;
    qw_entity_iter_init(&it, qw_bsp_entity_string(nav->bsp));
    int rc;
    while ((rc = qw_entity_next(&it, e)) == 1) {
        const char *cls = qw_entity_get(e, "classname");
        if (!cls)
            continue;
        float origin[3], f[3];
        bool has_origin = vec_of(e, "origin", origin);
        if (!strcmp(cls, "info_teleport_destination") && has_origin &&
            nav->ndests < MAX_GOALS)
            memcpy(nav->dest[nav->ndests++], origin, sizeof origin);
        /* every point entity's floor is a node (lights hang above floors too) */
        if (has_origin && drop_to_floor(nav, origin, f) && origin[2] - f[2] < 512)
            add_node(nav, f);
        const char *bm = qw_entity_get(e, "model");
        const char *sf = qw_entity_get(e, "spawnflags");
        if (bm && bm[0] == '*' && strncmp(cls, "trigger_", 8) && strcmp(cls, "func_illusionary") &&
            !((sf ? atoi(sf) : 0) & NOT_IN_DEATHMATCH) && nav->nblockers < MAX_GOALS) {
            const qw_bsp_model *m = qw_bsp_get_model(nav->bsp, atoi(bm + 1));
            if (m) {
                struct qwbot_blocker *k = &nav->blockers[nav->nblockers++];
                k->model = atoi(bm + 1);
                memcpy(k->mins, m->mins, sizeof k->mins);
                memcpy(k->maxs, m->maxs, sizeof k->maxs);
            }
        }
        int kind = goal_kind(e, cls);
        if (kind < 0 || nav->ngoals >= MAX_GOALS)
            continue;
        qwbot_goal *g = &nav->goals[nav->ngoals];
        memset(g, 0, sizeof *g);
        g->kind = (qwbot_goal_kind)kind;
        snprintf(g->classname, sizeof g->classname, "%s", cls);
        const char *model = qw_entity_get(e, "model");
        if (kind == QWBOT_GOAL_ITEM) {
            if (!has_origin)
                continue;
            for (int i = 0; i < 3; i++) {
                g->center[i] = origin[i];
                g->mins[i] = origin[i] - 16;
                g->maxs[i] = origin[i] + 16;
            }
        } else {
            const qw_bsp_model *m = model && model[0] == '*'
                                        ? qw_bsp_get_model(nav->bsp, atoi(model + 1)) : NULL;
            if (!m)
                continue;
            g->model = atoi(model + 1);
            for (int i = 0; i < 3; i++) {
                g->mins[i] = m->mins[i];
                g->maxs[i] = m->maxs[i];
                g->center[i] = (m->mins[i] + m->maxs[i]) / 2;
            }
            g->shoot = kind == QWBOT_GOAL_BUTTON && qw_entity_get(e, "health") &&
                       atof(qw_entity_get(e, "health")) > 0;
        }
        nav->ngoals++;
    }
    for (int i = 0; rc == 0 && i < nav->ngoals; i++)
        nav->goals[i].node = node_near(nav, &nav->goals[i],
                                       nav->goals[i].kind == QWBOT_GOAL_BUTTON);
    if (rc < 0)
        snprintf(err, errlen, "%s: entity lump: %s", nav->path, it.error);
    free(e);
    return rc < 0 ? -1 : 0;
}

static bool solid_at(const qwbot_nav *nav, const float p[3])
{
    qw_trace tr;
    trace_player(nav, p, p, &tr);
    return tr.startsolid || tr.allsolid;
}

/* The floors of the map on a grid: in each column, every floor a player stands on, from the
 * top down (each found floor, then down through it to the space below). */
static void add_grid(qwbot_nav *nav)
{
    const qw_bsp_model *world = qw_bsp_get_model(nav->bsp, 0);
    if (!world)
        return;
    for (float x = world->mins[0] + GRID / 2; x < world->maxs[0]; x += GRID)
        for (float y = world->mins[1] + GRID / 2; y < world->maxs[1]; y += GRID) {
            float z = world->maxs[2];
            for (int floors = 0; floors < 8 && z > world->mins[2]; floors++) {
                float p[3] = {x, y, z};
                while (p[2] > world->mins[2] && solid_at(nav, p))
                    p[2] -= 16;
                if (p[2] <= world->mins[2])
                    break;
                qw_trace tr;
                float down[3] = {x, y, world->mins[2] - 64};
                trace_player(nav, p, down, &tr);
                if (tr.startsolid || tr.fraction >= 1)
                    break;
                if (!hazard(nav, tr.endpos)) {
                    int n = add_node(nav, tr.endpos);
                    if (n < 0)
                        return;
                    nav->grid[n] = 1;
                }
                z = tr.endpos[2] - 40;   /* into the floor under the box */
            }
        }
}

static void build_edges(qwbot_nav *nav)
{
    int n = nav->nnodes;
    for (int a = 0; a < n; a++)
        for (int b = 0; b < n; b++) {
            if (a == b)
                continue;
            const float *p = nav->node[a], *q = nav->node[b];
            float dx = p[0] - q[0], dy = p[1] - q[1];
            float range = nav->grid[a] || nav->grid[b] ? GRID_RANGE : EDGE_RANGE;
            if (dx * dx + dy * dy > range * range)
                continue;
            if (qwbot_nav_walkable(nav, p, q)) {
                nav->edge[a * n + b] = 1;
                nav->nedges++;
            }
        }
}

qwbot_nav *qwbot_nav_load(const char *map_path, char *err, size_t errlen)
{
    qwbot_nav *nav = calloc(1, sizeof *nav);
    if (!nav) {
        snprintf(err, errlen, "out of memory for the map's graph");
        return NULL;
    }
    snprintf(nav->path, sizeof nav->path, "%s", map_path);
    nav->bsp = qw_bsp_load(map_path, err, errlen);
    nav->node = calloc(MAX_NODES, sizeof nav->node[0]);
    nav->goals = calloc(MAX_GOALS, sizeof nav->goals[0]);
    nav->dest = calloc(MAX_GOALS, sizeof nav->dest[0]);
    nav->grid = calloc(MAX_NODES, 1);
    nav->blockers = calloc(MAX_GOALS, sizeof nav->blockers[0]);
    if (!nav->bsp || !nav->node || !nav->goals || !nav->dest || !nav->grid || !nav->blockers) {
        if (nav->bsp)
            snprintf(err, errlen, "%s: out of memory for the map's graph", map_path);
        qwbot_nav_free(nav);
        return NULL;
    }
    if (read_entities(nav, err, errlen) != 0) {
        qwbot_nav_free(nav);
        return NULL;
    }
    add_grid(nav);
    nav->edge = calloc((size_t)nav->nnodes * (size_t)nav->nnodes + 1, 1);
    if (!nav->edge) {
        snprintf(err, errlen, "%s: out of memory for the map's graph", map_path);
        qwbot_nav_free(nav);
        return NULL;
    }
    build_edges(nav);
    return nav;
}

void qwbot_nav_free(qwbot_nav *nav)
{
    if (!nav)
        return;
    if (nav->bsp)
        qw_bsp_free(nav->bsp);
    free(nav->node);
    free(nav->edge);
    free(nav->goals);
    free(nav->dest);
    free(nav->grid);
    free(nav->blockers);
    free(nav);
}

int qwbot_nav_start(const qwbot_nav *nav, const float pos[3])
{
    /* the nearest few by distance, the first a bot can walk to */
    int tried[16], ntried = 0;
    while (ntried < 16) {
        int best = -1;
        float best_d = 1e30f;
        for (int i = 0; i < nav->nnodes; i++) {
            bool seen = false;
            for (int t = 0; t < ntried && !seen; t++)
                seen = tried[t] == i;
            const float *q = nav->node[i];
            float d = (q[0] - pos[0]) * (q[0] - pos[0]) + (q[1] - pos[1]) * (q[1] - pos[1]) +
                      4 * (q[2] - pos[2]) * (q[2] - pos[2]);
            if (!seen && d < best_d) {
                best_d = d;
                best = i;
            }
        }
        if (best < 0)
            return -1;
        if (qwbot_nav_walkable(nav, pos, nav->node[best]))
            return best;
        tried[ntried++] = best;
    }
    return -1;
}

void qwbot_nav_bfs(const qwbot_nav *nav, int from, int *dist, int *prev)
{
    int n = nav->nnodes;
    int *queue = malloc((size_t)(n ? n : 1) * sizeof *queue);
    for (int i = 0; i < n; i++) {
        dist[i] = -1;
        prev[i] = -1;
    }
    if (!queue || from < 0 || from >= n) {
        free(queue);
        return;
    }
    int head = 0, tail = 0;
    dist[from] = 0;
    queue[tail++] = from;
    while (head < tail) {
        int a = queue[head++];
        const uint8_t *row = nav->edge + (size_t)a * (size_t)n;
        for (int b = 0; b < n; b++)
            if (row[b] && dist[b] < 0) {
                dist[b] = dist[a] + 1;
                prev[b] = a;
                queue[tail++] = b;
            }
    }
    free(queue);
}
