/* The game, as the engine sees it: one interface for two games. QuakeWorld's own game in
 * QuakeC (qwprogs.dat, run by the interpreter in progs/ through the glue in qcgame/) when a
 * progs file is found at start-up (qcgame/qcgame.h says where it looks), else the deathmatch
 * written in C (game/, split the way QuakeC splits its game rules: player.c (client.qc),
 * weapons.c, combat.c, items.c, triggers.c, entities.c, and think.c for what moves by itself
 * in U). The sv_game_* functions below dispatch to one or the other (game/game.c).
 * Functions marked LIBTM_SAFE run inside critical sections (see sync/critical_sections.h). */
#ifndef SV_GAME_H
#define SV_GAME_H

#include "net/tokenize.h"
#include "server.h"
#include "sync/region.h"

/* True when the QuakeC game runs (set once at start-up, before the first map). */
extern bool sv_game_qc;

/* map load (master, single-threaded) */
void sv_game_spawn_item(int item, const float origin[3]);
/* Brush entities (func_wall, doors, ...) stand still as their submodel; solid or not. */
void sv_game_spawn_brush(int submodel, bool solid);
/* trigger_teleport: an invisible trigger (the submodel's box) sending players to dest. */
void sv_game_spawn_teleport(int submodel, const float dest[3], float yaw);
/* Maps without items (like crateprefab_dm) get one item per spawn point, so players meet. */
void sv_game_add_default_items(void);
void sv_game_init_players(void);

/* RP, inside CS_SPAWN_PLAYER (begin) or nested inside CS_MOVE_COMMAND (respawn).
 * False if a reliable queue overflowed (the section is cancelled). */
LIBTM_SAFE bool sv_game_spawn_player(int slot);
/* RP, inside CS_SPAWN_PLAYER: a spectator enters, above a spawn point, in nobody's way. */
LIBTM_SAFE void sv_game_spawn_spectator(int slot);
/* RP, inside CS_MOVE_COMMAND: one movement command of a spawned client (a spectator's
 * flies it through walls and touches nothing). False when the command failed: the section
 * is cancelled in the transactional modes, and sv_game_failed says what to do. */
LIBTM_SAFE bool sv_game_run_command(sv_client *cl, const qw_usercmd *cmd);
/* RP, inside CS_MOVE_COMMAND: the "kill" command (suicide). */
LIBTM_SAFE bool sv_game_client_kill(int slot);
/* RP, outside any section: a string command that is none of the engine's
 * (net/client_commands.c), offered to the game. False when the game has no such command (the
 * engine logs it as unknown): neither game has commands of its own yet (id's QuakeWorld
 * progs has no entry for them; mvdsv hands them to a mod's GE_ClientCommand). */
bool sv_game_client_command(sv_client *cl, const sv_args *a);
/* After a section whose game call returned false (outside the section): the C game's only
 * failure is a reliable queue overflowing, and the client is dropped; a QuakeC runtime error
 * is reported (rate-limited) and the client plays on, unless it happened while it entered
 * the game (`entering`). Master or the client's worker. */
void sv_game_failed(sv_client *cl, bool entering);
/* Whether a movement command may fail half way (QuakeC: any runtime error), so that it must
 * run in a cancellable section. */
bool sv_game_commands_may_fail(void);
/* What did the damage (for obituaries). */
typedef enum {
    DMG_SHOTGUN, DMG_AXE, DMG_ROCKET, DMG_TELEFRAG, DMG_SUICIDE, DMG_DROWN, DMG_SLIME,
    DMG_LAVA, DMG_CRUSH
} sv_damage_cause;
/* RP inside a section, or U: damage and its consequences (death, frags, obituaries). */
LIBTM_SAFE bool sv_game_damage(int target, int attacker, int amount, const float from[3],
                               sv_damage_cause cause);

/* Where a movement command of player `slot` may look or write, for -sync region's locks
 * (sync/region.h). Computed before the command runs from what only the command's own thread
 * writes (the player's origin, weapon, ammunition, attack time). cmd NULL: a command that
 * stays in place (suicide). */
void sv_game_command_reach(int slot, const qw_usercmd *cmd, sv_reach *out);

/* -sched lpt (sched/sched.h). The box a job is built from for player `slot`: where `commands`
 * movement commands of `seconds` in all may take it, widened by what a command reaches
 * around the player (84 units: the axe) and some slack. */
void sv_game_action_box(int slot, float seconds, int commands, float mins[3], float maxs[3]);
/* Whether a movement command of player `slot` can run in a job built from mins..maxs:
 * everything it may touch lies inside (a teleporter's far side too: the job joined its
 * arrival box), and it does not respawn the player (the spawn point is chosen looking at
 * every player). Computed before the command runs, from what only its own job writes. */
bool sv_game_command_fits(int slot, const qw_usercmd *cmd, const float mins[3],
                          const float maxs[3]);
/* What a command that goes through this teleporter may touch on the far side in the same
 * command: whoever it telefrags, what its axe hits. */
void sv_game_arrival_box(const sv_entity *teleporter, float mins[3], float maxs[3]);
/* The serial phase: relinks the players that moved or died in jobs, then fires the shotgun
 * shots and rockets the jobs of `threads` workers deferred. */
void sv_game_finish_jobs(int threads);
/* How many shots and rockets wait for it. */
void sv_game_deferred_shots(int threads, int *shots, int *rockets);

/* master only (U or between frames) */
void sv_game_remove_player(int slot);
void sv_game_physics(double dt);
/* Before the map is unloaded for a map change: the players' spawn parms are saved (QuakeC's
 * SetChangeParms), to be handed to PutClientInServer on the next map. */
void sv_game_map_ending(void);

/* S: player stats as sent with svc_updatestat, and the animation frame of player `slot`'s
 * model in svc_playerinfo. */
void sv_game_player_stats(int slot, int stats[QW_MAX_CL_STATS]);
int sv_game_player_frame(int slot);
/* The sign-on's light style i ("m": normal light; QuakeC sets its own). */
const char *sv_game_lightstyle(int i);

/* The C deathmatch's side of the interface (the files of game/). */
LIBTM_SAFE bool sv_cgame_spawn_player(int slot);
LIBTM_SAFE void sv_cgame_spawn_spectator(int slot);
LIBTM_SAFE bool sv_cgame_run_command(sv_client *cl, const qw_usercmd *cmd);
void sv_cgame_command_reach(int slot, const qw_usercmd *cmd, sv_reach *out);
void sv_cgame_action_box(int slot, float seconds, int commands, float mins[3], float maxs[3]);
bool sv_cgame_command_fits(int slot, const qw_usercmd *cmd, const float mins[3],
                           const float maxs[3]);
void sv_cgame_finish_jobs(int threads);
void sv_cgame_deferred_shots(int threads, int *shots, int *rockets);
void sv_cgame_remove_player(int slot);
void sv_cgame_physics(double dt);
void sv_cgame_player_stats(int slot, int stats[QW_MAX_CL_STATS]);
int sv_cgame_player_frame(int slot);

#endif
