/* The world builtins of QuakeWorld's defs.qc (numbers as there; what each must do is listed
 * in progs/README.md): entities, traces, searches, precaching, monster steps, cvars, map
 * changes, spawn parms, infokeys. All run inside the caller's section (transaction_safe). */
#include <math.h>

#include "log.h"
#include "net/reliable.h"
#include "qcgame/qcg.h"
#include "qw_math.h"

#define STEPSIZE 18.0f

#define BUILTIN(name) QC_SAFE static qc_status name(qc_ctx *ctx)

/* Parameter i as an edict number in range, else an error. */
#define EDICT_PARM(var, i)                                                                \
    int var = qc_parm_int(ctx, i);                                                        \
    if (var < 0 || var >= QCG_MAX_EDICTS)                                                 \
        return qc_raise(ctx, QC_ERR_BAD_ENTITY, "bad entity %d", var);

LIBTM_SAFE static int self_of(qc_ctx *ctx)
{
    int self = qc_ctx_get_int(ctx, QCG_SYS(self));
    return self >= 0 && self < QCG_MAX_EDICTS ? self : 0;
}

/* 2 setorigin(e, o) */
BUILTIN(bi_setorigin)
{
    EDICT_PARM(e, 0);
    float o[3];
    qc_parm_vector(ctx, 1, o);
    qcg_set_vec(e, qcg.f.origin, o);
    return qcg_link_edict(e, false);
}

LIBTM_SAFE static qc_status set_size(int e, const float mins[3], const float maxs[3])
{
    float size[3];
    for (int i = 0; i < 3; i++)
        size[i] = maxs[i] - mins[i];
    qcg_set_vec(e, qcg.f.mins, mins);
    qcg_set_vec(e, qcg.f.maxs, maxs);
    qcg_set_vec(e, qcg.f.size, size);
    return qcg_link_edict(e, false);
}

LIBTM_SAFE int qcg_model_index(const char *name)
{
    for (int i = 1; i < sv.num_models; i++)
        if (qcg_streq(sv.model_names[i], name))
            return i;
    return 0;
}

LIBTM_SAFE int qcg_sound_index(const char *name)
{
    for (int i = 1; i < sv.num_sounds; i++)
        if (qcg_streq(sv.sound_names[i], name))
            return i;
    return 0;
}

/* 3 setmodel(e, m) */
BUILTIN(bi_setmodel)
{
    EDICT_PARM(e, 0);
    qc_string m = qc_parm_int(ctx, 1);
    const char *name = qcg_string(m);
    int index = name[0] ? qcg_model_index(name) : 0;
    if (name[0] && !index)
        return qc_raise(ctx, QC_ERR_BUILTIN, "setmodel: model %s was not precached", name);
    qcg_set_int(e, qcg.f.model, m);
    qcg_set_float(e, qcg.f.modelindex, (float)index);
    if (name[0] == '*') {
        const qw_bsp_model *sub = qw_bsp_get_model(sv.bsp, index - 1);
        if (sub) {
            float mins[3] = {sub->mins[0], sub->mins[1], sub->mins[2]};
            float maxs[3] = {sub->maxs[0], sub->maxs[1], sub->maxs[2]};
            return set_size(e, mins, maxs);
        }
    }
    return QC_OK;
}

/* 4 setsize(e, min, max) */
BUILTIN(bi_setsize)
{
    EDICT_PARM(e, 0);
    float mins[3], maxs[3];
    qc_parm_vector(ctx, 1, mins);
    qc_parm_vector(ctx, 2, maxs);
    return set_size(e, mins, maxs);
}

/* 14 spawn() */
BUILTIN(bi_spawn)
{
    int e = qcg_edict_alloc();
    if (!e)
        return qc_raise(ctx, QC_ERR_BUILTIN, "spawn: no free edict (all %d in use)",
                        QCG_MAX_EDICTS);
    qc_set_return_int(ctx, e);
    return QC_OK;
}

/* 15 remove(e) */
BUILTIN(bi_remove)
{
    EDICT_PARM(e, 0);
    if (e < QCG_FIRST_NONPLAYER)
        return qc_raise(ctx, QC_ERR_BUILTIN, "remove: entity %d is the world or a player", e);
    if (qcg_in_use(e))
        qcg_edict_free(e);
    return QC_OK;
}

LIBTM_SAFE static void set_trace_globals(qc_ctx *ctx, const qw_trace *tr, int hit)
{
    QCG_SYSTEM(s);
    qc_ctx_set_float(ctx, s->trace_allsolid, (float)tr->allsolid);
    qc_ctx_set_float(ctx, s->trace_startsolid, (float)tr->startsolid);
    qc_ctx_set_float(ctx, s->trace_fraction, tr->fraction);
    qc_ctx_set_float(ctx, s->trace_inwater, (float)tr->inwater);
    qc_ctx_set_float(ctx, s->trace_inopen, (float)tr->inopen);
    qc_ctx_set_vector(ctx, s->trace_endpos, tr->endpos);
    qc_ctx_set_vector(ctx, s->trace_plane_normal, tr->plane.normal);
    qc_ctx_set_float(ctx, s->trace_plane_dist, tr->plane.dist);
    qc_ctx_set_int(ctx, s->trace_ent, hit);
}

/* 16 traceline(v1, v2, nomonsters, forent) */
BUILTIN(bi_traceline)
{
    float v1[3], v2[3];
    static const float zero[3];
    qc_parm_vector(ctx, 0, v1);
    qc_parm_vector(ctx, 1, v2);
    int nomonsters = (int)qc_parm_float(ctx, 2);
    EDICT_PARM(forent, 3);
    qw_trace tr;
    int hit;
    qcg_move(v1, zero, zero, v2, nomonsters ? QW_MOVE_NOMONSTERS : QW_MOVE_NORMAL, forent, &tr,
             &hit);
    set_trace_globals(ctx, &tr, hit);
    return QC_OK;
}

/* 17 checkclient(): the first living player, from this frame's candidate on, whose place is
 * in the PVS of self's eye (monsters look for players with it). */
BUILTIN(bi_checkclient)
{
    int self = self_of(ctx);
    float eye[3], ofs[3];
    qcg_vec(self, qcg.f.origin, eye);
    qcg_vec(self, qcg.f.view_ofs, ofs);
    for (int i = 0; i < 3; i++)
        eye[i] += ofs[i];
    int leaf = qw_bsp_leaf_for_point(sv.bsp, eye);
    const uint8_t *row = leaf > 0 ? qw_pvs_row(sv.pvs, leaf) : NULL;
    for (int k = 0; k < QW_MAX_CLIENTS; k++) {
        int n = 1 + (qcg.checkclient_last + k) % QW_MAX_CLIENTS;
        if (!sv.players[n - 1].active || qcg_float(n, qcg.f.health) <= 0 ||
            ((int)qcg_float(n, qcg.f.flags) & FL_NOTARGET))
            continue;
        const qw_area_object *obj = qcg_link(n);
        bool seen = !row || obj->num_leafs < 0;
        for (int j = 0; j < obj->num_leafs && !seen; j++)
            seen = qw_pvs_row_has(row, obj->leafnums[j]);
        if (seen) {
            qc_set_return_int(ctx, n);
            return QC_OK;
        }
    }
    qc_set_return_int(ctx, 0);
    return QC_OK;
}

/* 18 find(start, .string fld, match) */
BUILTIN(bi_find)
{
    EDICT_PARM(start, 0);
    int fld = qc_parm_int(ctx, 1);
    const char *match = qcg_string(qc_parm_int(ctx, 2));
    if (fld < 0 || fld >= qc_entity_fields(qcg_vm()))
        return qc_raise(ctx, QC_ERR_FIELD_RANGE, "find: bad field %d", fld);
    /* the bound read once: a scan writes nothing, so the transaction sees it unchanged (a
     * read each time round was a barrier per edict) */
    for (int e = start + 1, end = qcg.num_edicts; e < end; e++) {
        if (!qcg_in_use(e))
            continue;
        qc_string s = qcg_ed(e)[fld].i;
        if (s && qcg_streq(qcg_string(s), match)) {
            qc_set_return_int(ctx, e);
            return QC_OK;
        }
    }
    qc_set_return_int(ctx, 0);
    return QC_OK;
}

/* 19, 20, 75, 76 precache_sound/model(s): lists grow only while the map spawns. */
LIBTM_SAFE static qc_status precache(qc_ctx *ctx, bool model)
{
    qc_string s = qc_parm_int(ctx, 0);
    const char *name = qcg_string(s);
    qc_set_return_int(ctx, s);
    if (!name[0] || (model ? qcg_model_index(name) : qcg_sound_index(name)))
        return QC_OK;
    if (!qcg.spawning)
        return qc_raise(ctx, QC_ERR_BUILTIN, "precache of %s after the map was spawned", name);
    int *count = model ? &sv.num_models : &sv.num_sounds;
    if (*count >= (model ? QW_MAX_MODELS : QW_MAX_SOUNDS))
        return qc_raise(ctx, QC_ERR_BUILTIN, "precache: the %s list is full",
                        model ? "model" : "sound");
    qw_strlcpy(model ? sv.model_names[*count] : sv.sound_names[*count], name, 64);
    (*count)++;
    return QC_OK;
}
BUILTIN(bi_precache_sound) { return precache(ctx, false); }
BUILTIN(bi_precache_model) { return precache(ctx, true); }

/* 68, 77 precache_file(s) */
BUILTIN(bi_precache_file)
{
    qc_set_return_int(ctx, qc_parm_int(ctx, 0));
    return QC_OK;
}

/* Whether edict e is findradius's: solid, its centre within rad of org. */
LIBTM_SAFE static bool within(int e, const float org[3], float rad)
{
    QCG_FIELDS(f);
    if (!qcg_in_use(e) || (int)qcg_float(e, f->solid) == QW_SOLID_NOT)
        return false;
    const qc_word *ed = qcg_ed(e);
    float d[3];
    for (int i = 0; i < 3; i++)
        d[i] = org[i] - (ed[f->origin + i].f + (ed[f->mins + i].f + ed[f->maxs + i].f) * 0.5f);
    return qw_vec_length(d) <= rad;
}

/* The edicts whose links lie in the box org +- rad (every solid edict is linked: setorigin,
 * setmodel and setsize link it), in increasing number; -1 when there are too many. */
#define RADIUS_CANDIDATES 256
LIBTM_SAFE static int near_edicts(const float org[3], float rad, int out[2 * RADIUS_CANDIDATES])
{
    float lo[3], hi[3];
    for (int i = 0; i < 3; i++) {
        lo[i] = org[i] - rad;
        hi[i] = org[i] + rad;
    }
    qw_area_object *found[RADIUS_CANDIDATES];
    int count = 0;
    for (int kind = 0; kind < 2; kind++) {
        int n = qw_area_query_box(&sv.area, lo, hi, kind ? QW_SOLID_TRIGGER : QW_SOLID_BBOX,
                                  found, RADIUS_CANDIDATES);
        if (n > RADIUS_CANDIDATES)
            return -1;
        for (int i = 0; i < n; i++) {
            int e = qcg_edict_of(found[i]), k = count++;
            for (; k > 0 && out[k - 1] > e; k--) /* insertion: a few dozen at most */
                out[k] = out[k - 1];
            out[k] = e;
        }
    }
    return count;
}

/* 22 findradius(org, rad): the edicts with a solid whose centre is within rad, chained
 * through .chain (the highest number first, as the originals' scan of every edict left it).
 * The areanode tree gives the edicts near org, so a search reads those, not all 768. */
BUILTIN(bi_findradius)
{
    float org[3];
    qc_parm_vector(ctx, 0, org);
    float rad = qc_parm_float(ctx, 1);
    int near[2 * RADIUS_CANDIDATES];
    int count = rad >= 0 && rad < 8192 ? near_edicts(org, rad, near) : -1;
    int chain = 0;
    if (count < 0) {
        for (int e = 1, end = qcg.num_edicts; e < end; e++) /* the bound once: see find */
            if (within(e, org, rad)) {
                qcg_set_int(e, qcg.f.chain, chain);
                chain = e;
            }
    } else {
        for (int i = 0; i < count; i++)
            if (near[i] > 0 && (i == 0 || near[i] != near[i - 1]) && within(near[i], org, rad)) {
                qcg_set_int(near[i], qcg.f.chain, chain);
                chain = near[i];
            }
    }
    qc_set_return_int(ctx, chain);
    return QC_OK;
}

/* Whether edict e stands on ground at all four bottom corners (SV_CheckBottom). */
LIBTM_SAFE static bool check_bottom(int e)
{
    float origin[3], mins[3], maxs[3], start[3], stop[3];
    static const float zero[3];
    qcg_vec(e, qcg.f.origin, origin);
    qcg_vec(e, qcg.f.mins, mins);
    qcg_vec(e, qcg.f.maxs, maxs);
    for (int i = 0; i < 3; i++) {
        mins[i] += origin[i];
        maxs[i] += origin[i];
    }
    start[2] = mins[2] - 1;
    bool quick = true;
    for (int x = 0; x <= 1 && quick; x++)
        for (int y = 0; y <= 1 && quick; y++) {
            start[0] = x ? maxs[0] : mins[0];
            start[1] = y ? maxs[1] : mins[1];
            quick = qw_point_contents(sv.bsp, start) == QW_CONTENTS_SOLID;
        }
    if (quick)
        return true;
    start[2] = mins[2];
    start[0] = stop[0] = (mins[0] + maxs[0]) * 0.5f;
    start[1] = stop[1] = (mins[1] + maxs[1]) * 0.5f;
    stop[2] = start[2] - 2 * STEPSIZE;
    qw_trace tr;
    int hit;
    qcg_move(start, zero, zero, stop, QW_MOVE_NOMONSTERS, e, &tr, &hit);
    if (tr.fraction == 1)
        return false;
    float mid = tr.endpos[2];
    for (int x = 0; x <= 1; x++)
        for (int y = 0; y <= 1; y++) {
            start[0] = stop[0] = x ? maxs[0] : mins[0];
            start[1] = stop[1] = y ? maxs[1] : mins[1];
            qcg_move(start, zero, zero, stop, QW_MOVE_NOMONSTERS, e, &tr, &hit);
            if (tr.fraction == 1 || mid - tr.endpos[2] > STEPSIZE)
                return false;
        }
    return true;
}

/* A monster's step by move (SV_movestep): up or down a stair, never off an edge. */
LIBTM_SAFE static qc_status move_step(int e, const float move[3], bool *moved)
{
    QCG_FIELDS(f);
    float origin[3], mins[3], maxs[3], neworg[3], end[3];
    qcg_vec(e, f->origin, origin);
    qcg_vec(e, f->mins, mins);
    qcg_vec(e, f->maxs, maxs);
    int flags = (int)qcg_float(e, f->flags);
    qw_trace tr;
    int hit;
    *moved = false;
    for (int i = 0; i < 3; i++)
        neworg[i] = origin[i] + move[i];
    if (flags & (FL_FLY | FL_SWIM)) {
        qcg_move(origin, mins, maxs, neworg, QW_MOVE_NORMAL, e, &tr, &hit);
        if (tr.fraction == 1) {
            qcg_set_vec(e, f->origin, tr.endpos);
            *moved = true;
            return qcg_link_edict(e, true);
        }
        return QC_OK;
    }
    neworg[2] += STEPSIZE;
    qw_vec_copy(neworg, end);
    end[2] -= STEPSIZE * 2;
    qcg_move(neworg, mins, maxs, end, QW_MOVE_NORMAL, e, &tr, &hit);
    if (tr.allsolid)
        return QC_OK;
    if (tr.startsolid) {
        neworg[2] -= STEPSIZE;
        qcg_move(neworg, mins, maxs, end, QW_MOVE_NORMAL, e, &tr, &hit);
        if (tr.allsolid || tr.startsolid)
            return QC_OK;
    }
    if (tr.fraction == 1) {
        if (flags & FL_PARTIALGROUND) {
            for (int i = 0; i < 3; i++)
                origin[i] += move[i];
            qcg_set_vec(e, f->origin, origin);
            qcg_set_float(e, f->flags, (float)(flags & ~FL_ONGROUND));
            *moved = true;
            return qcg_link_edict(e, true);
        }
        return QC_OK; /* walked off an edge */
    }
    qcg_set_vec(e, f->origin, tr.endpos);
    if (!check_bottom(e)) {
        if (flags & FL_PARTIALGROUND) {
            *moved = true;
            return qcg_link_edict(e, true);
        }
        qcg_set_vec(e, f->origin, origin);
        return QC_OK;
    }
    if (flags & FL_PARTIALGROUND)
        qcg_set_float(e, f->flags, (float)(flags & ~FL_PARTIALGROUND));
    qcg_set_int(e, f->groundentity, hit);
    *moved = true;
    return qcg_link_edict(e, true);
}

/* 32 walkmove(yaw, dist) */
BUILTIN(bi_walkmove)
{
    float yaw = qc_parm_float(ctx, 0), dist = qc_parm_float(ctx, 1);
    int self = self_of(ctx);
    qc_set_return_float(ctx, 0);
    if (!((int)qcg_float(self, qcg.f.flags) & (FL_ONGROUND | FL_FLY | FL_SWIM)))
        return QC_OK;
    yaw = yaw * (float)M_PI * 2 / 360;
    float move[3] = {qw_cosf(yaw) * dist, qw_sinf(yaw) * dist, 0};
    bool moved;
    /* touches run nested and overwrite the return value: it is set last */
    if (move_step(self, move, &moved) != QC_OK)
        return QC_ERROR;
    qc_ctx_set_int(ctx, QCG_SYS(self), self);
    qc_set_return_float(ctx, moved);
    return QC_OK;
}

/* 34 droptofloor() */
BUILTIN(bi_droptofloor)
{
    int self = self_of(ctx);
    QCG_FIELDS(f);
    float origin[3], mins[3], maxs[3], end[3];
    qcg_vec(self, f->origin, origin);
    qcg_vec(self, f->mins, mins);
    qcg_vec(self, f->maxs, maxs);
    qw_vec_copy(origin, end);
    end[2] -= 256;
    qw_trace tr;
    int hit;
    qcg_move(origin, mins, maxs, end, QW_MOVE_NORMAL, self, &tr, &hit);
    if (tr.fraction == 1 || tr.allsolid) {
        qc_set_return_float(ctx, 0);
        return QC_OK;
    }
    qcg_set_vec(self, f->origin, tr.endpos);
    if (qcg_link_edict(self, false) != QC_OK)
        return QC_ERROR;
    qcg_set_float(self, f->flags, (float)((int)qcg_float(self, f->flags) | FL_ONGROUND));
    qcg_set_int(self, f->groundentity, hit);
    qc_set_return_float(ctx, 1);
    return QC_OK;
}

/* 35 lightstyle(n, s): kept for newcomers, sent to everybody in the game */
BUILTIN(bi_lightstyle)
{
    int style = (int)qc_parm_float(ctx, 0);
    const char *value = qcg_string(qc_parm_int(ctx, 1));
    if (style < 0 || style >= QW_MAX_LIGHTSTYLES)
        return qc_raise(ctx, QC_ERR_BUILTIN, "lightstyle %d out of range", style);
    qw_strlcpy(qcg.lightstyles[style], value, sizeof qcg.lightstyles[0]);
    if (qcg.spawning)
        return QC_OK;
    uint8_t msg[80];
    qw_sizebuf sb;
    qw_sizebuf_init(&sb, msg, sizeof msg);
    qw_write_byte(&sb, svc_lightstyle);
    qw_write_byte(&sb, style);
    qw_write_string(&sb, qcg.lightstyles[style]);
    sv_reliable_broadcast(msg, sb.cursize);
    return QC_OK;
}

/* 40 checkbottom(e) */
BUILTIN(bi_checkbottom)
{
    EDICT_PARM(e, 0);
    qc_set_return_float(ctx, check_bottom(e));
    return QC_OK;
}

/* 41 pointcontents(v) */
BUILTIN(bi_pointcontents)
{
    float v[3];
    qc_parm_vector(ctx, 0, v);
    qc_set_return_float(ctx, (float)qw_point_contents(sv.bsp, v));
    return QC_OK;
}

/* 44 aim(e, speed): QuakeWorld's servers aim where the player looks (sv_aim 2) */
BUILTIN(bi_aim)
{
    float forward[3];
    qc_ctx_get_vector(ctx, QCG_SYS(v_forward), forward);
    qc_set_return_vector(ctx, forward);
    return QC_OK;
}

/* 45 cvar(s): the values the master copied at the start of the frame (world_frame.c) */
BUILTIN(bi_cvar)
{
    qc_set_return_float(ctx, qcg_cvar_value(qcg_string(qc_parm_int(ctx, 0))));
    return QC_OK;
}

/* 72 cvar_set(var, val): done by the master in U */
BUILTIN(bi_cvar_set)
{
    const char *name = qcg_string(qc_parm_int(ctx, 0));
    const char *value = qcg_string(qc_parm_int(ctx, 1));
    for (int i = 0; i < 8; i++)
        if (!qcg.cvar_sets[i].pending) {
            qw_strlcpy(qcg.cvar_sets[i].name, name, sizeof qcg.cvar_sets[i].name);
            qw_strlcpy(qcg.cvar_sets[i].value, value, sizeof qcg.cvar_sets[i].value);
            qcg.cvar_sets[i].pending = true;
            return QC_OK;
        }
    return QC_OK; /* more than 8 in one frame: the rest are lost, as a full command buffer */
}

/* 46 localcmd(s): run by the master in U */
BUILTIN(bi_localcmd)
{
    const char *text = qcg_string(qc_parm_int(ctx, 0));
    size_t have = qw_strlen(qcg.localcmd);
    if (have + qw_strlen(text) < sizeof qcg.localcmd)
        qw_strlcpy(qcg.localcmd + have, text, sizeof qcg.localcmd - have);
    return QC_OK;
}

/* 47 nextent(e) */
BUILTIN(bi_nextent)
{
    EDICT_PARM(e, 0);
    for (int n = e + 1, end = qcg.num_edicts; n < end; n++) /* the bound once: see find */
        if (qcg_in_use(n)) {
            qc_set_return_int(ctx, n);
            return QC_OK;
        }
    qc_set_return_int(ctx, 0);
    return QC_OK;
}

LIBTM_PURE static float yaw_of(float y, float x)
{
    return atan2f(y, x) * 180 / (float)M_PI;
}

LIBTM_PURE static float anglemod(float a)
{
    return (360.0f / 65536) * (float)((int)(a * (65536 / 360.0f)) & 65535);
}

/* Turns edict e's yaw towards its ideal_yaw by at most its yaw_speed. */
LIBTM_SAFE static void change_yaw(int e)
{
    QCG_FIELDS(f);
    float current = anglemod(qcg_ed(e)[f->angles + 1].f);
    float ideal = qcg_float(e, f->ideal_yaw), speed = qcg_float(e, f->yaw_speed);
    if (current == ideal)
        return;
    float move = ideal - current;
    if (ideal > current) {
        if (move >= 180)
            move -= 360;
    } else if (move <= -180) {
        move += 360;
    }
    if (move > 0 && move > speed)
        move = speed;
    else if (move < 0 && move < -speed)
        move = -speed;
    qcg_ed(e)[f->angles + 1].f = anglemod(current + move);
}

/* 49 ChangeYaw() */
BUILTIN(bi_changeyaw)
{
    change_yaw(self_of(ctx));
    return QC_OK;
}

/* 67 movetogoal(step): towards goalentity along ideal_yaw, else round the obstacle by the
 * next of eight directions (a simplified SV_MoveToGoal: the originals add random detours) */
BUILTIN(bi_movetogoal)
{
    int self = self_of(ctx);
    float dist = qc_parm_float(ctx, 0);
    QCG_FIELDS(f);
    if (!((int)qcg_float(self, f->flags) & (FL_ONGROUND | FL_FLY | FL_SWIM)))
        return QC_OK;
    int goal = qcg_ent(self, f->goalentity);
    if (goal) {
        float from[3], to[3], d[3];
        qcg_vec(self, f->origin, from);
        qcg_vec(goal, f->origin, to);
        qw_vec_subtract(to, from, d);
        float yaw = yaw_of(d[1], d[0]);
        qcg_set_float(self, f->ideal_yaw, anglemod(yaw));
    }
    change_yaw(self);
    float base = qcg_float(self, f->ideal_yaw);
    for (int k = 0; k < 8; k++) {
        float yaw = (base + 45.0f * (float)((k + 1) / 2) * (k % 2 ? 1 : -1)) * (float)M_PI / 180;
        float move[3] = {qw_cosf(yaw) * dist, qw_sinf(yaw) * dist, 0};
        bool moved;
        if (move_step(self, move, &moved) != QC_OK)
            return QC_ERROR;
        qc_ctx_set_int(ctx, QCG_SYS(self), self);
        if (moved)
            return QC_OK;
    }
    return QC_OK;
}

/* 70 changelevel(s): once per frame, done by the master in U */
BUILTIN(bi_changelevel)
{
    if (!qcg.changelevel[0])
        qw_strlcpy(qcg.changelevel, qcg_string(qc_parm_int(ctx, 0)), sizeof qcg.changelevel);
    return QC_OK;
}

/* 78 setspawnparms(e) */
BUILTIN(bi_setspawnparms)
{
    EDICT_PARM(e, 0);
    if (!qcg_is_player(e))
        return qc_raise(ctx, QC_ERR_BUILTIN, "setspawnparms: entity %d is not a client", e);
    for (int i = 0; i < 16; i++)
        qc_ctx_set_float(ctx, QCG_SYS(parm1) + i, qcg.parms[e - 1][i]);
    return QC_OK;
}

/* 79 logfrag(killer, killee): the frag log's line, "\killer\killee" */
BUILTIN(bi_logfrag)
{
    EDICT_PARM(killer, 0);
    EDICT_PARM(killee, 1);
    if (!qcg_is_player(killer) || !qcg_is_player(killee))
        return QC_OK;
    char line[80];
    qw_strlcpy(line, "\\", sizeof line);
    size_t n = qw_strlen(line);
    qw_strlcpy(line + n, sv.clients[killer - 1].name, sizeof line - n);
    n = qw_strlen(line);
    qw_strlcpy(line + n, "\\", sizeof line - n);
    n = qw_strlen(line);
    qw_strlcpy(line + n, sv.clients[killee - 1].name, sizeof line - n);
    sv_log_deferred("fraglog: ", line);
    return QC_OK;
}

/* The value of key in an info string (\key\value...), into out. As INFO_VALUE_BODY for
 * both variants below. */
#define INFO_VALUE_BODY                                                                        \
    out[0] = 0;                                                                                \
    size_t keylen = qw_strlen(key);                                                            \
    const char *p = info;                                                                      \
    while (*p == '\\') {                                                                       \
        const char *k = p + 1, *v = k;                                                         \
        while (*v && *v != '\\')                                                               \
            v++;                                                                               \
        if (!*v)                                                                               \
            return;                                                                            \
        const char *end = v + 1;                                                               \
        while (*end && *end != '\\')                                                           \
            end++;                                                                             \
        bool match = (size_t)(v - k) == keylen;                                                \
        for (size_t i = 0; match && i < keylen; i++)                                           \
            match = k[i] == key[i];                                                            \
        if (match) {                                                                           \
            size_t len = (size_t)(end - v - 1);                                                \
            if (len >= size)                                                                   \
                len = size - 1;                                                                \
            for (size_t i = 0; i < len; i++)                                                   \
                out[i] = v[1 + i];                                                             \
            out[len] = 0;                                                                      \
            return;                                                                            \
        }                                                                                      \
        p = end;                                                                               \
    }

/* A userinfo: a client's worker changes it in RP (CS_USERINFO), so it is read through the
 * transaction. */
LIBTM_SAFE static void info_value(const char *info, const char *key, char *out, size_t size)
{
    INFO_VALUE_BODY
}

/* The serverinfo: changed only by the master while no worker runs (the console, rcon, and
 * QuakeC's cvar_set, which RP leaves to U), so during RP nobody writes it and reading it
 * needs no barrier. Pure: key must be fixed data too (a progs string) and out the caller's
 * local. */
LIBTM_PURE static void info_value_fixed(const char *info, const char *key, char *out,
                                        size_t size)
{
    INFO_VALUE_BODY
}
#undef INFO_VALUE_BODY

/* 80 infokey(e, key): the serverinfo (e = world) or a player's userinfo, "ip", "ping" */
BUILTIN(bi_infokey)
{
    EDICT_PARM(e, 0);
    const char *key = qcg_string(qc_parm_int(ctx, 1));
    char value[128];
    value[0] = 0;
    if (e == 0) {
        info_value_fixed(sv.serverinfo, key, value, sizeof value);
    } else if (qcg_is_player(e) && sv.clients[e - 1].state >= CL_CONNECTED) {
        const sv_client *cl = &sv.clients[e - 1];
        if (qcg_streq(key, "ping")) {
            int ping = (int)cl->ping_ms, n = 0;
            char digits[16];
            do {
                digits[n++] = (char)('0' + ping % 10);
                ping /= 10;
            } while (ping && n < 15);
            for (int i = 0; i < n; i++)
                value[i] = digits[n - 1 - i];
            value[n] = 0;
        } else {
            info_value(cl->userinfo, key, value, sizeof value);
        }
    }
    qc_set_return_int(ctx, qc_string_temp(ctx, value));
    return QC_OK;
}

/* This file's builtins (numbers and names as QuakeWorld's defs.qc), registered whole by
 * sv_qcgame_choose. */
const struct qc_builtin_def qcg_world_builtins[] = {
    { 2, "setorigin", "sets e.origin and relinks e in the world (no touches)",
      .world = bi_setorigin },
    { 3, "setmodel", "sets e.model and e.modelindex from the precached model list (error if not "
                     "precached); for a brush model (*N) also mins/maxs/size from its bounds; "
                     "relinks", .world = bi_setmodel },
    { 4, "setsize", "sets e.mins, e.maxs and e.size = maxs - mins; relinks", .world = bi_setsize },
    { 14, "spawn", "a free entity (fields cleared), marked in use", .world = bi_spawn },
    { 15, "remove", "frees e: unlinks it, clears its fields, remembers when (reuse after 0.5 s)",
      .world = bi_remove },
    { 16, "traceline", "traces from v1 to v2 (nomonsters: only the world and brush models) "
                       "ignoring forent; sets trace_allsolid, trace_startsolid, trace_fraction, "
                       "trace_endpos, trace_plane_normal, trace_plane_dist, trace_ent, "
                       "trace_inopen, trace_inwater (this context's own)", .world = bi_traceline },
    { 17, "checkclient", "a client in the PVS of self (the candidate changes each frame), else "
                         "world", .world = bi_checkclient },
    { 18, "find", "the next entity after start whose string field fld equals match, or world",
      .world = bi_find },
    { 19, "precache_sound", "adds a sound to the sound list (only while spawning); returns its "
                            "argument", .world = bi_precache_sound },
    { 20, "precache_model", "adds a model to the model list (only while spawning); returns its "
                            "argument", .world = bi_precache_model },
    { 22, "findradius", "entities (solid != SOLID_NOT) within rad of org, linked through .chain, "
                        "world-terminated", .world = bi_findradius },
    { 32, "walkmove", "moves self dist units along yaw as a monster step, relinking with touches "
                      "(nested QuakeC); TRUE if it moved", .world = bi_walkmove },
    { 34, "droptofloor", "moves self down up to 256 units onto the floor; TRUE and FL_ONGROUND "
                         "if it landed", .world = bi_droptofloor },
    { 35, "lightstyle", "sets light style n to a string and sends it to every client",
      .world = bi_lightstyle },
    { 40, "checkbottom", "TRUE if e stands on solid ground at all four corners",
      .world = bi_checkbottom },
    { 41, "pointcontents", "the CONTENT_* value at a point", .world = bi_pointcontents },
    { 44, "aim", "the direction to shoot from e (v_forward, or towards a target when autoaim is "
                 "on)", .world = bi_aim },
    { 45, "cvar", "the value of a server variable", .world = bi_cvar },
    { 46, "localcmd", "adds text to the server's command buffer", .world = bi_localcmd },
    { 47, "nextent", "the next entity in use after e, or world", .world = bi_nextent },
    { 49, "ChangeYaw", "turns self.angles_y towards self.ideal_yaw by at most self.yaw_speed",
      .world = bi_changeyaw },
    { 67, "movetogoal", "moves self towards self.goalentity by step (monster navigation)",
      .world = bi_movetogoal },
    { 68, "precache_file", "returns its argument (no effect)", .world = bi_precache_file },
    { 70, "changelevel", "starts a change to the named map (once per frame)",
      .world = bi_changelevel },
    { 72, "cvar_set", "sets a server variable", .world = bi_cvar_set },
    { 75, "precache_model2", "as precache_model", .world = bi_precache_model },
    { 76, "precache_sound2", "as precache_sound", .world = bi_precache_sound },
    { 77, "precache_file2", "as precache_file", .world = bi_precache_file },
    { 78, "setspawnparms", "copies client e's spawn parms into parm1..parm16 (this context's)",
      .world = bi_setspawnparms },
    { 79, "logfrag", "records a frag (killer, killee) in the frag log", .world = bi_logfrag },
    { 80, "infokey", "the value of key in serverinfo (e = world) or e's userinfo, also \"ip\" "
                     "and \"ping\" (temporary string)", .world = bi_infokey },
    { 0 }
};
