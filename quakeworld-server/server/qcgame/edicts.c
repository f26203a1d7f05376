/* Edicts: allocation and freeing (with the workers' pools), their links in the areanode tree
 * and touching triggers (SV_LinkEdict), and moves against them (SV_Move). */
#include <string.h>

#include "qcgame/qcg.h"
#include "qw_math.h"

LIBTM_PURE qw_area_object *qcg_link(int n)
{
    if (qcg_is_player(n))
        return &sv.players[n - 1].link;
    return n < SV_MAX_ENTITIES ? &sv.entities[n].link : &qcg.high_links[n - SV_MAX_ENTITIES];
}

LIBTM_PURE int qcg_edict_of(const qw_area_object *obj)
{
    /* by address alone: nothing of obj is read */
    uintptr_t at = (uintptr_t)obj;
    uintptr_t p0 = (uintptr_t)&sv.players[0].link, e0 = (uintptr_t)&sv.entities[0].link;
    if (!obj)
        return 0;
    if (at >= p0 && at < p0 + QW_MAX_CLIENTS * sizeof(sv_player))
        return (int)((at - p0) / sizeof(sv_player)) + 1;
    uintptr_t h0 = (uintptr_t)&qcg.high_links[0];
    if (at >= e0 && at < e0 + SV_MAX_ENTITIES * sizeof(sv_entity))
        return (int)((at - e0) / sizeof(sv_entity));
    if (at >= h0 && at < h0 + sizeof qcg.high_links)
        return (int)((at - h0) / sizeof(qw_area_object)) + SV_MAX_ENTITIES;
    return 0;
}

void qcg_edicts_clear(void)
{
    memset(qcg.edicts, 0, sizeof qcg.edicts);
    memset(qcg.pools, 0, sizeof qcg.pools);
    memset(qc_entity_ptr(qcg_vm(), 0), 0,
           sizeof(qc_word) * (size_t)qc_entity_fields(qcg_vm()) * QCG_MAX_EDICTS);
    for (int i = 0; i < QCG_MAX_EDICTS - SV_MAX_ENTITIES; i++)
        qw_area_object_init(&qcg.high_links[i]);
    qcg.num_edicts = QCG_FIRST_NONPLAYER;
    qcg.edicts[0].state = EDICT_USED; /* the world */
    for (int n = 1; n < QCG_FIRST_NONPLAYER; n++)
        qcg.edicts[n].state = EDICT_USED; /* the players' edicts always exist */
}

/* Whether edict n may be handed out now. */
LIBTM_SAFE static bool reusable(int n)
{
    return qcg.edicts[n].state == EDICT_FREE &&
           (qcg.edicts[n].freetime < 2 || sv.time - qcg.edicts[n].freetime > 0.5);
}

LIBTM_SAFE static void clear_edict(int n)
{
    memset(qcg_ed(n), 0, sizeof(qc_word) * (size_t)qc_entity_fields(qcg_vm()));
    qcg.edicts[n].state = EDICT_USED;
}

LIBTM_SAFE int qcg_edict_alloc(void)
{
    qcg_pool *pool = &qcg.pools[sv_thread_index];
    if (pool->count > 0) {
        int n = pool->numbers[--pool->count];
        clear_edict(n);
        return n;
    }
    for (int n = QCG_FIRST_NONPLAYER; n < qcg.num_edicts; n++)
        if (reusable(n)) {
            clear_edict(n);
            return n;
        }
    if (qcg.num_edicts == QCG_MAX_EDICTS)
        return 0;
    int n = qcg.num_edicts++;
    clear_edict(n);
    return n;
}

LIBTM_SAFE void qcg_edict_free(int n)
{
    qcg_unlink_edict(n);
    qc_word *ed = qcg_ed(n);
    QCG_FIELDS(f);
    ed[f->model].i = 0;
    ed[f->modelindex].f = 0;
    qcg_set_float(n, f->takedamage, 0);
    qcg_set_float(n, f->colormap, 0);
    qcg_set_float(n, f->skin, 0);
    qcg_set_float(n, f->frame, 0);
    ed[f->nextthink].f = -1;
    ed[f->solid].f = 0;
    static const float zero[3];
    qcg_set_vec(n, f->origin, zero);
    qcg_set_vec(n, f->angles, zero);
    qcg.edicts[n].state = EDICT_FREE;
    qcg.edicts[n].freetime = (float)sv.time;
}

void qcg_pools_fill(void)
{
    for (int t = 0; t < sv.opt.threads; t++) {
        qcg_pool *pool = &qcg.pools[t];
        for (int n = QCG_FIRST_NONPLAYER; n < QCG_MAX_EDICTS && pool->count < QCG_POOL; n++) {
            if (n < qcg.num_edicts && !reusable(n))
                continue;
            qcg.edicts[n].state = EDICT_POOLED;
            pool->numbers[pool->count++] = n;
            if (n >= qcg.num_edicts)
                qcg.num_edicts = n + 1;
        }
    }
}

LIBTM_SAFE void qcg_unlink_edict(int n)
{
    if (n > 0)
        qw_area_unlink_object(qcg_link(n));
}

/* The submodel of a brush model's precache name ("*N"), else 0. */
LIBTM_SAFE static int submodel_of(int modelindex)
{
    if (modelindex < 2 || modelindex >= sv.num_models || sv.model_names[modelindex][0] != '*')
        return 0;
    return modelindex - 1; /* "*1" is model 2 (model 1 is the map) */
}

/* The triggers edict n overlaps, touched (SV_TouchLinks): collected first, since a touch
 * may relink or free triggers. */
LIBTM_SAFE static qc_status touch_links(int n, const float absmin[3], const float absmax[3])
{
    qw_area_object *found[64];
    int count = qw_area_query_box(&sv.area, absmin, absmax, QW_SOLID_TRIGGER, found, 64);
    if (count > 64)
        count = 64;
    int touched[64];
    for (int i = 0; i < count; i++)
        touched[i] = qcg_edict_of(found[i]);
    qc_ctx *ctx = qcg_ctx();
    for (int i = 0; i < count; i++) {
        int t = touched[i];
        if (t == n || !qcg_in_use(t) || !qcg_in_use(n))
            continue;
        qc_func touch = qcg_int(t, qcg.f.touch);
        if (!touch || (int)qcg_float(t, qcg.f.solid) != QW_SOLID_TRIGGER)
            continue;
        qc_ctx_set_float(ctx, QCG_SYS(time), (float)sv.time);
        if (qcg_call(ctx, touch, t, n) != QC_OK)
            return QC_ERROR;
    }
    return QC_OK;
}

LIBTM_SAFE qc_status qcg_link_edict(int n, bool touch_triggers)
{
    if (n <= 0 || !qcg_in_use(n))
        return QC_OK;
    QCG_FIELDS(f);
    qw_area_object *obj = qcg_link(n);
    /* values, not arrays filled through a pointer: a local whose address is taken is written
     * and read back through barriers in a transaction */
    const qcg_vec3 origin = qcg_vec3_of(n, f->origin), mins = qcg_vec3_of(n, f->mins),
                   maxs = qcg_vec3_of(n, f->maxs);
    int solid = (int)qcg_float(n, f->solid);
    int flags = (int)qcg_float(n, f->flags);
    int bsp = solid == QW_SOLID_BSP ? submodel_of((int)qcg_float(n, f->modelindex)) : 0;
    int area_flags = (flags & FL_ITEM ? QW_AREA_FLAG_ITEM : 0) |
                     (flags & FL_MONSTER ? QW_AREA_FLAG_MONSTER : 0);
    int owner = qcg_ent(n, f->owner);
    const qw_area_object *owner_obj = owner ? qcg_link(owner) : NULL;
    if (solid < QW_SOLID_NOT || solid > QW_SOLID_BSP)
        solid = QW_SOLID_NOT;
    if (solid == QW_SOLID_BSP && !bsp)
        solid = QW_SOLID_BBOX; /* a SOLID_BSP edict without a brush model: its box */
    /* unchanged placement: the tree keeps it where it is (no store, no conflict) */
    bool same = obj->node && obj->solid == solid && obj->bsp_model == bsp &&
                obj->flags == area_flags && obj->owner == owner_obj;
    for (int i = 0; i < 3 && same; i++)
        same = obj->origin[i] == origin.v[i] && obj->mins[i] == mins.v[i] &&
               obj->maxs[i] == maxs.v[i];
    if (!same) {
        /* Updated in place, each value only if it changed, and relinked without unlinking
         * first: qw_area_link_object moves the object to another list only when its node
         * or its kind changes. An unlink here wrote the node's list (its head, or the
         * neighbours' links) on every move, a conflict with every command that had
         * scanned that list (pmove, traces, touches). */
        for (int i = 0; i < 3; i++) {
            if (obj->origin[i] != origin.v[i])
                obj->origin[i] = origin.v[i];
            if (obj->mins[i] != mins.v[i])
                obj->mins[i] = mins.v[i];
            if (obj->maxs[i] != maxs.v[i])
                obj->maxs[i] = maxs.v[i];
        }
        if (obj->solid != solid)
            obj->solid = solid;
        if (obj->bsp_model != bsp)
            obj->bsp_model = bsp;
        if (obj->flags != area_flags)
            obj->flags = area_flags;
        if (obj->owner != owner_obj)
            obj->owner = owner_obj;
        if (obj->user)
            obj->user = NULL;
        qw_area_link_object(&sv.area, obj);
    }
    float absmin[3], absmax[3];
    qw_vec_copy(obj->absmin, absmin);
    qw_vec_copy(obj->absmax, absmax);
    qc_word *ed = qcg_ed(n);
    for (int i = 0; i < 3; i++) {
        if (ed[f->absmin + i].f != absmin[i])
            ed[f->absmin + i].f = absmin[i];
        if (ed[f->absmax + i].f != absmax[i])
            ed[f->absmax + i].f = absmax[i];
    }
    if (touch_triggers && solid != QW_SOLID_NOT)
        return touch_links(n, absmin, absmax);
    return QC_OK;
}

LIBTM_SAFE void qcg_move(const float start[3], const float mins[3], const float maxs[3],
                         const float end[3], int type, int pass, qw_trace *tr, int *hit)
{
    const qw_area_object *pass_obj = pass > 0 ? qcg_link(pass) : NULL;
    if (pass_obj && pass_obj->node == NULL && pass > 0) {
        /* not linked (a new missile): its owner still passes through, as in QuakeWorld */
        int owner = qcg_ent(pass, qcg.f.owner);
        qw_world_move(&sv.area, start, mins, maxs, end, type,
                      owner ? qcg_link(owner) : NULL, tr);
    } else {
        qw_world_move(&sv.area, start, mins, maxs, end, type, pass_obj, tr);
    }
    *hit = qcg_edict_of(tr->ent);
}

LIBTM_SAFE bool qcg_test_position(int n)
{
    float origin[3], mins[3], maxs[3];
    qcg_vec(n, qcg.f.origin, origin);
    qcg_vec(n, qcg.f.mins, mins);
    qcg_vec(n, qcg.f.maxs, maxs);
    qw_trace tr;
    int hit;
    qcg_move(origin, mins, maxs, origin, QW_MOVE_NORMAL, n, &tr, &hit);
    return tr.startsolid;
}
