/* The scoreboard every client keeps of the player slots -- name, colours, team, skin, frags,
 * ping, packet loss, time in the game -- and the messages that keep it right, as mvdsv sends
 * them (checked from the wire: tests/test-mvdsv-scoreboard.sh runs the same against mvdsv):
 *   - at "spawn" a newcomer gets every slot's full update (sv_scoreboard_snapshot and
 *     sv_scoreboard_write_update, one message per slot: svc_updatefrags, svc_updateping,
 *     svc_updatepl, svc_updateentertime, svc_updateuserinfo);
 *   - when a client enters the game, every client gets its full update (client_commands.c,
 *     with the "entered the game" line);
 *   - when a client leaves, every client gets its slot's update with an empty userinfo,
 *     frags 0 and ping 999: the slot is free (sv_scoreboard_announce_leave);
 *   - a change of name, colours, team or skin goes to everybody as svc_setinfo;
 *   - a change of frags goes to everybody as svc_updatefrags: the C game sends it from the
 *     section of the kill (cgame/combat.c, as the paper's server did); for a game that only
 *     changes the number (QuakeC's .frags) the frame does, once per frame, as mvdsv does
 *     (sv_scoreboard_frame);
 *   - "pings", which a client sends every few seconds while it shows the scoreboard, is
 *     answered with every client's svc_updateping and svc_updatepl (the loss its moves
 *     report).
 * A client that knows QuakeWorld's 32 slots hears of no slot from 32 on (net/reliable.h). */
#ifndef SV_NET_SCOREBOARD_H
#define SV_NET_SCOREBOARD_H

#include <stdbool.h>

#include "net/userinfo.h"
#include "server.h"

/* What a scoreboard shows of one slot. */
typedef struct sv_scoreboard_entry {
    bool here;                        /* a client holds the slot (signing on or in the game) */
    bool spawned, spectator;
    sv_public_userinfo pub;
    int userid, frags, ping, loss;
    float entertime;                  /* seconds since it connected */
} sv_scoreboard_entry;

/* A player's frags as the engine reads them (status, scoreboards, the fraglimit). */
LIBTM_SAFE int sv_scoreboard_frags(int slot);
/* The ping shown for a client: its smoothed round trip in ms, 999 while it signs on. */
int sv_scoreboard_ping(const sv_client *cl);

/* RP: the entries of the slots `viewer` knows (32, or more for a client with big slots),
 * copied inside CS_SCOREBOARD while others enter, leave and change names; returns how many. */
int sv_scoreboard_snapshot(const sv_client *viewer, sv_scoreboard_entry *out);
/* The entry of cl itself, read by its own worker (its frags, ping and name are its own). */
void sv_scoreboard_entry_of(const sv_client *cl, sv_scoreboard_entry *out);
/* The full update of one slot (an empty userinfo, frags 0 and ping 999 when nobody holds
 * it). */
void sv_scoreboard_write_update(qw_sizebuf *sb, int slot, const sv_scoreboard_entry *e);
/* svc_updateping and svc_updatepl of one slot (a "pings" reply). */
void sv_scoreboard_write_ping(qw_sizebuf *sb, int slot, const sv_scoreboard_entry *e);

/* Master, when a slot is freed: everybody learns that cl's slot is empty. */
void sv_scoreboard_announce_leave(const sv_client *cl);
/* U (master): announces the frags that changed since the last frame, unless the game says
 * it announces them itself (sv_scoreboard_game_announces_frags). */
void sv_scoreboard_frame(void);
/* At start-up, for a game that sends svc_updatefrags itself when frags change (the C game):
 * the frame then does not send them a second time. */
void sv_scoreboard_game_announces_frags(bool announces);

#endif
