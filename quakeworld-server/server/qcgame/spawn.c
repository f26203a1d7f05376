/* Spawning a map for QuakeC (QuakeWorld's SV_SpawnServer and ED_LoadFromFile): the precache
 * lists, the world, every entity of the entity lump filled from its key/value pairs by field
 * type and started by the spawn function its classname names, two frames of physics to let
 * it settle, then the baselines and the sign-on. Serial (map load). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "qcgame/qcg.h"
#include "qcgame/qcgame.h"
#include "qcgame/signon.h"

static void precache_start(void)
{
    sv.num_models = 2;
    sv.model_names[0][0] = 0;
    snprintf(sv.model_names[1], sizeof sv.model_names[1], "maps/%.50s.bsp", sv.mapname);
    for (int i = 1; i <= qw_bsp_num_submodels(sv.bsp) && sv.num_models < QW_MAX_MODELS; i++)
        snprintf(sv.model_names[sv.num_models++], sizeof sv.model_names[0], "*%d", i);
    sv.num_sounds = 1;
    sv.sound_names[0][0] = 0;
}

/* One key's value into edict e's field by its type (ED_ParseEpair); unknown keys are
 * skipped as in the originals. */
static void parse_pair(int e, const char *key, const char *value)
{
    char name[QW_ENTITY_MAX_KEY + 8];
    char buf[QW_ENTITY_MAX_VALUE + 8];
    snprintf(name, sizeof name, "%s", key);
    if (!strcmp(name, "angle")) { /* "angle" is the yaw of "angles" */
        snprintf(name, sizeof name, "angles");
        snprintf(buf, sizeof buf, "0 %s 0", value);
        value = buf;
    } else if (!strcmp(name, "light")) {
        snprintf(name, sizeof name, "light_lev");
    }
    if (name[0] == '_')
        return; /* the map compiler's keys */
    for (int i = 0; i < qc_num_fielddefs(qcg_vm()); i++) {
        int ofs;
        enum qc_type type;
        const char *fname = qc_fielddef(qcg_vm(), i, &ofs, &type);
        if (!fname || strcmp(fname, name))
            continue;
        qc_word *w = qcg_ed(e) + ofs;
        switch (type) {
        case QC_TYPE_STRING: {
            char text[QW_ENTITY_MAX_VALUE];
            size_t n = 0;
            for (const char *p = value; *p && n + 1 < sizeof text; p++) {
                if (p[0] == '\\' && p[1] == 'n') {
                    text[n++] = '\n';
                    p++;
                } else {
                    text[n++] = *p;
                }
            }
            text[n] = 0;
            w->i = qc_string_new(qcg_vm(), text);
            break;
        }
        case QC_TYPE_FLOAT: w->f = (float)atof(value); break;
        case QC_TYPE_VECTOR:
            w[0].f = w[1].f = w[2].f = 0;
            sscanf(value, "%f %f %f", &w[0].f, &w[1].f, &w[2].f);
            break;
        case QC_TYPE_ENTITY: w->i = atoi(value); break;
        case QC_TYPE_FIELD: w->i = qc_find_field(qcg_vm(), value, QC_TYPE_VOID); break;
        case QC_TYPE_FUNCTION: w->i = qc_find_function(qcg_vm(), value); break;
        default: break;
        }
        return;
    }
}

static bool spawn_entities(char *err, size_t errlen)
{
    qw_entity_fields *fields = malloc(sizeof *fields);
    if (!fields) {
        snprintf(err, errlen, "out of memory");
        return false;
    }
    qw_entity_iter it;
    qw_entity_iter_init(&it, qw_bsp_entity_string(sv.bsp));
    qc_ctx *ctx = qcg_ctx();
    double deathmatch_cvar;
    bool deathmatch = qcg.services->cvar_get("deathmatch", &deathmatch_cvar) && deathmatch_cvar != 0;
    int r, spawned = 0, inhibited = 0, unknown = 0, failed = 0;
    bool world = true;
    while ((r = qw_entity_next(&it, fields)) == 1) {
        int e = world ? 0 : qcg_edict_alloc();
        if (e < 0 || (!world && !e)) {
            snprintf(err, errlen, "%s: more entities than the %d edicts", sv.mappath,
                     QCG_MAX_EDICTS);
            free(fields);
            return false;
        }
        world = false;
        for (int i = 0; i < fields->count; i++)
            parse_pair(e, fields->key[i], fields->value[i]);
        if (deathmatch && ((int)qcg_float(e, qcg.f.spawnflags) & QCG_SPAWNFLAG_NOT_DEATHMATCH)) {
            qcg_edict_free(e);
            inhibited++;
            continue;
        }
        const char *classname = qcg_string(qcg_int(e, qcg.f.classname));
        qc_func spawn = classname[0] ? qc_find_function(qcg_vm(), classname) : 0;
        if (!spawn) {
            if (e)
                qcg_edict_free(e);
            unknown++;
            continue;
        }
        qc_ctx_reset(ctx);
        qcg_messages_begin();
        qc_ctx_set_float(ctx, QCG_SYS(time), (float)sv.time);
        if (qcg_call(ctx, spawn, e, 0) != QC_OK) {
            qcg_report_error(ctx, classname);
            if (!e) { /* the world did not spawn: there is no map to play on */
                const qc_error *qe = qc_ctx_error(ctx);
                snprintf(err, errlen, "%s: QuakeC error in worldspawn (%s, in %s): %s",
                         sv.mapname, qc_error_kind_name(qe->kind), qe->function, qe->message);
                free(fields);
                return false;
            }
            failed++;
        }
        qcg_messages_flush();
        qcg_signon_mark_end();
        spawned++;
    }
    free(fields);
    if (r < 0) {
        snprintf(err, errlen, "%s: entity lump: %s", sv.mappath, it.error);
        return false;
    }
    sv_log("map %s: %d entities spawned by QuakeC, %d not in deathmatch, %d without a spawn "
           "function, %d spawn functions failed", sv.mapname, spawned, inhibited, unknown,
           failed);
    return true;
}

/* Each entity's state now is its baseline (clients delta new entities from it). */
static void create_baselines(void)
{
    QCG_FIELDS(f);
    for (int n = QCG_FIRST_NONPLAYER; n < qcg.num_edicts && n < SV_MAX_ENTITIES; n++) {
        sv_entity *se = &sv.entities[n];
        memset(&se->baseline, 0, sizeof se->baseline);
        se->baseline.number = n;
        if (!qcg_in_use(n) || !qcg_float(n, f->modelindex))
            continue;
        qw_entity_state *b = &se->baseline;
        qcg_vec(n, f->origin, b->origin);
        qcg_vec(n, f->angles, b->angles);
        b->modelindex = (int)qcg_float(n, f->modelindex);
        b->frame = (int)qcg_float(n, f->frame);
        b->colormap = (int)qcg_float(n, f->colormap);
        b->skinnum = (int)qcg_float(n, f->skin);
        uint8_t msg[64];
        qw_sizebuf m;
        qw_sizebuf_init(&m, msg, sizeof msg);
        qw_write_byte(&m, svc_spawnbaseline);
        qw_write_short(&m, n);
        qw_write_byte(&m, b->modelindex);
        qw_write_byte(&m, b->frame);
        qw_write_byte(&m, b->colormap);
        qw_write_byte(&m, b->skinnum);
        for (int i = 0; i < 3; i++) {
            qw_write_coord(&m, b->origin[i]);
            qw_write_angle8(&m, b->angles[i]);
        }
        qcg_signon_write(msg, m.cursize);
        qcg_signon_mark_end();
    }
}

bool sv_qcgame_spawn_map(char *err, size_t errlen)
{
    QCG_SYSTEM(sys);
    /* The program starts afresh on every map, as id's engines load it anew: a global the
     * last map left set (intermission_running, the time the intermission ends, nextmap)
     * would otherwise end this one at once. What goes to the next map goes as spawn parms. */
    qc_vm_restart(qcg_vm());
    precache_start();
    qcg_edicts_clear();
    qcg_signon_begin();
    memset(qcg.lightstyles, 0, sizeof qcg.lightstyles);
    qcg.changelevel[0] = 0;
    qcg.spawning = true;
    qc_vm_lock_world(qcg_vm(), false);
    qc_vm_set_num_entities(qcg_vm(), QCG_MAX_EDICTS);

    qcg_refresh_cvars();
    qc_vm_global(qcg_vm(), sys->mapname)->i = qc_string_new(qcg_vm(), sv.mapname);
    qc_vm_global(qcg_vm(), sys->time)->f = (float)sv.time;
    QCG_FIELDS(f);
    qcg_set_int(0, f->model, qc_string_new(qcg_vm(), sv.model_names[1]));
    qcg_set_float(0, f->modelindex, 1);
    qcg_set_float(0, f->solid, QW_SOLID_BSP);
    qcg_set_float(0, f->movetype, MOVETYPE_PUSH);

    if (!spawn_entities(err, errlen))
        return false;
    qc_vm_lock_world(qcg_vm(), true);
    const char *message = qcg_string(qcg_int(0, qc_find_field(qcg_vm(), "message", QC_TYPE_STRING)));
    snprintf(sv.level_title, sizeof sv.level_title, "%s", message[0] ? message : sv.mapname);
    sv.model_player = qcg_model_index("progs/player.mdl");
    qcg.spawning = false;

    /* two frames to let everything settle (doors, items dropping to the floor) */
    sv_qcgame_physics(0.1);
    sv_qcgame_physics(0.1);
    qcg.spawning = true;
    create_baselines();
    qcg.spawning = false;
    qcg_signon_cut();
    qcg_view_entities();
    return true;
}
