/* -movers: what a bot knows of the map, read from the BSP file the server names (libqwworld's
 * BSP29 loader, its hull traces and its entity-lump parser): the goals -- the doors, plats,
 * buttons, teleporters, touch triggers and items of the entity lump that a deathmatch keeps
 * (not flagged "not in deathmatch", 2048) -- and a graph to walk to them by. Its nodes are
 * the floor under every point entity (items, spawn spots, lights, teleport destinations, ...)
 * and under or beside every goal, and every floor of a grid of columns 96 units apart (from
 * the top of each column down through each floor it finds); an edge a->b means a player box can walk from a to b in a
 * straight line (a clear trace 18 units up, the height of a step, with floor all along and
 * no lava or slime), or step off a ledge at a and fall onto b. Brush entities (doors, plats)
 * are not in the world's hull: the graph walks through closed doors, which open as a bot
 * comes. Grid nodes link to their neighbours (140 units), the others up to 1024 units. */
#ifndef QWBOT_NAV_H
#define QWBOT_NAV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct qw_bsp;

typedef enum qwbot_goal_kind {
    QWBOT_GOAL_DOOR,        /* func_door without a targetname: opens when touched */
    QWBOT_GOAL_TRIGGER,     /* trigger_once / trigger_multiple: opens the doors it targets */
    QWBOT_GOAL_PLAT,        /* func_plat: rises when stood on */
    QWBOT_GOAL_BUTTON,      /* func_button: pressed by touch, or by a shot (health set) */
    QWBOT_GOAL_TELEPORT,    /* trigger_teleport */
    QWBOT_GOAL_ITEM,        /* item_* and weapon_*: taken, and back after its respawn time */
    QWBOT_GOAL_KINDS
} qwbot_goal_kind;

const char *qwbot_goal_kind_name(qwbot_goal_kind k);

typedef struct qwbot_goal {
    qwbot_goal_kind kind;
    char classname[40];
    int model;              /* brush entities: submodel *N; items: 0 */
    float mins[3], maxs[3]; /* brush entities: the model's box; items: origin -16..16 */
    float center[3];        /* of that box (items: their origin in the lump) */
    bool shoot;             /* a button with health: pressed by a shot, not by touch */
    int node;               /* where a bot goes to reach it; -1: nowhere to stand */
} qwbot_goal;

typedef struct qwbot_nav {
    struct qw_bsp *bsp;
    char path[4096];        /* the map file it was read from */
    int nnodes;
    float (*node)[3];       /* a player's origin standing there */
    uint8_t *grid;          /* grid[i]: node i is one of the floor grid's */
    uint8_t *edge;          /* edge[a * nnodes + b]: a bot walks from a to b */
    int nedges;
    int ngoals;
    qwbot_goal *goals;
    int ndests;
    float (*dest)[3];       /* info_teleport_destination origins */
    int nblockers;
    struct qwbot_blocker { int model; float mins[3], maxs[3]; } *blockers;
                            /* the solid brush entities (doors, walls, plats, buttons) where
                               the map puts them: not in the world's hull, but they stop shots */
} qwbot_nav;

/* Reads the map and builds the goals and the graph; NULL with a message naming the file. */
qwbot_nav *qwbot_nav_load(const char *map_path, char *err, size_t errlen);
void qwbot_nav_free(qwbot_nav *nav);

/* A player box at a walks to b in a straight line (see the top). */
bool qwbot_nav_walkable(const qwbot_nav *nav, const float a[3], const float b[3]);
/* Nothing solid of the world between the points (a line of sight). */
bool qwbot_nav_visible(const qwbot_nav *nav, const float a[3], const float b[3]);
/* The goal's centre is in sight from a: nothing of the world between, and no solid brush
 * entity but the goal's own (bars in front of a button stop the shot). */
bool qwbot_nav_sees_goal(const qwbot_nav *nav, const float a[3], const qwbot_goal *g);
/* The node nearest to pos that a bot at pos walks to, or -1. */
int qwbot_nav_start(const qwbot_nav *nav, const float pos[3]);
/* Breadth-first from node `from`: dist[i] = edges to node i (-1 unreachable), prev[i] the
 * node before it. The arrays hold nnodes entries. */
void qwbot_nav_bfs(const qwbot_nav *nav, int from, int *dist, int *prev);

#endif
