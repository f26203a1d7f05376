/* Choosing and loading the progs file, the threads' contexts, calls into QuakeC with self and
 * other, and the reports of QuakeC errors. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "log.h"
#include "net/events.h"
#include "qcgame/qcg.h"
#include "qcgame/qcgame.h"
#include "stats/counters.h"

qcg_state qcg;

static void print_hook(void *user, int developer, const char *text)
{
    (void)user;
    if (developer)
        return; /* dprint: the originals print it only with "developer 1" */
    sv_log_deferred("qc: ", text);
}

static int field(const char *name)
{
    return qc_find_field(qcg.vm, name, QC_TYPE_VOID);
}

static void find_fields(void)
{
    qcg_fields *f = &qcg.f;
#define F(x) f->x = field(#x)
    F(modelindex); F(absmin); F(absmax); F(ltime); F(movetype); F(solid); F(origin);
    F(oldorigin); F(velocity); F(angles); F(avelocity); F(classname); F(model); F(frame);
    F(skin); F(effects); F(mins); F(maxs); F(size); F(touch); F(use); F(think); F(blocked);
    F(nextthink); F(groundentity); F(health); F(frags); F(weapon); F(weaponmodel);
    F(weaponframe); F(currentammo); F(ammo_shells); F(ammo_nails); F(ammo_rockets);
    F(ammo_cells); F(items); F(takedamage); F(chain); F(deadflag); F(view_ofs); F(button0);
    F(button1); F(button2); F(impulse); F(fixangle); F(v_angle); F(netname); F(enemy);
    F(flags); F(colormap); F(team); F(teleport_time); F(armorvalue); F(waterlevel);
    F(watertype); F(ideal_yaw); F(yaw_speed); F(goalentity); F(spawnflags); F(dmg_take);
    F(dmg_save); F(dmg_inflictor); F(owner); F(gravity); F(maxspeed);
#undef F
}

static void find_functions(void)
{
    qcg_functions *fn = &qcg.fn;
#define FN(x) fn->x = qc_find_function(qcg.vm, #x)
    FN(StartFrame); FN(PlayerPreThink); FN(PlayerPostThink); FN(ClientKill);
    FN(ClientConnect); FN(PutClientInServer); FN(ClientDisconnect); FN(SetNewParms);
    FN(SetChangeParms); FN(SpectatorConnect); FN(SpectatorThink); FN(SpectatorDisconnect);
#undef FN
}

/* The server's builtins on top of the library's; a number given twice is refused. */
static bool register_builtins(char *err, size_t errlen)
{
    const struct qc_builtin_def *const tables[] = {qcg_world_builtins, qcg_message_builtins};
    for (size_t i = 0; i < sizeof tables / sizeof tables[0]; i++) {
        const struct qc_builtin_def *refused = qc_builtin_register_table(qcg.vm, tables[i]);
        if (refused) {
            snprintf(err, errlen, "%s: builtin #%d %s is refused: its number is out of range "
                     "or given twice", qcg.path, refused->number, refused->name);
            return false;
        }
    }
    return true;
}

/* The fields and functions without which the engine cannot run the program. */
static bool check_program(char *err, size_t errlen)
{
    static const char *const fields[] = {"origin", "velocity", "angles", "mins", "maxs",
                                         "size", "solid", "movetype", "modelindex", "model",
                                         "absmin", "absmax", "think", "nextthink", "touch",
                                         "flags", "health", "classname", NULL};
    for (int i = 0; fields[i]; i++)
        if (field(fields[i]) < 0) {
            snprintf(err, errlen, "%s: the program has no field .%s, which the engine needs",
                     qcg.path, fields[i]);
            return false;
        }
    static const char *const functions[] = {"PlayerPreThink", "PlayerPostThink",
                                            "ClientConnect", "PutClientInServer",
                                            "ClientDisconnect", "SetNewParms", NULL};
    for (int i = 0; functions[i]; i++)
        if (!qc_find_function(qcg.vm, functions[i])) {
            snprintf(err, errlen, "%s: the program has no function %s, which the engine calls",
                     qcg.path, functions[i]);
            return false;
        }
    return true;
}

/* Globals of QuakeWorld's game that hold one call chain's scratch: a shot's accumulated
 * damage and its blood and puffs (ClearMultiDamage sets them at the start of every shot,
 * ApplyMultiDamage and Multi_Finish read them at its end), the attacker and inflictor T_Damage
 * notes for the death it may cause in the same chain, the activator a touch sets before
 * SUB_UseTargets reads it. Every chain writes them before it reads them, so a copy per
 * thread keeps QuakeC's semantics; one shared copy would make every two concurrent shots
 * conflict (measured in the README). */
static const char *const scratch_globals[] = {
    "multi_ent", "multi_damage", "blood_org", "blood_count", "puff_org", "puff_count",
    "damage_attacker", "damage_inflictor", "activator", NULL};

/* Where the progs file is: -progs as given, else qwprogs.dat of -game, qw/, id1/. */
static bool find_progs(const char *basedir, const char *game, const char *progs, char *out,
                       size_t size)
{
    if (progs) {
        snprintf(out, size, "%s", progs);
        return true;
    }
    const char *dirs[] = {game, "qw", "id1"};
    for (int i = 0; i < 3; i++) {
        if (!dirs[i])
            continue;
        snprintf(out, size, "%s/%s/qwprogs.dat", basedir, dirs[i]);
        if (access(out, F_OK) == 0)
            return true;
    }
    return false;
}

bool sv_qcgame_choose(const char *basedir, const char *game, const char *progs,
                      const struct sv_game_services *services, char *err, size_t errlen)
{
    err[0] = 0;
    qcg.services = services;
    if (progs && !strcmp(progs, "none")) {
        sv_log("game: the C deathmatch (-progs none)");
        return false;
    }
    if (!find_progs(basedir, game, progs, qcg.path, sizeof qcg.path)) {
        sv_log("game: no qwprogs.dat in %s/{%s%sqw,id1}: running the C deathmatch (give "
               "-progs FILE to run a QuakeC game)", basedir, game ? game : "", game ? "," : "");
        return false;
    }
    qc_load_options opt = {.max_entities = QCG_MAX_EDICTS,
                           .per_call_globals = sv.opt.qc_shared_scratch ? NULL : scratch_globals};
    qcg.vm = qc_vm_load_file(qcg.path, &opt, err, errlen);
    if (!qcg.vm)
        return false;
    qcg.sys = qc_vm_system(qcg.vm);
    find_fields();
    find_functions();
    if (!register_builtins(err, errlen) || !check_program(err, errlen)) {
        qc_vm_free(qcg.vm);
        qcg.vm = NULL;
        return false;
    }
    qc_vm_set_print(qcg.vm, print_hook, NULL);
    for (int t = 0; t < sv.opt.threads; t++) {
        qcg.ctx[t] = qc_ctx_new(qcg.vm);
        qc_ctx_seed(qcg.ctx[t], 0x5eed0u + (uint32_t)t * 7919u);
    }
    char line[512];
    qc_vm_describe(qcg.vm, line, sizeof line);
    sv_log("game: QuakeC, %s", line);
    sv_events_per_thread = true;
    return true;
}

LIBTM_PURE int qcg_system_offset(size_t at)
{
    int offset;
    memcpy(&offset, (const char *)qcg.sys + at, sizeof offset);
    return offset;
}

LIBTM_PURE qc_func qcg_function(size_t at)
{
    qc_func f;
    memcpy(&f, (const char *)&qcg.fn + at, sizeof f);
    return f;
}

LIBTM_PURE const char *qcg_string(qc_string s)
{
    const char *text = qc_string_get(qcg.vm, s);
    return text ? text : "";
}

LIBTM_PURE bool qcg_streq(const char *a, const char *b)
{
    return strcmp(a, b) == 0;
}

LIBTM_SAFE qc_status qcg_call(qc_ctx *ctx, qc_func f, int self, int other)
{
    int self_at = QCG_SYS(self), other_at = QCG_SYS(other);
    int old_self = qc_ctx_get_int(ctx, self_at), old_other = qc_ctx_get_int(ctx, other_at);
    qc_ctx_set_int(ctx, self_at, self);
    qc_ctx_set_int(ctx, other_at, other);
    qc_status st = qc_call(ctx, f);
    qc_ctx_set_int(ctx, self_at, old_self);
    qc_ctx_set_int(ctx, other_at, old_other);
    return st;
}

static pthread_mutex_t report_lock = PTHREAD_MUTEX_INITIALIZER;

/* At most this many reports a minute; the rest are counted and said once the minute ends. */
#define REPORTS_PER_MINUTE 10

void qcg_report_error(qc_ctx *ctx, const char *what)
{
    const qc_error *e = qc_ctx_error(ctx);
    sv_stats_thread()->qc_errors++;
    pthread_mutex_lock(&report_lock);
    double now = sv_clock();
    qcg_error_log *log = &qcg.errors;
    if (now - log->window_start >= 60) {
        if (log->suppressed)
            sv_log("QuakeC: %d more runtime errors in the last minute not shown",
                   log->suppressed);
        log->window_start = now;
        log->reported = log->suppressed = 0;
    }
    if (log->reported < REPORTS_PER_MINUTE) {
        log->reported++;
        sv_log("QuakeC error in %s (%s, self %d): %s; %s", what,
               qc_error_kind_name(e->kind), e->self, e->message,
               sv_sync == SYNC_STM || sv_sync == SYNC_STMLOCK
                   ? "its section was rolled back, the server goes on"
                   : "its effects so far stay (lock mode), the server goes on");
        sv_log("%s", e->backtrace);
    } else {
        log->suppressed++;
    }
    pthread_mutex_unlock(&report_lock);
}

void sv_qcgame_report_functions(const char *path)
{
    FILE *out = NULL;
    if (path && !(out = fopen(path, "w")))
        sv_log("-qcfunctions: cannot write %s", path);
    int reached = 0, total = 0;
    for (qc_func f = 1; f < qc_num_functions(qcg.vm); f++) {
        if (qc_function_builtin(qcg.vm, f))
            continue;
        uint64_t calls = 0;
        for (int t = 0; t < sv.opt.threads; t++)
            calls += qc_ctx_function_calls(qcg.ctx[t], f);
        total++;
        reached += calls > 0;
        if (out) {
            if (calls)
                fprintf(out, "%s %llu\n", qc_function_name(qcg.vm, f), (unsigned long long)calls);
            else
                fprintf(out, "%s never\n", qc_function_name(qcg.vm, f));
        }
    }
    if (out)
        fclose(out);
    sv_log("QuakeC functions reached: %d of %d (builtins not counted)%s%s", reached, total,
           out ? "; each with its calls in " : "", out ? path : "");
}
