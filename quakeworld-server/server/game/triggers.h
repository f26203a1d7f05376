/* Triggers (QuakeC's triggers.qc and the engine's touch links): what a player's box touches
 * after its move. Teleporters send players to their destination (telefragging whoever
 * stands there); items are handed to items.c. */
#ifndef SV_GAME_TRIGGERS_H
#define SV_GAME_TRIGGERS_H

#include "server.h"

/* Whether a teleporter's trigger meets the box (teleporters never move: safe anywhere). */
bool sv_triggers_teleport_meets(const float mins[3], const float maxs[3]);
/* RP, inside CS_MOVE_COMMAND: touches every trigger overlapping p's box. False if a
 * reliable queue overflowed. */
QW_TM_SAFE bool sv_triggers_touch(sv_client *cl, sv_player *p);

#endif
