/* Water, slime and lava (QuakeC's WaterMove in client.qc): a player whose head stays under
 * water longer than 12 s drowns a little more each second; slime hurts 4 per second and lava
 * 10 per 0.2 s, each times how deep the player is in it. All on the player's own clock. */
#ifndef SV_CGAME_LIQUIDS_H
#define SV_CGAME_LIQUIDS_H

#include "server.h"

/* RP, inside CS_MOVE_COMMAND, after the player moved. False if a reliable queue overflowed
 * (the death's messages). */
LIBTM_SAFE bool sv_liquids_hurt(int slot, sv_player *p);
/* A player that (re)spawns starts with full air. */
LIBTM_SAFE void sv_liquids_reset(sv_player *p);

#endif
