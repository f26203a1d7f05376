/* Items (QuakeC's items.qc): health, armour, ammunition and weapons lying in the map, picked
 * up by touching them, back after 20 s (30 s for weapons). */
#ifndef SV_CGAME_ITEMS_H
#define SV_CGAME_ITEMS_H

#include "server.h"

/* RP, inside CS_MOVE_COMMAND: p (cl's player) touches the visible item e. False if cl's
 * reliable queue overflowed. */
LIBTM_SAFE bool sv_items_touch(sv_client *cl, sv_player *p, sv_entity *e);
/* U: a taken item whose time has come appears again. */
void sv_items_think(sv_entity *e);

#endif
