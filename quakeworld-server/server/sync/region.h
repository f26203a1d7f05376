/* -sync region: the fine-grained locking of the original parallel QuakeWorld server, the
 * lock expert's answer that Atomic Quake replaced with transactions. Same section bodies as
 * every other mode; the locks are:
 *
 *   areanode leaves  one mutex per leaf of the areanode tree. Before a movement command the
 *                    game says where the command may look (the game's command_reach: the pmove
 *                    range around the player, the line of fire, a teleporter's far side);
 *                    the section locks every leaf those boxes meet, widened by the size of
 *                    the largest object that moves in RP, in tree order (lowest node number
 *                    first), so two commands that may touch one object share a leaf lock
 *                    and nobody waits in a circle. A command of a dead player (it may
 *                    respawn, which looks at every player) and the rare sections that read
 *                    every player (spawning, name changes, a newcomer's scoreboard) lock all
 *                    leaves.
 *   node lists       the areanode lists themselves (an object straddling a split lives in an
 *                    inner node's list, which far-away commands scan) each have a mutex,
 *                    held only while a list is scanned or changed (world/area.h).
 *   reply buffers    one mutex per client for its reliable queue (and its spawned state,
 *                    which broadcasts read), taken inside sv_reliable_write.
 *   global buffer    one mutex for the global state buffer (net/events.c).
 *   entity numbers   one mutex for allocating an entity (a rocket) in RP.
 *   movers           one mutex for marking a trigger touched (doors, plats, buttons, and
 *                    trigger_* fields are big and far-reaching; U acts on the marks).
 *
 * The last four are innermost: taken with the leaves held, never two at once. */
#ifndef SV_SYNC_REGION_H
#define SV_SYNC_REGION_H

#include "server.h"

/* Where a command may look or write: boxes in world coordinates, or everywhere. */
#define SV_REACH_BOXES 2
typedef struct sv_reach {
    bool everywhere;
    int num_boxes;
    float mins[SV_REACH_BOXES][3], maxs[SV_REACH_BOXES][3];
} sv_reach;

/* After the map is loaded, before the first frame (only in -sync region). */
void sv_region_init(void);
/* Before CS_MOVE_COMMAND in -sync region: the reach of the command the calling thread is
 * about to run for player `slot` (the game's command_reach says what it is). */
void sv_region_plan_move(int slot, const sv_reach *reach);

/* The innermost locks, called from the section bodies' primitives (transaction_pure: they
 * touch no transactional memory and do nothing unless -sync region). */
LIBTM_PURE void sv_region_lock_client(int slot);
LIBTM_PURE void sv_region_unlock_client(int slot);
LIBTM_PURE void sv_region_lock_events(void);
LIBTM_PURE void sv_region_unlock_events(void);
LIBTM_PURE void sv_region_lock_entities(void);
LIBTM_PURE void sv_region_unlock_entities(void);
LIBTM_PURE void sv_region_lock_movers(void);
LIBTM_PURE void sv_region_unlock_movers(void);

#endif
