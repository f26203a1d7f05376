/* Virtual clients that replay a recorded trace inside the server (qwsv -replay TRACE
 * -replayclients N): a load that costs the server's machine nothing beyond the server's own
 * work, so that what more threads buy shows up to the core count (on a small machine,
 * network bots take the cores the server would use).
 *
 * Each virtual client is an ordinary client slot that the packets come from: it has a
 * client-side netchan of its own and sends what qwbot sends for the same trace -- the
 * sign-on ("new", "spawn", "begin"), then one packet per move with the three latest usercmds
 * (checksummed when the server checks checksums), its string commands on the reliable
 * channel, clc_delta for the last frame it got -- each turned to the nearest living opponent
 * it was shown, as qwbot -aim turns it. The packet goes into the client's inbox and from there
 * through everything a network packet goes through: the netchan, the parser, the sections and
 * the game code in RP. In S its reply is built as any client's, then handed back here instead
 * of to the socket: counted (qwsv-stats replies_counted), its netchan header processed so the
 * acknowledgements (and the reliable channel) work as over a network, and what it showed of
 * the players kept for aiming. With -replayspeed 0 (closed loop) the next packet is queued
 * right then, by the client's own worker, and the game's clock follows the moves
 * (sv_replay_game_seconds); with -replayspeed F, when the trace's schedule at F times its pace
 * says so, by the master in the receive phase. Network clients play beside them.
 *
 * What this load leaves out: the sockets (recvfrom/sendto, select) and the kernel's UDP work,
 * and the clients' processes; a map change (virtual clients do not follow one). */
#ifndef SV_NET_REPLAY_H
#define SV_NET_REPLAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "server.h"

/* Start-up (master): reads the trace of sv.opt.replay; false with the file and the reason. */
bool sv_replay_load(char *err, size_t errlen);
/* Master, once the map is loaded: creates the virtual clients and queues their sign-on;
 * false (with a message) when they do not fit maxclients. */
bool sv_replay_start(char *err, size_t errlen);
/* Whether virtual clients run (the receive phase then does not wait for the socket). */
bool sv_replay_running(void);
/* Receive phase (master): queues the packets the schedule says are due (-replayspeed F, or
 * a closed-loop client whose packet could not be queued in S). Returns the seconds until the
 * next one is due (a large number when none waits on the clock). */
double sv_replay_queue_due(double now);

/* U (master): how far the game's clock goes this frame, given the real seconds since the
 * last frame. In closed loop the virtual clients move faster than real time (each move
 * carries the msec it took when recorded, and the next comes as soon as the reply is built),
 * so the game's clock follows their moves, as a timedemo follows its demo: the mean msec of
 * the moves each playing virtual client sent since the last call. Otherwise (at the trace's
 * pace, before any virtual client plays, or without -replay) the real seconds. Projectiles,
 * thinks, item respawns and the reuse of freed entities then keep the pace of the players
 * they belong to. */
double sv_replay_game_seconds(double real_seconds);

/* S, by cl's worker: cl's reply, built as for the network. */
void sv_replay_receive(sv_client *cl, const uint8_t *pkt, size_t len);
/* S, while cl's reply is built: it shows cl player `slot` at its place, alive or dead ... */
void sv_replay_saw_player(sv_client *cl, int slot, const float origin[3], bool dead);
/* ... and cl's own health. */
void sv_replay_saw_health(sv_client *cl, int health);

#endif
