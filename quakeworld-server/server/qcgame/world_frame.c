/* The QuakeC game's part of U (master alone, no worker running): what QuakeC asked for
 * during the last RP (a map change, cvar_set, localcmd), the cvars it reads refreshed, StartFrame, the
 * physics of every entity but the players (SV_Physics), the workers' pools of free edicts,
 * and the copies S sends (entities, players, frags). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "net/reliable.h"
#include "qcgame/qcg.h"
#include "qcgame/qcgame.h"

/* What QuakeC asked of the master during the last RP. */
static void run_requests(void)
{
    for (int i = 0; i < 8; i++) {
        if (!qcg.cvar_sets[i].pending)
            continue;
        qcg.cvar_sets[i].pending = false;
        const char *name = qcg.cvar_sets[i].name, *value = qcg.cvar_sets[i].value;
        char err[256];
        if (!strcmp(name, "sv_gravity"))
            sv.movevars.gravity = (float)atof(value);
        else if (!strcmp(name, "sv_maxspeed"))
            sv.movevars.maxspeed = (float)atof(value);
        else if (!qcg.services->cvar_set(name, value, err, sizeof err))
            sv_log("QuakeC cvar_set %s %s: %s", name, value, err);
    }
    if (qcg.localcmd[0]) {
        char text[sizeof qcg.localcmd];
        snprintf(text, sizeof text, "%s", qcg.localcmd);
        qcg.localcmd[0] = 0;
        qcg.services->localcmd(text, "QuakeC localcmd");
    }
    if (qcg.changelevel[0]) {
        char name[sizeof qcg.changelevel], err[1024];
        snprintf(name, sizeof name, "%s", qcg.changelevel);
        qcg.changelevel[0] = 0;
        if (!qcg.services->changelevel(name, err, sizeof err))
            sv_log("QuakeC changelevel %s refused: %s", name, err);
        else
            sv_log("QuakeC changelevel %s", name);
    }
}

/* What S sends: every edict's state into sv.entities (non-players), every player's view,
 * and the frags that changed to everybody. */
void qcg_view_entities(void)
{
    QCG_FIELDS(f);
    for (int n = QCG_FIRST_NONPLAYER; n < qcg.num_edicts && n < SV_MAX_ENTITIES; n++) {
        sv_entity *e = &sv.entities[n];
        int modelindex = qcg_in_use(n) ? (int)qcg_float(n, f->modelindex) : 0;
        /* as QuakeWorld's server: an entity whose model string is empty is not sent, though
         * its modelindex stays (a taken item: the game clears .model until it respawns) */
        if (modelindex) {
            const char *model = qcg_string(qcg_int(n, f->model));
            if (!model || !model[0])
                modelindex = 0;
        }
        e->number = n;
        e->kind = modelindex ? ENT_ITEM : ENT_FREE; /* S sends what is not free */
        e->visible = modelindex != 0;
        e->modelindex = modelindex;
        if (!modelindex)
            continue;
        qcg_vec(n, f->origin, e->origin);
        qcg_vec(n, f->angles, e->angles);
        e->frame = (int)qcg_float(n, f->frame);
        e->skinnum = (int)qcg_float(n, f->skin);
        e->effects = (int)qcg_float(n, f->effects);
    }
    for (int n = qcg.num_edicts; n < sv.num_entities && n < SV_MAX_ENTITIES; n++)
        sv.entities[n].kind = ENT_FREE;
    sv.num_entities = qcg.num_edicts < SV_MAX_ENTITIES ? qcg.num_edicts : SV_MAX_ENTITIES;
}

static void view_players(void)
{
    for (int slot = 0; slot < QW_MAX_CLIENTS; slot++) {
        sv_player *p = &sv.players[slot];
        if (!p->active && !p->spectator)
            continue;
        qcg_view_player(slot);
        int frags = (int)qcg_float(slot + 1, qcg.f.frags);
        if (frags != p->frags && sv.clients[slot].state == CL_SPAWNED) {
            p->frags = frags;
            uint8_t msg[4] = {svc_updatefrags, (uint8_t)slot, (uint8_t)(frags & 0xff),
                              (uint8_t)((frags >> 8) & 0xff)};
            sv_reliable_broadcast_about(slot, msg, sizeof msg);
        }
    }
}

/* An error in an entity's think or physics: reported, and its think stops (else it would
 * fail every frame). */
static void entity_failed(qc_ctx *ctx, int n)
{
    char what[96];
    snprintf(what, sizeof what, "the physics or think of entity %d (%s)", n,
             qcg_string(qcg_int(n, qcg.f.classname)));
    qcg_report_error(ctx, what);
    if (qc_ctx_error(ctx)->kind == QC_ERR_OBJECT) {
        int self = qc_ctx_error(ctx)->self;
        if (self >= QCG_FIRST_NONPLAYER && qcg_in_use(self))
            qcg_edict_free(self);
    }
    if (qcg_in_use(n))
        qcg_set_float(n, qcg.f.nextthink, 0);
}

void sv_qcgame_physics(double dt)
{
    QCG_SYSTEM(sys);
    run_requests();
    qcg_refresh_cvars();
    qc_vm_global(qcg_vm(), sys->time)->f = (float)sv.time;
    qc_vm_global(qcg_vm(), sys->frametime)->f = (float)dt;
    qc_ctx *ctx = qcg_ctx();
    qc_ctx_reset(ctx);
    qcg_messages_begin();
    if (QCG_FN(StartFrame) && qcg_call(ctx, QCG_FN(StartFrame), 0, 0) != QC_OK)
        qcg_report_error(ctx, "StartFrame");
    qc_word *force_retouch = qc_vm_global(qcg_vm(), sys->force_retouch);
    for (int n = 1; n < qcg.num_edicts; n++) {
        if (!qcg_in_use(n))
            continue;
        if (force_retouch && force_retouch->f && qcg_link_edict(n, true) != QC_OK)
            entity_failed(ctx, n);
        if (qcg_is_player(n) || !qcg_in_use(n))
            continue; /* players move by their commands */
        qc_ctx_reset(ctx);
        if (qcg_run_entity(ctx, n, (float)dt) != QC_OK || qcg_run_newmis(ctx) != QC_OK)
            entity_failed(ctx, n);
    }
    if (force_retouch && force_retouch->f)
        force_retouch->f--;
    qcg_messages_flush();
    qcg.checkclient_last++;
    qcg_pools_fill();
    qcg_view_entities();
    view_players();
}

const char *sv_qcgame_lightstyle(int i)
{
    return i >= 0 && i < QW_MAX_LIGHTSTYLES ? qcg.lightstyles[i] : "";
}
