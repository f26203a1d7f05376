/* The engine's calls for clients (QuakeWorld's sv_user.c and SV_Begin_f / SV_DropClient):
 * entering the game with the spawn parms (SetNewParms, ClientConnect, PutClientInServer),
 * one movement command (PlayerPreThink, the player's think, pmove, touching triggers and what
 * pmove ran into, PlayerPostThink, the new missile), kill, spectators, leaving, the parms
 * across map changes; and what S sends of a player (view, stats, frame). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "log.h"
#include "qcgame/qcg.h"
#include "qcgame/qcgame.h"
#include "qw_math.h"

/* Why the last section of this thread failed, written uninstrumented (transaction_pure) so
 * that it survives the cancel that undoes the section. */
typedef struct failure {
    bool qc_error;              /* else: a reliable queue overflowed */
    const char *what;           /* the engine call */
} failure;
static __thread failure last_failure;

LIBTM_PURE static void note_failure(bool qc_error, const char *what)
{
    last_failure.qc_error = qc_error;
    last_failure.what = what;
}

/* The start of every section that runs QuakeC: a restarted transaction begins clean. */
LIBTM_SAFE static qc_ctx *begin_chain(void)
{
    qc_ctx *ctx = qcg_ctx();
    qc_ctx_reset(ctx);
    qcg_messages_begin();
    return ctx;
}

/* The end of it: sends its messages; false (and why) when the chain failed. */
LIBTM_SAFE static bool end_chain(qc_status st, const char *what)
{
    if (st != QC_OK) {
        note_failure(true, what);
        return false;
    }
    if (!qcg_messages_flush()) {
        note_failure(false, what);
        return false;
    }
    return true;
}

LIBTM_SAFE static void parms_to_ctx(qc_ctx *ctx, int slot)
{
    for (int i = 0; i < 16; i++)
        qc_ctx_set_float(ctx, QCG_SYS(parm1) + i, qcg.parms[slot][i]);
}

LIBTM_SAFE static void parms_from_ctx(qc_ctx *ctx, int slot)
{
    for (int i = 0; i < 16; i++)
        qcg.parms[slot][i] = qc_ctx_get_float(ctx, QCG_SYS(parm1) + i);
    qcg.parms_set[slot] = true;
}

/* A fresh edict for a client entering (QuakeWorld's "spawn" command). */
LIBTM_SAFE static void init_client_edict(int slot)
{
    int n = slot + 1;
    QCG_FIELDS(f);
    memset(qcg_ed(n), 0, sizeof(qc_word) * (size_t)qc_entity_fields(qcg_vm()));
    qcg_set_float(n, f->colormap, (float)n);
    qcg_set_int(n, f->netname, qc_string_new(qcg_vm(), sv.clients[slot].name));
    qcg_set_float(n, f->gravity, 1);
    qcg_set_float(n, f->maxspeed, sv.movevars.maxspeed);
}

LIBTM_SAFE bool sv_qcgame_spawn_player(int slot)
{
    if (slot >= QW_MAX_CLIENTS) {
        note_failure(true, "a player slot from 32 on (QuakeWorld's game has 32)");
        return false;
    }
    qc_ctx *ctx = begin_chain();
    int n = slot + 1;
    qc_status st = QC_OK;
    qc_ctx_set_float(ctx, QCG_SYS(time), (float)sv.time);
    if (!qcg.parms_set[slot]) {
        st = qcg_call(ctx, QCG_FN(SetNewParms), n, 0);
        if (st == QC_OK)
            parms_from_ctx(ctx, slot);
    }
    if (st == QC_OK) {
        init_client_edict(slot);
        sv_player *p = &sv.players[slot];
        p->active = true;
        p->spectator = false;
        p->oldbuttons = 0;
        parms_to_ctx(ctx, slot);
        st = qcg_call(ctx, QCG_FN(ClientConnect), n, 0);
    }
    if (st == QC_OK)
        st = qcg_call(ctx, QCG_FN(PutClientInServer), n, 0);
    qcg_view_player(slot);
    return end_chain(st, "ClientConnect/PutClientInServer");
}

LIBTM_SAFE void sv_qcgame_spawn_spectator(int slot)
{
    if (slot >= QW_MAX_CLIENTS)
        return;
    qc_ctx *ctx = begin_chain();
    int n = slot + 1;
    init_client_edict(slot);
    QCG_FIELDS(f);
    float eye[3] = {0, 0, 22};
    qcg_set_vec(n, f->view_ofs, eye);
    /* at the first info_player_start (or deathmatch start), as QuakeWorld's servers do */
    for (int e = QCG_FIRST_NONPLAYER; e < qcg.num_edicts; e++) {
        if (!qcg_in_use(e))
            continue;
        const char *cls = qcg_string(qcg_int(e, f->classname));
        if (qcg_streq(cls, "info_player_start") || qcg_streq(cls, "info_player_deathmatch")) {
            float origin[3];
            qcg_vec(e, f->origin, origin);
            qcg_set_vec(n, f->origin, origin);
            break;
        }
    }
    sv_player *p = &sv.players[slot];
    p->spectator = true;
    p->active = false;
    p->dead = false;
    p->setangle = true;
    qc_status st = QC_OK;
    if (QCG_FN(SpectatorConnect)) {
        parms_to_ctx(ctx, slot);
        qc_ctx_set_float(ctx, QCG_SYS(time), (float)sv.time);
        st = qcg_call(ctx, QCG_FN(SpectatorConnect), n, 0);
    }
    qcg_view_player(slot);
    end_chain(st, "SpectatorConnect"); /* a spectator stays even if it failed */
}

/* Quake's view roll from sideways speed (V_CalcRoll: cl_rollangle 2, cl_rollspeed 200). */
LIBTM_SAFE static float view_roll(const float angles[3], const float velocity[3])
{
    float forward[3], right[3], up[3];
    qw_angle_vectors(angles, forward, right, up);
    float side = qw_vec_dot(velocity, right);
    float sign = side < 0 ? -1 : 1;
    side = fabsf(side);
    side = side < 200 ? side * 2 / 200 : 2;
    return side * sign;
}

/* What pmove starts from, read from the player's edict (instrumented) into a value. */
typedef struct player_start {
    float origin[3], velocity[3], angles[3];
    float waterjumptime;
    int oldbuttons, pm_type;
} player_start;

/* Fills pm from st and the command. Pure, so that its stores into pm (the caller's local,
 * whose address pmove takes) are no barriers, as the pmove run that follows is not: it writes
 * only pm, a local of the transaction's own call filled afresh by every attempt (the retry
 * rule of transaction_pure), and reads st (a copy), the command (its client's packet: only
 * the running command's thread touches it in RP) and sv.bsp (fixed after map load). */
LIBTM_PURE static void pmove_start(qw_pmove *pm, player_start st, const qw_usercmd *cmd)
{
    for (int i = 0; i < 3; i++) {
        pm->origin[i] = st.origin[i];
        pm->velocity[i] = st.velocity[i];
        pm->angles[i] = st.angles[i];
    }
    pm->oldbuttons = st.oldbuttons;
    pm->waterjumptime = st.waterjumptime;
    pm->pm_type = st.pm_type;
    pm->cmd.msec = cmd->msec;
    qw_vec_copy(cmd->angles, pm->cmd.angles);
    pm->cmd.forwardmove = cmd->forwardmove;
    pm->cmd.sidemove = cmd->sidemove;
    pm->cmd.upmove = cmd->upmove;
    pm->cmd.buttons = cmd->buttons;
    pm->bsp = sv.bsp;
    pm->numphysent = 1;
    memset(&pm->physents[0], 0, sizeof pm->physents[0]);
}

/* pmove for the player's command, from and back into its edict. */
LIBTM_SAFE static void player_move(int n, const qw_usercmd *cmd, bool spectator,
                                   int touched[QW_MAX_PHYSENTS], int *num_touched)
{
    static const float player_mins[3] = {-16, -16, -24};
    QCG_FIELDS(f);
    sv_player *p = &sv.players[n - 1];
    qw_pmove pm;
    const qc_word *ed_in = qcg_ed(n);
    float mins[3];
    player_start st;
    for (int i = 0; i < 3; i++) {
        mins[i] = ed_in[f->mins + i].f;
        st.origin[i] = ed_in[f->origin + i].f + (mins[i] - player_mins[i]);
        st.velocity[i] = ed_in[f->velocity + i].f;
        st.angles[i] = ed_in[f->v_angle + i].f;
    }
    st.oldbuttons = p->oldbuttons;
    st.waterjumptime = qcg_float(n, f->teleport_time);
    st.pm_type = spectator ? QW_PM_SPECTATOR
                 : qcg_float(n, f->health) <= 0 ? QW_PM_DEAD : QW_PM_NORMAL;
    pmove_start(&pm, st, cmd);
    if (!spectator)
        qw_pmove_add_area_physents(&pm, &sv.area, qcg_link(n),
                                   qw_pmove_reach(&pm, &sv.movevars, 256));
    qw_pmove_run(&pm, &sv.movevars); /* pure, on this transaction's local pm */

    p->oldbuttons = pm.oldbuttons;
    qcg_set_float(n, f->teleport_time, pm.waterjumptime);
    qcg_set_float(n, f->waterlevel, (float)pm.waterlevel);
    qcg_set_float(n, f->watertype, (float)pm.watertype);
    int flags = (int)qcg_float(n, f->flags);
    if (pm.onground != -1) {
        flags |= FL_ONGROUND;
        qcg_set_int(n, f->groundentity, qcg_edict_of(pm.physents[pm.onground].object));
    } else {
        flags &= ~FL_ONGROUND;
    }
    if ((int)qcg_float(n, f->flags) != flags)
        qcg_set_float(n, f->flags, (float)flags);
    qc_word *ed = qcg_ed(n);
    for (int i = 0; i < 3; i++) {
        float o = pm.origin[i] - (mins[i] - player_mins[i]);
        if (ed[f->origin + i].f != o) /* a store is a change to others' reads */
            ed[f->origin + i].f = o;
        if (ed[f->velocity + i].f != pm.velocity[i])
            ed[f->velocity + i].f = pm.velocity[i];
    }
    *num_touched = 0;
    for (int i = 0; i < pm.numtouch; i++) {
        int e = qcg_edict_of(pm.physents[pm.touchindex[i]].object);
        bool seen = e <= 0;
        for (int k = 0; k < *num_touched && !seen; k++)
            seen = touched[k] == e;
        if (!seen)
            touched[(*num_touched)++] = e;
    }
}

/* One command of player n (SV_RunCmd + SV_PostRunCmd). */
LIBTM_SAFE static qc_status player_command(qc_ctx *ctx, sv_client *cl, int n,
                                           const qw_usercmd *cmd)
{
    QCG_FIELDS(f);
    QCG_SYSTEM(sys);
    float frametime = cmd->msec * 0.001f;
    if (frametime > 0.1f)
        frametime = 0.1f;
    qc_word *ed = qcg_ed(n);
    bool fixangle = ed[f->fixangle].f != 0;
    if (!fixangle)
        qcg_set_vec(n, f->v_angle, cmd->angles);
    ed[f->button0].f = (float)(cmd->buttons & 1);
    ed[f->button2].f = (float)((cmd->buttons & 2) >> 1);
    if (cmd->impulse)
        ed[f->impulse].f = (float)cmd->impulse;
    if (ed[f->health].f > 0) {
        float angles[3], velocity[3];
        qcg_vec(n, f->angles, angles);
        if (!fixangle) {
            angles[0] = -ed[f->v_angle].f / 3;
            angles[1] = ed[f->v_angle + 1].f;
        }
        qcg_vec(n, f->velocity, velocity);
        angles[2] = view_roll(angles, velocity) * 4;
        qcg_set_vec(n, f->angles, angles);
    }
    qc_ctx_set_float(ctx, sys->frametime, frametime);
    qc_ctx_set_float(ctx, sys->time, (float)sv.time);
    bool spectator = cl->spectator;
    if (!spectator) {
        bool there;
        if (qcg_call(ctx, QCG_FN(PlayerPreThink), n, 0) != QC_OK ||
            qcg_run_think(ctx, n, frametime, &there) != QC_OK)
            return QC_ERROR;
    }
    int touched[QW_MAX_PHYSENTS], num_touched;
    player_move(n, cmd, spectator, touched, &num_touched);
    if (!spectator) {
        if (qcg_link_edict(n, true) != QC_OK)
            return QC_ERROR;
        for (int i = 0; i < num_touched; i++) {
            int e = touched[i];
            qc_func touch = qcg_int(e, f->touch);
            if (!touch || !qcg_in_use(e))
                continue;
            qc_ctx_set_float(ctx, sys->time, (float)sv.time);
            if (qcg_call(ctx, touch, e, n) != QC_OK)
                return QC_ERROR;
        }
        qc_ctx_set_float(ctx, sys->time, (float)sv.time);
        if (qcg_call(ctx, QCG_FN(PlayerPostThink), n, 0) != QC_OK)
            return QC_ERROR;
        return qcg_run_newmis(ctx);
    }
    if (QCG_FN(SpectatorThink)) {
        qc_ctx_set_float(ctx, sys->time, (float)sv.time);
        return qcg_call(ctx, QCG_FN(SpectatorThink), n, 0);
    }
    return QC_OK;
}

LIBTM_SAFE bool sv_qcgame_run_command(sv_client *cl, const qw_usercmd *cmd)
{
    int slot = cl->slot;
    if (slot >= QW_MAX_CLIENTS || (!sv.players[slot].active && !cl->spectator))
        return true;
    qc_ctx *ctx = begin_chain();
    qc_status st = player_command(ctx, cl, slot + 1, cmd);
    if (st == QC_OK)
        qcg_view_player(slot);
    return end_chain(st, "a player's command");
}

LIBTM_SAFE bool sv_qcgame_client_kill(int slot)
{
    if (slot >= QW_MAX_CLIENTS || !sv.players[slot].active)
        return true;
    qc_ctx *ctx = begin_chain();
    qc_ctx_set_float(ctx, QCG_SYS(time), (float)sv.time);
    qc_status st = QCG_FN(ClientKill) ? qcg_call(ctx, QCG_FN(ClientKill), slot + 1, 0) : QC_OK;
    if (st == QC_OK)
        qcg_view_player(slot);
    return end_chain(st, "ClientKill");
}

/* A QuakeC error in objerror: the originals free self. */
LIBTM_SAFE static void remove_object(int e)
{
    if (e >= QCG_FIRST_NONPLAYER && qcg_in_use(e))
        qcg_edict_free(e);
}

/* Kept out of line: a transaction begins like setjmp. */
static __attribute__((noinline)) void remove_object_section(int e)
{
    CRITICAL_SECTION(CS_MOVE_COMMAND, remove_object(e););
}

void sv_qcgame_failed(sv_client *cl, bool entering)
{
    if (!last_failure.qc_error) {
        sv_client_request_drop(cl, "reliable message overflow");
        return;
    }
    qc_ctx *ctx = qcg_ctx();
    const qc_error *e = qc_ctx_error(ctx);
    char what[128];
    snprintf(what, sizeof what, "%s of %s", last_failure.what ? last_failure.what : "a call",
             cl->name);
    if (e->kind == QC_ERR_NONE) {
        sv_log("QuakeC: %s failed: %s", what, last_failure.what);
    } else {
        qcg_report_error(ctx, what);
        if (e->kind == QC_ERR_OBJECT)
            remove_object_section(e->self);
    }
    if (entering)
        sv_client_request_drop(cl, "QuakeC error while entering the game");
}

void sv_qcgame_remove_player(int slot)
{
    sv_player *p = &sv.players[slot];
    if (slot < QW_MAX_CLIENTS) {
        int n = slot + 1;
        qc_func leave = p->spectator ? QCG_FN(SpectatorDisconnect) : QCG_FN(ClientDisconnect);
        if (leave && (p->active || p->spectator)) {
            qc_ctx *ctx = begin_chain();
            qc_ctx_set_float(ctx, QCG_SYS(time), (float)sv.time);
            if (qcg_call(ctx, leave, n, 0) != QC_OK)
                qcg_report_error(ctx, "ClientDisconnect");
            qcg_messages_flush();
        }
        qcg_unlink_edict(n);
        QCG_FIELDS(f);
        qcg_set_float(n, f->solid, QW_SOLID_NOT);
        qcg_set_float(n, f->modelindex, 0);
        qcg_set_float(n, f->frags, 0);
        qcg_set_float(n, f->takedamage, 0);
        qcg.parms_set[slot] = false;
    }
    qw_area_unlink_object(&p->link);
    p->active = p->spectator = p->dead = false;
    p->frags = 0;
}

void sv_qcgame_map_ending(void)
{
    qc_ctx *ctx = qcg_ctx();
    for (int slot = 0; slot < QW_MAX_CLIENTS; slot++) {
        if (sv.clients[slot].state != CL_SPAWNED || !sv.players[slot].active)
            continue;
        qc_ctx_reset(ctx);
        qc_ctx_set_float(ctx, QCG_SYS(time), (float)sv.time);
        if (QCG_FN(SetChangeParms) && qcg_call(ctx, QCG_FN(SetChangeParms), slot + 1, 0) != QC_OK) {
            qcg_report_error(ctx, "SetChangeParms");
            continue;
        }
        parms_from_ctx(ctx, slot);
    }
}

/* Stores edict n's vector field into dst where it differs (to a transaction a store is a
 * change), with no copy between: a local array filled and read back costs six barriers in a
 * transaction (its address is taken). */
LIBTM_SAFE static void update_vec_from(float *dst, int n, int field)
{
    const qc_word *w = qcg_ed(n) + field;
    for (int i = 0; i < 3; i++) {
        float x = w[i].f;
        if (dst[i] != x)
            dst[i] = x;
    }
}

LIBTM_SAFE void qcg_view_player(int slot)
{
    int n = slot + 1;
    QCG_FIELDS(f);
    sv_player *p = &sv.players[slot];
    update_vec_from(p->origin, n, f->origin);
    update_vec_from(p->velocity, n, f->velocity);
    bool dead = qcg_float(n, f->health) <= 0;
    if (p->dead != dead)
        p->dead = dead;
    int effects = (int)qcg_float(n, f->effects), weaponframe = (int)qcg_float(n, f->weaponframe);
    if (p->effects != effects)
        p->effects = effects;
    if (p->weaponframe != weaponframe)
        p->weaponframe = weaponframe;
    if (qcg_float(n, f->fixangle)) {
        qcg_vec(n, f->angles, p->angles);
        p->setangle = true;
        qcg_set_float(n, f->fixangle, 0);
    }
    float take = qcg_float(n, f->dmg_take), save = qcg_float(n, f->dmg_save);
    if (take || save) {
        int from = qcg_ent(n, f->dmg_inflictor);
        float mins[3], maxs[3];
        qcg_vec(from, f->origin, p->dmg_origin);
        qcg_vec(from, f->mins, mins);
        qcg_vec(from, f->maxs, maxs);
        for (int i = 0; i < 3; i++)
            p->dmg_origin[i] += 0.5f * (mins[i] + maxs[i]);
        p->dmg_take += (int)take;
        p->dmg_save += (int)save;
        qcg_set_float(n, f->dmg_take, 0);
        qcg_set_float(n, f->dmg_save, 0);
    }
}

void sv_qcgame_player_stats(int slot, int stats[QW_MAX_CL_STATS])
{
    memset(stats, 0, sizeof(int) * QW_MAX_CL_STATS);
    if (slot >= QW_MAX_CLIENTS)
        return;
    int n = slot + 1;
    QCG_FIELDS(f);
    stats[STAT_HEALTH] = (int)qcg_float(n, f->health);
    stats[STAT_WEAPON] = qcg_model_index(qcg_string(qcg_int(n, f->weaponmodel)));
    stats[STAT_AMMO] = (int)qcg_float(n, f->currentammo);
    stats[STAT_ARMOR] = (int)qcg_float(n, f->armorvalue);
    stats[STAT_SHELLS] = (int)qcg_float(n, f->ammo_shells);
    stats[STAT_NAILS] = (int)qcg_float(n, f->ammo_nails);
    stats[STAT_ROCKETS] = (int)qcg_float(n, f->ammo_rockets);
    stats[STAT_CELLS] = (int)qcg_float(n, f->ammo_cells);
    if (!sv.clients[slot].spectator)
        stats[STAT_ACTIVEWEAPON] = (int)qcg_float(n, f->weapon);
    int serverflags = (int)qc_vm_global(qcg_vm(), QCG_SYS(serverflags))->f;
    stats[STAT_ITEMS] = (int)qcg_float(n, f->items) | (serverflags << 28);
    stats[STAT_FRAGS] = (int)qcg_float(n, f->frags);
    stats[STAT_WEAPONFRAME] = (int)qcg_float(n, f->weaponframe);
    stats[STAT_VIEWHEIGHT] = (int)qcg_ed(n)[f->view_ofs + 2].f;
}

int sv_qcgame_player_frame(int slot)
{
    return slot < QW_MAX_CLIENTS ? (int)qcg_float(slot + 1, qcg.f.frame) : 0;
}

void sv_qcgame_command_reach(int slot, const qw_usercmd *cmd, sv_reach *out)
{
    (void)slot;
    (void)cmd;
    out->everywhere = true; /* find, findradius, nextent, a rocket's splash: anything */
    out->num_boxes = 0;
}

bool sv_qcgame_command_fits(int slot, const qw_usercmd *cmd, const float mins[3],
                            const float maxs[3])
{
    (void)slot;
    (void)cmd;
    (void)mins;
    (void)maxs;
    return false; /* never bounded: the serial phase runs it (counted as deferred_clients) */
}
