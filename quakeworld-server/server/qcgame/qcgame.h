/* QuakeWorld's own game in QuakeC, run by the interpreter of progs/: the glue between the
 * server and the program. It chooses and loads the progs file, spawns the map's entities by
 * their classname, provides the world builtins, makes the engine's calls (StartFrame,
 * PlayerPreThink, PlayerPostThink, ClientConnect, PutClientInServer, ...) and runs the
 * physics of every movetype. The server reaches it through its operations table,
 * sv_qcgame (game/game.h), so net/ does not know which game runs; it reaches the engine's
 * admin side (map changes, console commands, cvars) only through the services it is given.
 *
 * Threads: each thread has its own QuakeC context (qc_ctx: self, other, time, parameters,
 * locals, the call stack); QuakeC runs in U on the master (StartFrame, thinks, physics) and
 * in RP inside the critical sections (a player's command: PreThink, pmove, touches,
 * PostThink and everything they call), in every -sync mode. Every section that runs QuakeC
 * starts with qc_ctx_reset, so a restarted transaction begins clean; a QuakeC runtime error
 * cancels the section in the transactional modes (see README.md, "QuakeC inside the
 * sections"). */
#ifndef SV_QCGAME_H
#define SV_QCGAME_H

#include "game/game.h"
#include "server.h"
#include "sync/region.h"

extern const struct sv_game sv_qcgame;

/* Start-up (serial): the progs file to run. `progs` (-progs FILE; "none": the C game) is
 * used as given; else qwprogs.dat in basedir's `game` folder (-game DIR), then qw/, then
 * id1/. True when a program was loaded and the QuakeC game runs; false when none was found
 * (the C game runs, said in the log) or, with *err set, when a file was found but is bad
 * (the server stops: the admin named or placed it). `services`: what QuakeC's changelevel,
 * localcmd, cvar and cvar_set reach (admin's). */
bool sv_qcgame_choose(const char *basedir, const char *game, const char *progs,
                      const struct sv_game_services *services, char *err, size_t errlen);
/* Map load (serial, after the BSP, PVS and area are ready): precache lists, the entities of
 * the entity lump by their spawn functions, baselines and the sign-on. */
bool sv_qcgame_spawn_map(char *err, size_t errlen);
/* After sv_qcgame_spawn_map (serial): a player tried on a free slot -- SetNewParms,
 * ClientConnect, PutClientInServer, then removed. False with *err naming the call and the
 * QuakeC error when it fails: a map nobody can enter is refused (admin/map_change.c). */
bool sv_qcgame_try_player(char *err, size_t errlen);

LIBTM_SAFE bool sv_qcgame_spawn_player(int slot);
LIBTM_SAFE void sv_qcgame_spawn_spectator(int slot);
LIBTM_SAFE bool sv_qcgame_run_command(sv_client *cl, const qw_usercmd *cmd);
LIBTM_SAFE bool sv_qcgame_client_kill(int slot);
void sv_qcgame_failed(sv_client *cl, bool entering);
void sv_qcgame_remove_player(int slot);
void sv_qcgame_physics(double dt);
void sv_qcgame_map_ending(void);
void sv_qcgame_player_stats(int slot, int stats[QW_MAX_CL_STATS]);
int sv_qcgame_player_frame(int slot);
const char *sv_qcgame_lightstyle(int i);
/* -sync region and -sched lpt: QuakeC reaches any entity (find, findradius, nextent), so a
 * command's reach cannot be bounded: region locks every leaf, lpt runs it serially. */
void sv_qcgame_command_reach(int slot, const qw_usercmd *cmd, sv_reach *out);
bool sv_qcgame_command_fits(int slot, const qw_usercmd *cmd, const float mins[3],
                            const float maxs[3]);
/* On exit: logs how many of the program's QuakeC functions ran (builtins not counted) and,
 * with a path (-qcfunctions FILE), writes each function's name and calls ("never"). */
void sv_qcgame_report_functions(const char *path);

#endif
