/* Weapons (QuakeC's weapons.qc): the axe, the shotgun (six hitscan pellets) and the rocket
 * launcher (a projectile moved in U that explodes with splash damage). */
#ifndef SV_CGAME_WEAPONS_H
#define SV_CGAME_WEAPONS_H

#include "server.h"

/* RP, inside CS_MOVE_COMMAND: impulse 1 axe, 2 shotgun, 7 rocket launcher (if carried). */
LIBTM_SAFE void sv_weapons_select(sv_player *p, int impulse);
/* RP, inside CS_MOVE_COMMAND: the attack button of cl's player with the view angles. False
 * if a reliable queue overflowed (a kill's messages). */
LIBTM_SAFE bool sv_weapons_fire(sv_client *cl, sv_player *p, const float angles[3]);
/* The box that the shots of this command may cross beyond the player's own surroundings
 * (the shotgun's pellets, 2048 units long); false when the command fires no such shot.
 * Reads only what the player's own thread writes (see sv_cgame_command_reach). */
bool sv_weapons_reach(const sv_player *p, const qw_usercmd *cmd, float mins[3], float maxs[3]);
/* -sched lpt, the serial phase: fires what the jobs of the last RP left (the shotgun's
 * pellets are traced now, against where everybody stands after RP; rockets get their
 * entity). */
void sv_weapons_run_deferred(int threads);
/* U: moves a rocket by dt seconds; it explodes on whatever it hits or dies after 5 s. */
void sv_weapons_rocket_think(sv_entity *e, double dt);

#endif
