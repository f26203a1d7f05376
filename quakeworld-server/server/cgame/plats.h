/* Plats (QuakeC's plats.qc): func_plat waits down, its top "height" (its own height less 8)
 * below where it was built; a player stepping on it (its trigger field) sends it up at
 * "speed" (150), it stays up while someone is on it and 3 s more, then goes down. A plat
 * that a target names starts up and comes down when fired. A player caught under it takes
 * 1 and the plat turns back. */
#ifndef SV_CGAME_PLATS_H
#define SV_CGAME_PLATS_H

#include "server.h"

/* Map load. */
void sv_game_spawn_plat(int submodel, const qw_entity_fields *f);
/* U: a player stands on the plat (its trigger field was touched). */
void sv_plats_touch(sv_entity *plat);
/* U: fired by a target. */
void sv_plats_use(sv_entity *plat);
/* U: moves and waits. */
void sv_plats_think(sv_entity *e, double dt);

#endif
