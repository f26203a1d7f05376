/* QuakeWorld player movement (pmove): gravity, friction, ground/air/water acceleration,
 * jumping (+270 up), water jumps, stepping up stairs of up to 18 units, sliding along up to
 * four clip planes per move, the ground check (a floor needs normal z >= 0.7) and the water
 * level. The player is the hull-1 box (-16,-16,-24)..(16,16,32) around its origin.
 *
 * The caller (server or bot) fills a qw_pmove with the player's state, the command and the
 * solid things around (physents: physents[0] must be the world), calls qw_pmove_run, and reads
 * back origin, velocity, onground, waterlevel and the touched physents. */
#ifndef QW_PMOVE_H
#define QW_PMOVE_H

#include "area.h"
#include "bsp.h"
#include "trace.h"

#define QW_MAX_PHYSENTS 64
#define QW_PM_STEPSIZE 18.0f
#define QW_PM_JUMP_VELOCITY 270.0f

/* Buttons in qw_pmove_cmd.buttons (the protocol's values). */
#define QW_PM_BUTTON_ATTACK 1
#define QW_PM_BUTTON_JUMP 2

/* Player movement types. */
enum {
    QW_PM_NORMAL = 0,      /* walking, with collision */
    QW_PM_OLD_DEAD = 1,    /* dead, in the id QW style: as DEAD */
    QW_PM_SPECTATOR = 2,   /* flies through walls */
    QW_PM_DEAD = 3,        /* no acceleration, no jumping, still falls and slides */
    QW_PM_FLY = 4,         /* flies (no gravity) but collides */
    QW_PM_NONE = 5         /* no movement at all */
};

/* The values the server sends in svc_serverdata (mvdsv defaults in comments). */
typedef struct qw_movevars {
    float gravity;            /* 800 */
    float stopspeed;          /* 100 */
    float maxspeed;           /* 320 */
    float spectatormaxspeed;  /* 500 */
    float accelerate;         /* 10 */
    float airaccelerate;      /* 10 (id QW: 0.7, where it was unused) */
    float wateraccelerate;    /* 10 */
    float friction;           /* 4 */
    float waterfriction;      /* 4 */
    float entgravity;         /* 1 (per-player gravity multiplier) */
} qw_movevars;

/* Fills mv with the defaults above. */
void qw_movevars_default(qw_movevars *mv);

/* One movement command (the usercmd fields pmove uses). */
typedef struct qw_pmove_cmd {
    int msec;                 /* duration, 0..255 ms */
    float angles[3];          /* view angles in degrees: pitch, yaw, roll */
    float forwardmove, sidemove, upmove;
    int buttons;
} qw_pmove_cmd;

/* Something the player collides with. */
typedef struct qw_physent {
    float origin[3];
    int model;                /* brush model index in the map (0 = world), or -1 for a box */
    float mins[3], maxs[3];   /* the box (model == -1), relative to origin */
    int info;                 /* caller's id (entity number), copied through untouched */
    const qw_area_object *object;  /* the linked object it came from (set by
                                      qw_pmove_add_area_physents; set it or NULL by hand) */
} qw_physent;

typedef struct qw_pmove {
    /* in/out */
    float origin[3];
    float velocity[3];
    float angles[3];          /* set from cmd.angles */
    int oldbuttons;           /* keep between calls: a held jump does not jump again */
    float waterjumptime;      /* keep between calls */
    /* in */
    int pm_type;              /* QW_PM_* */
    qw_pmove_cmd cmd;
    const qw_bsp *bsp;
    int numphysent;           /* physents[0] = world (model 0 at the origin) */
    qw_physent physents[QW_MAX_PHYSENTS];
    /* out */
    int onground;             /* index of the physent stood on, -1 = in the air */
    int waterlevel;           /* 0 dry, 1 feet, 2 waist, 3 head under */
    int watertype;            /* QW_CONTENTS_* at the feet */
    int numtouch;
    int touchindex[QW_MAX_PHYSENTS];  /* physents hit during the move (may repeat) */
} qw_pmove;

/* Initialises pm for a standing player at origin in the world only (physents[0] = world). */
void qw_pmove_init(qw_pmove *pm, const qw_bsp *bsp, const float origin[3]);

/* Runs one command. Pure (bsp.h): reads only *pm, *mv and the immutable map and writes only
 * *pm, so inside a transaction pm must be a local (filled from shared state by instrumented
 * code, e.g. qw_pmove_add_area_physents) and mv immutable. Its traces then cost no barriers. */
LIBTM_PURE void qw_pmove_run(qw_pmove *pm, const qw_movevars *mv);

/* The most one command adds to a player's speed: gravity over a whole second (a command
 * lasts at most 255 ms), a jump, and acceleration up to the running speed. */
LIBTM_PURE float qw_pmove_speed_gain(const qw_movevars *mv);
/* How far around its origin pmove must see for pm's command (pm filled but for physents):
 * as far as the command can carry the player's box -- its speed plus qw_pmove_speed_gain
 * over cmd.msec, a stair step up, the box's own size -- and never further than `most`
 * (QuakeWorld's servers look 256 around). Nothing beyond can change the move, so the move
 * comes out the same as with `most`; each object not looked at is one fewer that other
 * commands' moves can conflict with. mv must be immutable, pm a local (pure). */
LIBTM_PURE float qw_pmove_reach(const qw_pmove *pm, const qw_movevars *mv, float most);

/* Appends (after the world) every blocking object of the area whose box overlaps
 * origin +- range (QuakeWorld uses 256), skipping `self` and objects it owns, as QuakeWorld's
 * server does before running a command: brush objects as their submodel, others as boxes.
 * Stops at QW_MAX_PHYSENTS. Returns the number added. */
LIBTM_SAFE int qw_pmove_add_area_physents(qw_pmove *pm, const qw_area *area,
                                          const qw_area_object *self, float range);

/* Whether the player box fits at pos (no physent solid there). Pure, like qw_pmove_run. */
LIBTM_PURE int qw_pmove_test_position(const qw_pmove *pm, const float pos[3]);

/* Traces the player box from start to end against all physents. tr->ent is the hit physent's
 * object (NULL for the world or physents without one); the index of the physent hit (or -1) is
 * returned through *physent when non-NULL. Pure, like qw_pmove_run (tr, physent: locals). */
LIBTM_PURE void qw_pmove_trace(const qw_pmove *pm, const float start[3], const float end[3],
                               qw_trace *tr, int *physent);

#endif
