/* Combat (QuakeC's combat.qc): damage through armour, knockback, death, frags and obituaries
 * (sv_game_damage in game/game.h), splash damage and telefrags. */
#ifndef SV_CGAME_COMBAT_H
#define SV_CGAME_COMBAT_H

#include "server.h"

/* Kills every living player but `slot` standing within 32 units of origin (a spawn or a
 * teleport arriving there). False if a reliable queue overflowed. */
LIBTM_SAFE bool sv_combat_telefrag(int slot, const float origin[3]);
/* An explosion at `at`: up to `damage` points, less with distance, to every living player
 * but `direct` (already hit), half for the attacker itself. */
LIBTM_SAFE bool sv_combat_radius_damage(const float at[3], int attacker, float damage,
                                        const sv_player *direct);

#endif
