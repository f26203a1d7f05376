/* -movers: bots that go to the map's doors, plats, buttons, teleporters, touch triggers and
 * items (the goals of nav.h) and use them, and that watch from what the server sends whether
 * each worked: a brush entity's origin moving after the bot reached it (a door opening, a
 * plat rising with the bot on it, a button going in), the bot's own origin jumping onto a
 * teleport destination, an item leaving the entity list in the bot's sight and coming back
 * after its respawn time, the server's "You got ..." prints. Each bot takes the kinds in
 * turn (bot i starts at kind i), the nearest goal of the kind it has visited least, walks
 * the graph's shortest path there, and jumps, plans again or gives the goal up when it makes
 * no progress; dead, it presses fire to respawn. The entity view needs whole entity lists:
 * a -movers bot asks for no deltas (its moves carry no clc_delta), so the server sends each
 * frame's list against the baselines. */
#ifndef QWBOT_MOVERS_H
#define QWBOT_MOVERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "nav.h"
#include "qw_entity_delta.h"
#include "qw_recording.h"
#include "rng.h"

struct qwbot_bot;

#define QWBOT_MAX_EDICTS 512

/* What worked, per bot (the summary adds them up). */
typedef struct qwbot_mover_counts {
    uint32_t reached[QWBOT_GOAL_KINDS];   /* goals the bot stood at (or in front of) */
    uint32_t moved[QWBOT_GOAL_KINDS];     /* brush goals that moved after the bot reached them
                                             (trigger: a door moved after it) */
    uint32_t plat_rides;                  /* the bot rose 48+ units standing on a plat */
    uint32_t teleports;                   /* the bot's origin jumped onto a destination */
    uint32_t pickups;                     /* "You got ..." / "You receive ..." prints */
    uint32_t items_gone;                  /* an item in sight left the entity list */
    uint32_t items_back;                  /* ... and came back (respawned) */
} qwbot_mover_counts;

typedef struct qwbot_visitor {
    qwbot_rng rng;
    const qwbot_nav *nav;       /* the map the per-goal state below is for */
    uint32_t frame;
    unsigned next_kind;
    float yaw;

    /* the current goal and the way there */
    int goal;                   /* -1: none */
    int path[512], path_len, path_pos;
    bool at_goal;
    uint32_t goal_frame, at_frame, progress_frame, no_start_since;
    float best_dist;
    int replans;
    int back_node;              /* items: where to wait for the respawn */

    /* per goal of nav */
    uint32_t *visits;
    double *reached_at;         /* when the bot last stood at it (0: never) */
    float *first_origin;        /* [3] per goal: where its brush entity was first seen */
    uint8_t *seen_first, *moved, *rode;
    float *reach_z;             /* the bot's height when it reached a plat */
    int16_t *item_entity;       /* the item's entity number, -1 unknown */
    uint8_t *item_state;        /* 0 unknown, 1 present, 2 gone (in sight) */
    double last_trigger;        /* when the bot last reached a trigger */

    /* the entity view */
    qw_entity_state baseline[QWBOT_MAX_EDICTS];
    qw_entity_state ent[QWBOT_MAX_EDICTS];
    int32_t ent_seen[QWBOT_MAX_EDICTS];    /* incoming sequence of the last list holding it */
    double teleported_at;

    qwbot_mover_counts counts;
} qwbot_visitor;

qwbot_visitor *qwbot_visitor_new(uint64_t seed, unsigned bot_index);
void qwbot_visitor_free(qwbot_visitor *v);

/* The bot's next command; `cmd` gets a console command to send first ("kill"), or "". */
void qwbot_movers_next(struct qwbot_bot *b, uint8_t msec, qw_rec_cmd *out, char *cmd,
                       size_t cmdlen);

/* From server_parse.c: a baseline, one whole entity list (each entry against its baseline),
 * the bot's own origin (before it is stored), a print. */
void qwbot_movers_baseline(struct qwbot_bot *b, const qw_entity_state *s);
void qwbot_movers_entity(struct qwbot_bot *b, const qw_entity_delta *d);
void qwbot_movers_entities_done(struct qwbot_bot *b);
void qwbot_movers_origin(struct qwbot_bot *b, const float origin[3]);
void qwbot_movers_print(struct qwbot_bot *b, const char *text);

#endif
