/* What the game may ask of the admin side (game/game.h's struct sv_game_services), filled in
 * here: QuakeC's changelevel, localcmd, cvar and cvar_set reach admin only through it. */
#ifndef SV_ADMIN_GAME_SERVICES_H
#define SV_ADMIN_GAME_SERVICES_H

#include "game/game.h"

extern const struct sv_game_services sv_admin_game_services;

#endif
