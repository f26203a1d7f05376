/* A player's link in the areanode tree, which every other command scans. Linked at once,
 * except in a job of -sched lpt: during RP the other jobs read the tree as the frame began, so
 * nobody changes it; a player that moves or dies in a job is marked, and linked where it ended
 * in the serial phase. The game rules that move or kill a player (player.c, triggers.c,
 * combat.c) all come here, and the scheduler does not: it runs the game. */
#ifndef SV_CGAME_RELINK_H
#define SV_CGAME_RELINK_H

#include "server.h"

/* Links player p where it stands with its box: solid while alive, in no list once dead. */
LIBTM_SAFE void sv_relink_player(sv_player *p);
/* p moved (a command, a teleport): its link follows now, or after RP in a job. */
LIBTM_SAFE void sv_relink_moved(sv_player *p);
/* p died: others stop meeting it now, or after RP in a job. */
LIBTM_SAFE void sv_relink_dead(sv_player *p);
/* The serial phase: links the players that moved or died in jobs. */
void sv_relink_deferred(void);

#endif
