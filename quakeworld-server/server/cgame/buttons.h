/* Buttons (QuakeC's buttons.qc): func_button, pressed by walking into it, slides in along its
 * "angle" by its size less "lip" (4) at "speed" (40), fires its targets, and comes back out
 * after "wait" (1) seconds. */
#ifndef SV_CGAME_BUTTONS_H
#define SV_CGAME_BUTTONS_H

#include "server.h"

void sv_game_spawn_button(int submodel, const qw_entity_fields *f);
/* U: a player walked into it (its trigger field was touched). */
void sv_buttons_press(sv_entity *button);
void sv_buttons_think(sv_entity *e, double dt);

#endif
