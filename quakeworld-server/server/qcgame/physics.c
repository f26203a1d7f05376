/* The physics of every movetype, as QuakeWorld's server runs it (sv_phys.c): thinking,
 * none, noclip, push (doors and plats: riders carried, blockers pushed back or the mover's
 * .blocked called), toss, bounce, fly, flymissile, step (monsters falling). Walking players
 * move by pmove in their commands (players.c). */
#include <math.h>

#include "qcgame/qcg.h"
#include "qw_math.h"

#define STOP_EPSILON 0.1f
#define MAX_VELOCITY 2000.0f

LIBTM_SAFE qc_status qcg_run_think(qc_ctx *ctx, int n, float frametime, bool *still_there)
{
    QCG_FIELDS(f);
    *still_there = true;
    for (int guard = 0; guard < 16; guard++) {
        float thinktime = qcg_float(n, f->nextthink);
        if (thinktime <= 0 || thinktime > sv.time + frametime)
            return QC_OK;
        if (thinktime < sv.time)
            thinktime = (float)sv.time; /* don't let things stay in the past */
        qcg_set_float(n, f->nextthink, 0);
        qc_ctx_set_float(ctx, QCG_SYS(time), thinktime);
        if (qcg_call(ctx, qcg_int(n, f->think), n, 0) != QC_OK)
            return QC_ERROR;
        if (!qcg_in_use(n)) {
            *still_there = false;
            return QC_OK;
        }
    }
    return QC_OK;
}

LIBTM_SAFE qc_status qcg_impact(qc_ctx *ctx, int e1, int e2)
{
    QCG_FIELDS(f);
    qc_ctx_set_float(ctx, QCG_SYS(time), (float)sv.time);
    qc_func t1 = qcg_int(e1, f->touch);
    if (t1 && (int)qcg_float(e1, f->solid) != QW_SOLID_NOT)
        if (qcg_call(ctx, t1, e1, e2) != QC_OK)
            return QC_ERROR;
    qc_func t2 = qcg_int(e2, f->touch);
    if (t2 && (int)qcg_float(e2, f->solid) != QW_SOLID_NOT)
        if (qcg_call(ctx, t2, e2, e1) != QC_OK)
            return QC_ERROR;
    return QC_OK;
}

LIBTM_SAFE static void check_velocity(int n)
{
    qc_word *v = qcg_ed(n) + qcg.f.velocity;
    for (int i = 0; i < 3; i++) {
        if (isnan(v[i].f))
            v[i].f = 0;
        else if (v[i].f > MAX_VELOCITY)
            v[i].f = MAX_VELOCITY;
        else if (v[i].f < -MAX_VELOCITY)
            v[i].f = -MAX_VELOCITY;
    }
}

/* Slides velocity along a plane; returns the blocked flags (1 floor, 2 step/wall). */
LIBTM_SAFE static int clip_velocity(const float in[3], const float normal[3], float out[3],
                                    float overbounce)
{
    int blocked = 0;
    if (normal[2] > 0)
        blocked |= 1;
    if (!normal[2])
        blocked |= 2;
    float backoff = qw_vec_dot(in, normal) * overbounce;
    for (int i = 0; i < 3; i++) {
        out[i] = in[i] - normal[i] * backoff;
        if (out[i] > -STOP_EPSILON && out[i] < STOP_EPSILON)
            out[i] = 0;
    }
    return blocked;
}

/* Moves edict n by push (SV_PushEntity): stops at what it hits, relinks touching triggers,
 * runs the impact. */
LIBTM_SAFE static qc_status push_entity(qc_ctx *ctx, int n, const float push[3], qw_trace *tr,
                                        int *hit)
{
    QCG_FIELDS(f);
    float origin[3], mins[3], maxs[3], end[3];
    qcg_vec(n, f->origin, origin);
    qcg_vec(n, f->mins, mins);
    qcg_vec(n, f->maxs, maxs);
    for (int i = 0; i < 3; i++)
        end[i] = origin[i] + push[i];
    int movetype = (int)qcg_float(n, f->movetype), solid = (int)qcg_float(n, f->solid);
    int type = movetype == MOVETYPE_FLYMISSILE ? QW_MOVE_MISSILE
               : solid == QW_SOLID_TRIGGER || solid == QW_SOLID_NOT ? QW_MOVE_NOMONSTERS
                                                                    : QW_MOVE_NORMAL;
    qcg_move(origin, mins, maxs, end, type, n, tr, hit);
    qcg_set_vec(n, f->origin, tr->endpos);
    if (qcg_link_edict(n, true) != QC_OK)
        return QC_ERROR;
    if (tr->fraction < 1 && qcg_in_use(n))
        return qcg_impact(ctx, n, *hit);
    return QC_OK;
}

LIBTM_SAFE static void add_gravity(int n, float frametime)
{
    float scale = qcg.f.gravity >= 0 ? qcg_float(n, qcg.f.gravity) : 0;
    if (!scale)
        scale = 1;
    qcg_ed(n)[qcg.f.velocity + 2].f -= scale * sv.movevars.gravity * frametime;
}

LIBTM_SAFE static void check_water_transition(int n)
{
    QCG_FIELDS(f);
    float origin[3];
    qcg_vec(n, f->origin, origin);
    int cont = qw_point_contents(sv.bsp, origin);
    if (!qcg_float(n, f->watertype)) {
        qcg_set_float(n, f->watertype, (float)cont);
        qcg_set_float(n, f->waterlevel, 1);
        return;
    }
    if (cont <= QW_CONTENTS_WATER) {
        qcg_set_float(n, f->watertype, (float)cont);
        qcg_set_float(n, f->waterlevel, 1);
    } else {
        qcg_set_float(n, f->watertype, QW_CONTENTS_EMPTY);
        qcg_set_float(n, f->waterlevel, (float)cont);
    }
}

/* toss, bounce, fly, flymissile (SV_Physics_Toss). */
LIBTM_SAFE static qc_status physics_toss(qc_ctx *ctx, int n, float frametime)
{
    QCG_FIELDS(f);
    qc_word *ed = qcg_ed(n);
    int flags = (int)ed[f->flags].f;
    if (ed[f->velocity + 2].f > 0 && (flags & FL_ONGROUND))
        ed[f->flags].f = (float)(flags &= ~FL_ONGROUND);
    if (flags & FL_ONGROUND)
        return QC_OK;
    check_velocity(n);
    int movetype = (int)ed[f->movetype].f;
    if (movetype != MOVETYPE_FLY && movetype != MOVETYPE_FLYMISSILE)
        add_gravity(n, frametime);
    float move[3];
    for (int i = 0; i < 3; i++) {
        ed[f->angles + i].f += frametime * ed[f->avelocity + i].f;
        move[i] = ed[f->velocity + i].f * frametime;
    }
    qw_trace tr;
    int hit;
    if (push_entity(ctx, n, move, &tr, &hit) != QC_OK)
        return QC_ERROR;
    if (tr.fraction == 1 || !qcg_in_use(n))
        return QC_OK;
    float velocity[3];
    qcg_vec(n, f->velocity, velocity);
    clip_velocity(velocity, tr.plane.normal, velocity, movetype == MOVETYPE_BOUNCE ? 1.5f : 1);
    qcg_set_vec(n, f->velocity, velocity);
    if (tr.plane.normal[2] > 0.7f && (velocity[2] < 60 || movetype != MOVETYPE_BOUNCE)) {
        static const float zero[3];
        ed[f->flags].f = (float)((int)ed[f->flags].f | FL_ONGROUND);
        qcg_set_int(n, f->groundentity, hit);
        qcg_set_vec(n, f->velocity, zero);
        qcg_set_vec(n, f->avelocity, zero);
    }
    check_water_transition(n);
    return QC_OK;
}

/* SV_FlyMove for monsters falling (step): slides along up to 4 planes. */
LIBTM_SAFE static qc_status fly_move(qc_ctx *ctx, int n, float time)
{
    QCG_FIELDS(f);
    float planes[5][3], primal[3], original[3], velocity[3], new_velocity[3];
    int numplanes = 0;
    qcg_vec(n, f->velocity, velocity);
    qw_vec_copy(velocity, primal);
    qw_vec_copy(velocity, original);
    float time_left = time;
    for (int bump = 0; bump < 4; bump++) {
        if (!velocity[0] && !velocity[1] && !velocity[2])
            break;
        float origin[3], mins[3], maxs[3], end[3];
        qcg_vec(n, f->origin, origin);
        qcg_vec(n, f->mins, mins);
        qcg_vec(n, f->maxs, maxs);
        for (int i = 0; i < 3; i++)
            end[i] = origin[i] + time_left * velocity[i];
        qw_trace tr;
        int hit;
        qcg_move(origin, mins, maxs, end, QW_MOVE_NORMAL, n, &tr, &hit);
        if (tr.allsolid) {
            static const float zero[3];
            qcg_set_vec(n, f->velocity, zero);
            return QC_OK;
        }
        if (tr.fraction > 0) {
            qcg_set_vec(n, f->origin, tr.endpos);
            qw_vec_copy(velocity, original);
            numplanes = 0;
        }
        if (tr.fraction == 1)
            break;
        if (tr.plane.normal[2] > 0.7f) {
            qcg_set_float(n, f->flags, (float)((int)qcg_float(n, f->flags) | FL_ONGROUND));
            qcg_set_int(n, f->groundentity, hit);
        }
        qcg_set_vec(n, f->velocity, velocity);
        if (qcg_impact(ctx, n, hit) != QC_OK)
            return QC_ERROR;
        if (!qcg_in_use(n))
            return QC_OK;
        time_left -= time_left * tr.fraction;
        if (numplanes >= 5)
            break;
        qw_vec_copy(tr.plane.normal, planes[numplanes++]);
        int i, j;
        for (i = 0; i < numplanes; i++) {
            clip_velocity(original, planes[i], new_velocity, 1);
            for (j = 0; j < numplanes; j++)
                if (j != i && qw_vec_dot(new_velocity, planes[j]) < 0)
                    break;
            if (j == numplanes)
                break;
        }
        if (i != numplanes) {
            qw_vec_copy(new_velocity, velocity);
        } else {
            if (numplanes != 2)
                break;
            float dir[3];
            dir[0] = planes[0][1] * planes[1][2] - planes[0][2] * planes[1][1];
            dir[1] = planes[0][2] * planes[1][0] - planes[0][0] * planes[1][2];
            dir[2] = planes[0][0] * planes[1][1] - planes[0][1] * planes[1][0];
            float d = qw_vec_dot(dir, velocity);
            for (int k = 0; k < 3; k++)
                velocity[k] = dir[k] * d;
        }
        if (qw_vec_dot(velocity, primal) <= 0) {
            velocity[0] = velocity[1] = velocity[2] = 0;
            break;
        }
    }
    qcg_set_vec(n, f->velocity, velocity);
    return QC_OK;
}

LIBTM_SAFE static qc_status physics_step(qc_ctx *ctx, int n, float frametime)
{
    QCG_FIELDS(f);
    if (!((int)qcg_float(n, f->flags) & (FL_ONGROUND | FL_FLY | FL_SWIM))) {
        add_gravity(n, frametime);
        check_velocity(n);
        if (fly_move(ctx, n, frametime) != QC_OK || qcg_link_edict(n, true) != QC_OK)
            return QC_ERROR;
        if (!qcg_in_use(n))
            return QC_OK;
    }
    bool there;
    if (qcg_run_think(ctx, n, frametime, &there) != QC_OK)
        return QC_ERROR;
    if (there)
        check_water_transition(n);
    return QC_OK;
}

/* Moves a pusher by move, carrying what stands on it and pushing what it meets (SV_Push).
 * False when something blocks it: it and everything it moved go back, .blocked runs.
 * Pushers move in U only (the master alone: its arrays and the pusher's solid switched off
 * for the tests are nobody else's). */
LIBTM_SAFE static qc_status push(qc_ctx *ctx, int pusher, const float move[3], bool *moved)
{
    QCG_FIELDS(f);
    float mins[3], maxs[3], pushorig[3];
    for (int i = 0; i < 3; i++) {
        mins[i] = qcg_ed(pusher)[f->absmin + i].f + move[i];
        maxs[i] = qcg_ed(pusher)[f->absmax + i].f + move[i];
    }
    qcg_vec(pusher, f->origin, pushorig);
    float to[3];
    for (int i = 0; i < 3; i++)
        to[i] = pushorig[i] + move[i];
    qcg_set_vec(pusher, f->origin, to);
    qcg_link_edict(pusher, false);

    static int moved_edict[QCG_MAX_EDICTS];
    static float moved_from[QCG_MAX_EDICTS][3];
    int num_moved = 0;
    qw_area_object *pobj = qcg_link(pusher);
    for (int e = 1; e < qcg.num_edicts; e++) {
        if (!qcg_in_use(e) || (qcg_is_player(e) && !sv.players[e - 1].active))
            continue;
        int mt = (int)qcg_float(e, f->movetype);
        if (mt == MOVETYPE_PUSH || mt == MOVETYPE_NONE || mt == MOVETYPE_NOCLIP)
            continue;
        int psolid = pobj->solid;
        pobj->solid = QW_SOLID_NOT; /* U only: no other thread reads the tree now */
        bool block = qcg_test_position(e);
        pobj->solid = psolid;
        if (block)
            continue;
        bool rides = ((int)qcg_float(e, f->flags) & FL_ONGROUND) &&
                     qcg_ent(e, f->groundentity) == pusher;
        if (!rides) {
            const qc_word *ed = qcg_ed(e);
            if (ed[f->absmin].f >= maxs[0] || ed[f->absmin + 1].f >= maxs[1] ||
                ed[f->absmin + 2].f >= maxs[2] || ed[f->absmax].f <= mins[0] ||
                ed[f->absmax + 1].f <= mins[1] || ed[f->absmax + 2].f <= mins[2])
                continue;
            if (!qcg_test_position(e))
                continue; /* not inside the pusher's new place */
        }
        float origin[3];
        qcg_vec(e, f->origin, origin);
        qw_vec_copy(origin, moved_from[num_moved]);
        moved_edict[num_moved++] = e;
        for (int i = 0; i < 3; i++)
            origin[i] += move[i];
        qcg_set_vec(e, f->origin, origin);
        if (!qcg_test_position(e)) {
            qcg_link_edict(e, false); /* pushed */
            continue;
        }
        qcg_set_vec(e, f->origin, moved_from[num_moved - 1]);
        if (!qcg_test_position(e)) {
            num_moved--; /* fine where it was */
            continue;
        }
        if (qcg_float(e, f->mins) == qcg_float(e, f->maxs)) {
            qcg_link_edict(e, false);
            continue;
        }
        int solid = (int)qcg_float(e, f->solid);
        if (solid == QW_SOLID_NOT || solid == QW_SOLID_TRIGGER) {
            /* a corpse: flattened */
            qc_word *ed = qcg_ed(e);
            ed[f->mins].f = ed[f->mins + 1].f = 0;
            for (int i = 0; i < 3; i++)
                ed[f->maxs + i].f = ed[f->mins + i].f;
            qcg_link_edict(e, false);
            continue;
        }
        /* blocked: everything goes back */
        qcg_set_vec(pusher, f->origin, pushorig);
        qcg_link_edict(pusher, false);
        qc_status st = QC_OK;
        qc_func blocked = qcg_int(pusher, f->blocked);
        if (blocked) {
            qc_ctx_set_float(ctx, QCG_SYS(time), (float)sv.time);
            st = qcg_call(ctx, blocked, pusher, e);
        }
        for (int i = 0; i < num_moved; i++) {
            qcg_set_vec(moved_edict[i], f->origin, moved_from[i]);
            qcg_link_edict(moved_edict[i], false);
        }
        *moved = false;
        return st;
    }
    *moved = true;
    return QC_OK;
}

LIBTM_SAFE static qc_status physics_pusher(qc_ctx *ctx, int n, float frametime)
{
    QCG_FIELDS(f);
    float oldltime = qcg_float(n, f->ltime), thinktime = qcg_float(n, f->nextthink);
    float movetime = frametime;
    if (thinktime < oldltime + frametime) {
        movetime = thinktime - oldltime;
        if (movetime < 0)
            movetime = 0;
    }
    if (movetime) {
        float velocity[3], move[3];
        qcg_vec(n, f->velocity, velocity);
        if (!velocity[0] && !velocity[1] && !velocity[2]) {
            qcg_set_float(n, f->ltime, oldltime + movetime);
        } else {
            for (int i = 0; i < 3; i++)
                move[i] = velocity[i] * movetime;
            bool moved;
            if (push(ctx, n, move, &moved) != QC_OK)
                return QC_ERROR;
            if (moved)
                qcg_set_float(n, f->ltime, qcg_float(n, f->ltime) + movetime);
        }
    }
    if (thinktime > oldltime && thinktime <= qcg_float(n, f->ltime)) {
        float oldorg[3];
        qcg_vec(n, f->origin, oldorg);
        qcg_set_float(n, f->nextthink, 0);
        qc_ctx_set_float(ctx, QCG_SYS(time), (float)sv.time);
        if (qcg_call(ctx, qcg_int(n, f->think), n, 0) != QC_OK)
            return QC_ERROR;
        if (!qcg_in_use(n))
            return QC_OK;
        float origin[3], move[3];
        qcg_vec(n, f->origin, origin);
        for (int i = 0; i < 3; i++)
            move[i] = origin[i] - oldorg[i];
        if (qw_vec_length(move) > 1.0f / 64) {
            qcg_set_vec(n, f->origin, oldorg);
            bool moved;
            return push(ctx, n, move, &moved);
        }
    }
    return QC_OK;
}

LIBTM_SAFE qc_status qcg_run_entity(qc_ctx *ctx, int n, float frametime)
{
    QCG_FIELDS(f);
    qcg_set_float(n, f->oldorigin, qcg_float(n, f->origin));
    qc_word *ed = qcg_ed(n);
    ed[f->oldorigin + 1].f = ed[f->origin + 1].f;
    ed[f->oldorigin + 2].f = ed[f->origin + 2].f;
    int movetype = (int)ed[f->movetype].f;
    bool there;
    switch (movetype) {
    case MOVETYPE_PUSH:
        return physics_pusher(ctx, n, frametime);
    case MOVETYPE_NONE:
        return qcg_run_think(ctx, n, frametime, &there);
    case MOVETYPE_NOCLIP:
        if (qcg_run_think(ctx, n, frametime, &there) != QC_OK)
            return QC_ERROR;
        if (!there)
            return QC_OK;
        for (int i = 0; i < 3; i++) {
            ed[f->angles + i].f += frametime * ed[f->avelocity + i].f;
            ed[f->origin + i].f += frametime * ed[f->velocity + i].f;
        }
        return qcg_link_edict(n, false);
    case MOVETYPE_STEP:
        return physics_step(ctx, n, frametime);
    case MOVETYPE_TOSS:
    case MOVETYPE_BOUNCE:
    case MOVETYPE_FLY:
    case MOVETYPE_FLYMISSILE:
        if (qcg_run_think(ctx, n, frametime, &there) != QC_OK)
            return QC_ERROR;
        return there ? physics_toss(ctx, n, frametime) : QC_OK;
    case MOVETYPE_WALK: /* a player's, moved by its commands; a walking non-player thinks */
        return qcg_run_think(ctx, n, frametime, &there);
    default:
        return qc_raise(ctx, QC_ERR_BUILTIN, "entity %d has the bad movetype %d", n, movetype);
    }
}

LIBTM_SAFE qc_status qcg_run_newmis(qc_ctx *ctx)
{
    int n = qc_ctx_get_int(ctx, QCG_SYS(newmis));
    if (n <= 0 || n >= QCG_MAX_EDICTS)
        return QC_OK;
    qc_ctx_set_int(ctx, QCG_SYS(newmis), 0);
    if (!qcg_in_use(n) || (int)qcg_float(n, qcg.f.movetype) == MOVETYPE_PUSH)
        return QC_OK;
    return qcg_run_entity(ctx, n, 0.05f);
}
