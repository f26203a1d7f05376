/* Targets (QuakeC's SUB_UseTargets, trigger_relay and trigger_counter): map entities name
 * others by "target" = their "targetname"; firing a name uses every entity that bears it
 * (a door opens, a plat goes down, a relay fires its own targets after its delay, a counter
 * counts: each kind's .use, set at spawn). All in U. */
#ifndef SV_CGAME_TARGETS_H
#define SV_CGAME_TARGETS_H

#include "server.h"

/* Map load: the id of a target name (0 for none or ""): equal names, equal ids. */
int sv_target_id(const char *name);
/* Map load: trigger_relay (fires after "delay") and trigger_counter (fires on its "count"th
 * use, default 2). */
void sv_game_spawn_relay(const qw_entity_fields *f, bool counter);

/* U: uses every entity named `target`. */
void sv_targets_fire(int target);
/* U: a relay whose delay is over fires. */
void sv_targets_relay_think(sv_entity *e);

#endif
