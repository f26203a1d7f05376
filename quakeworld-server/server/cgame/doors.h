/* Doors (QuakeC's doors.qc): func_door slides along its "angle" by its size less "lip" (8)
 * at "speed" (100), stays open "wait" seconds (3; -1 for ever) and closes. Doors that touch
 * each other open together; a group that no target names gets a trigger field 60 units
 * around it, which players open it with by walking in. A player in the way of a closing
 * door takes "dmg" (2) and the door opens again. Key doors (gold, silver) stay shut. */
#ifndef SV_CGAME_DOORS_H
#define SV_CGAME_DOORS_H

#include "server.h"

/* Map load: one func_door; then, once all are in, sv_doors_link. */
void sv_game_spawn_door(int submodel, const qw_entity_fields *f);
void sv_doors_link(void);

/* U: opens the door's group (toggles a toggle door), or keeps it open longer. */
void sv_doors_use(sv_entity *door);
/* U: moves, waits and closes. */
void sv_doors_think(sv_entity *e, double dt);

#endif
