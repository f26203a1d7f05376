/* The game's work counted from outside the game, so that two loads can be compared (the
 * network bots against -replay; qwsv-stats kills=, deaths=, pickups=): frags gained, players
 * who died, items taken. Counted by looking at the game's state rather than inside it:
 *   - a player's frags and death by its client's worker in S, each reply: nobody dies and
 *     respawns between two replies (a respawn takes a command of its own), and a frag won
 *     and lost within one command's reply cancel out;
 *   - the items by the master once per physics tick (a taken item stays away for 20 s). */
#ifndef SV_STATS_GAME_WORK_H
#define SV_STATS_GAME_WORK_H

#include "server.h"

/* S, by cl's worker, when cl is in the game. */
void sv_game_work_note_player(const sv_client *cl);
/* U (master), once per physics tick. */
void sv_game_work_look_items(void);

#endif
