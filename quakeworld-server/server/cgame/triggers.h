/* Triggers (QuakeC's triggers.qc and the engine's touch links): what a player's box touches
 * after its move. Teleporters send players to their destination (telefragging whoever
 * stands there); items are handed to items.c; trigger_once/multiple/secret and the fields
 * of doors, plats and buttons are marked touched, and U acts on them (fires targets, opens
 * the door, raises the plat, presses the button). */
#ifndef SV_CGAME_TRIGGERS_H
#define SV_CGAME_TRIGGERS_H

#include "server.h"

/* Map load: trigger_multiple (fires its targets when touched, then again after "wait",
 * 0.2 s), trigger_once and trigger_secret (fire once). */
void sv_game_spawn_trigger(int submodel, const qw_entity_fields *f, bool once);
/* U: a touched trigger does what it does. */
void sv_triggers_think(sv_entity *e);

/* Whether a teleporter's trigger meets the box (teleporters never move: safe anywhere). */
bool sv_triggers_teleport_meets(const float mins[3], const float maxs[3]);
/* RP, inside CS_MOVE_COMMAND: touches every trigger overlapping p's box. False if a
 * reliable queue overflowed. */
LIBTM_SAFE bool sv_triggers_touch(sv_client *cl, sv_player *p);

#endif
