/* The QuakeC game's own view (the files of qcgame/ only; the engine's is qcgame.h): the loaded program,
 * the offsets of the fields and globals the engine reads and writes, the edicts' engine-side
 * data, and the helpers every file of the glue uses.
 *
 * Entities. Edict n of the program is the server's entity n: QuakeC's fields live in the
 * vm's entity block (qc_entity_ptr), the engine's data beside them: the link in the areanode
 * tree (sv.players[n - 1].link for the players 1..32, sv.entities[n].link for the others),
 * whether the edict is in use and when it was freed (qcg.edicts). What S sends of them
 * (sv.players[], sv.entities[]: origin, model, frame...) is a copy the glue refreshes after
 * each command of a player and for everything in U (players.c, view.c). */
#ifndef SV_QCGAME_QCG_H
#define SV_QCGAME_QCG_H

#include "progs/qc_builtins.h"
#include "progs/qc_strings.h"
#include "server.h"

/* QuakeC's constants (defs.qc) the engine needs. */
enum {
    MOVETYPE_NONE = 0, MOVETYPE_WALK = 3, MOVETYPE_STEP = 4, MOVETYPE_FLY = 5,
    MOVETYPE_TOSS = 6, MOVETYPE_PUSH = 7, MOVETYPE_NOCLIP = 8, MOVETYPE_FLYMISSILE = 9,
    MOVETYPE_BOUNCE = 10
};
enum {
    FL_FLY = 1, FL_SWIM = 2, FL_CLIENT = 8, FL_INWATER = 16, FL_MONSTER = 32,
    FL_GODMODE = 64, FL_NOTARGET = 128, FL_ITEM = 256, FL_ONGROUND = 512,
    FL_PARTIALGROUND = 1024, FL_WATERJUMP = 2048
};
/* QuakeWorld's MAX_EDICTS. Entity numbers fit 9 bits on the wire, so as in QuakeWorld the
 * edicts from SV_MAX_ENTITIES (512) on exist and play but are never sent (gibs and
 * backpacks of a telefrag storm: 24 players arriving on 9 spawn spots spawn hundreds). */
#define QCG_MAX_EDICTS 768
#define QCG_SPAWNFLAG_NOT_DEATHMATCH 2048
#define QCG_POOL 16                     /* free edicts a worker takes into RP */

/* Offsets (words) of the entity fields the engine uses; -1 when the program has none. */
typedef struct qcg_fields {
    int modelindex, absmin, absmax, ltime, movetype, solid, origin, oldorigin, velocity;
    int angles, avelocity, classname, model, frame, skin, effects, mins, maxs, size;
    int touch, use, think, blocked, nextthink, groundentity, health, frags, weapon;
    int weaponmodel, weaponframe, currentammo, ammo_shells, ammo_nails, ammo_rockets;
    int ammo_cells, items, takedamage, chain, deadflag, view_ofs, button0, button1, button2;
    int impulse, fixangle, v_angle, netname, enemy, flags, colormap, team, teleport_time;
    int armorvalue, waterlevel, watertype, ideal_yaw, yaw_speed, goalentity, spawnflags;
    int dmg_take, dmg_save, dmg_inflictor, owner, gravity, maxspeed;
} qcg_fields;

/* Engine calls the program provides (0: none). */
typedef struct qcg_functions {
    qc_func StartFrame, PlayerPreThink, PlayerPostThink, ClientKill, ClientConnect;
    qc_func PutClientInServer, ClientDisconnect, SetNewParms, SetChangeParms;
    qc_func SpectatorConnect, SpectatorThink, SpectatorDisconnect;
} qcg_functions;

typedef enum { EDICT_FREE = 0, EDICT_POOLED, EDICT_USED } qcg_edict_state;

/* A worker's edicts for RP (spawn there takes from it: no two commands that fire share a
 * free list), filled by the master in U. Thread-local by index; written in transactions
 * (undone on abort) only by its own thread. */
typedef struct qcg_pool {
    _Alignas(64) int count;
    int numbers[QCG_POOL];
} qcg_pool;

/* Rate-limited reports of QuakeC errors. */
typedef struct qcg_error_log {
    double window_start;
    int reported, suppressed;
} qcg_error_log;

typedef struct qcg_state {
    qc_vm *vm;
    char path[512];
    const struct qc_system_offsets *sys;
    qcg_fields f;
    qcg_functions fn;
    qc_ctx *ctx[SV_MAX_THREADS];
    /* engine-side data of the edicts (shared: instrumented in transactions) */
    struct { int state; float freetime; } edicts[QCG_MAX_EDICTS];
    int num_edicts;                   /* highest edict in use or pooled + 1 */
    bool spawning;                    /* loading the map: precaching allowed, MSG_INIT open */
    qcg_pool pools[SV_MAX_THREADS];
    qw_area_object high_links[QCG_MAX_EDICTS - SV_MAX_ENTITIES]; /* edicts from 512 on */
    /* spawn parms of each client, across map changes (parms_set: SetNewParms has run) */
    float parms[SV_MAX_CLIENTS][16];
    bool parms_set[SV_MAX_CLIENTS];
    /* what QuakeC asked of the master, done in U: a map change, cvar_set, localcmd */
    char changelevel[64];
    char localcmd[256];
    struct { char name[32]; char value[64]; bool pending; } cvar_sets[8];
    /* lightstyles set by QuakeC (sent on "spawn" and when they change) */
    char lightstyles[64][64];
    int checkclient_last;             /* checkclient's candidate, rotating each frame */
    qcg_error_log errors;
} qcg_state;

extern qcg_state qcg;

/* What the loader fixes before the game runs and nothing changes while it runs: the program
 * (qcg.vm), the offsets of its fields (qcg.f) and system globals (qcg.sys), its engine calls
 * (qcg.fn). Code that runs in transactions reads them through these pure functions, not
 * directly: a direct read of a global is a barrier, and puts the word in the transaction's
 * read set, where under orec its stripe's ownership record is shared with other data
 * (qcg.f's records with players' fields: 44 % of orec's aborts at 2 threads on the one-room
 * map were those reads, invalidated by players' moves they had nothing to do with). */
LIBTM_PURE static inline qc_vm *qcg_vm(void)
{
    return qcg.vm;
}
/* Inline, so that a caller's copy holds only the offsets it reads (a call copied the whole
 * table, about 4 % of the server's CPU time, most of it in U's physics). */
LIBTM_PURE static inline qcg_fields qcg_fields_copy(void)
{
    return qcg.f;
}
LIBTM_PURE static inline struct qc_system_offsets qcg_system_copy(void)
{
    return *qcg.sys;
}
LIBTM_PURE int qcg_system_offset(size_t at);
LIBTM_PURE qc_func qcg_function(size_t at);
/* In a function: f, a local copy of the fields' offsets (f->origin...). */
#define QCG_FIELDS(f) const qcg_fields f##_copy = qcg_fields_copy(), *f = &f##_copy
/* In a function: s, a local copy of the system globals' offsets (s->self...). */
#define QCG_SYSTEM(s) const struct qc_system_offsets s##_copy = qcg_system_copy(), *s = &s##_copy
/* One system global's offset, one engine call. */
#define QCG_SYS(name) qcg_system_offset(offsetof(struct qc_system_offsets, name))
#define QCG_FN(name) qcg_function(offsetof(qcg_functions, name))

/* The calling thread's context. */
LIBTM_PURE static inline qc_ctx *qcg_ctx(void)
{
    return qcg.ctx[sv_thread_index];
}

/* Fields of edict n: where they are is fixed (pure); reading and writing them is
 * instrumented in transactions, as any shared memory. */
LIBTM_PURE static inline qc_word *qcg_ed(int n)
{
    return qc_entity_ptr(qcg.vm, n);
}

LIBTM_SAFE static inline float qcg_float(int n, int field)
{
    return field < 0 ? 0 : qcg_ed(n)[field].f;
}
LIBTM_SAFE static inline int qcg_int(int n, int field)
{
    return field < 0 ? 0 : qcg_ed(n)[field].i;
}
LIBTM_SAFE static inline void qcg_set_float(int n, int field, float v)
{
    if (field >= 0)
        qcg_ed(n)[field].f = v;
}
LIBTM_SAFE static inline void qcg_set_int(int n, int field, int v)
{
    if (field >= 0)
        qcg_ed(n)[field].i = v;
}
/* A vector field as a value (see qcg_link_edict). */
typedef struct qcg_vec3 {
    float v[3];
} qcg_vec3;
LIBTM_SAFE static inline qcg_vec3 qcg_vec3_of(int n, int field)
{
    const qc_word *w = qcg_ed(n) + field;
    return (qcg_vec3){{w[0].f, w[1].f, w[2].f}};
}
LIBTM_SAFE static inline void qcg_vec(int n, int field, float out[3])
{
    const qc_word *w = qcg_ed(n) + field;
    out[0] = w[0].f;
    out[1] = w[1].f;
    out[2] = w[2].f;
}
LIBTM_SAFE static inline void qcg_set_vec(int n, int field, const float v[3])
{
    qc_word *w = qcg_ed(n) + field;
    w[0].f = v[0];
    w[1].f = v[1];
    w[2].f = v[2];
}
/* An entity-valued field as an edict number within range (0, the world, otherwise). */
LIBTM_SAFE static inline int qcg_ent(int n, int field)
{
    int e = qcg_int(n, field);
    return e > 0 && e < QCG_MAX_EDICTS ? e : 0;
}
/* Players are edicts 1..32 (slot + 1). */
#define QCG_FIRST_NONPLAYER (QW_MAX_CLIENTS + 1)

/* The world's and the players' edicts always exist: their state is set once before the game
 * runs and no free reaches them (edicts.c), so for them nothing is read -- a scan over the
 * players then reads no shared word for it (a barrier each in a transaction). */
LIBTM_SAFE static inline bool qcg_in_use(int n)
{
    return n >= 0 && n < QCG_MAX_EDICTS &&
           (n < QCG_FIRST_NONPLAYER || qcg.edicts[n].state == EDICT_USED);
}

LIBTM_PURE static inline bool qcg_is_player(int n)
{
    return n >= 1 && n <= QW_MAX_CLIENTS;
}

/* The link of edict n in the areanode tree, and the edict of a link (by address). */
LIBTM_PURE qw_area_object *qcg_link(int n);
LIBTM_PURE int qcg_edict_of(const qw_area_object *obj);

/* --- edicts.c -------------------------------------------------------------------------- */
void qcg_edicts_clear(void);
/* A cleared edict in use: from the calling thread's pool when it has one, else the first
 * free edict not freed in the last 0.5 s (QuakeWorld's rule: clients would blend the old
 * entity into the new one). 0 when none is left. */
LIBTM_SAFE int qcg_edict_alloc(void);
LIBTM_SAFE void qcg_edict_free(int n);
/* U: tops up every worker's pool. */
void qcg_pools_fill(void);
/* SV_LinkEdict: the edict's box into the tree (its absmin/absmax, leafs, lists); with
 * touch_triggers, the touch functions of the triggers it overlaps run (nested QuakeC). */
LIBTM_SAFE qc_status qcg_link_edict(int n, bool touch_triggers);
LIBTM_SAFE void qcg_unlink_edict(int n);
/* SV_Move: the box mins..maxs from start to end against the world and the linked edicts,
 * skipping `pass` (0: none), its owner and what it owns. *hit: the edict hit (0: the world
 * or nothing). */
LIBTM_SAFE void qcg_move(const float start[3], const float mins[3], const float maxs[3],
                         const float end[3], int type, int pass, qw_trace *tr, int *hit);
/* Whether edict n's box is stuck in something where it stands. */
LIBTM_SAFE bool qcg_test_position(int n);

/* --- calls.c --------------------------------------------------------------------------- */
/* Runs function f with self and other (nested in a running chain, or from the engine: then
 * self/other/time are set, and restored afterwards as QuakeWorld's engine does). */
LIBTM_SAFE qc_status qcg_call(qc_ctx *ctx, qc_func f, int self, int other);
/* Outside sections: reports the last error of ctx (rate-limited to 10 lines a minute; a
 * count of the rest), `what` naming the engine call. */
void qcg_report_error(qc_ctx *ctx, const char *what);
/* A string of the program, or "" (transaction-safe: reads immutable program text). */
LIBTM_PURE const char *qcg_string(qc_string s);
LIBTM_PURE bool qcg_streq(const char *a, const char *b);

/* --- physics.c ------------------------------------------------------------------------- */
/* One entity's physics for `frametime` seconds at sv.time (SV_RunEntity). */
LIBTM_SAFE qc_status qcg_run_entity(qc_ctx *ctx, int n, float frametime);
/* The think of edict n if due within frametime (SV_RunThink); false when it freed itself. */
LIBTM_SAFE qc_status qcg_run_think(qc_ctx *ctx, int n, float frametime, bool *still_there);
/* The missile the last chain fired (global newmis), moved 0.05 s at once (SV_RunNewmis). */
LIBTM_SAFE qc_status qcg_run_newmis(qc_ctx *ctx);
/* e1 hit e2 (SV_Impact): their touch functions. */
LIBTM_SAFE qc_status qcg_impact(qc_ctx *ctx, int e1, int e2);

/* --- builtins_*.c ---------------------------------------------------------------------- */
/* The world builtins, a table per file, each ending with {0}. */
extern const struct qc_builtin_def qcg_world_builtins[], qcg_message_builtins[];
/* Start of a chain: empties the calling thread's pending messages; end of it (before the
 * section commits): sends them (MSG_ONE, MSG_ALL, MSG_BROADCAST). */
LIBTM_PURE void qcg_messages_begin(void);
LIBTM_SAFE bool qcg_messages_flush(void);
/* A model's index in the precache list (0: not there). */
LIBTM_SAFE int qcg_model_index(const char *name);
LIBTM_SAFE int qcg_sound_index(const char *name);

/* --- spawn.c / view.c / players.c ---------------------------------------------------- */
/* The cvars QuakeC reads (world_frame.c): copied by the master, read by cvar(). */
void qcg_refresh_cvars(void);
LIBTM_SAFE float qcg_cvar_value(const char *name);
/* Copies what S sends of edict n into sv.entities[n] (non-players) or sv.players[n-1]. */
LIBTM_SAFE void qcg_view_player(int slot);
void qcg_view_entities(void);

#endif
