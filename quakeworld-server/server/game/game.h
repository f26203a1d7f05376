/* The deathmatch game in C, as the engine sees it: players, weapons (axe, shotgun hitscan,
 * rockets with splash damage), items with pickup and respawn, damage, death, frags, respawn,
 * teleporters. Implemented in game/, one file per concern the way QuakeC splits its game
 * rules: player.c (client.qc), weapons.c, combat.c, items.c, triggers.c, entities.c, and
 * think.c for what moves by itself in U.
 * Functions marked LIBTM_SAFE run inside critical sections (see sync/critical_sections.h). */
#ifndef SV_GAME_H
#define SV_GAME_H

#include "server.h"
#include "sync/region.h"

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
 * flies it through walls and touches nothing). */
LIBTM_SAFE bool sv_game_run_command(sv_client *cl, const qw_usercmd *cmd);
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

/* player stats as sent with svc_updatestat */
void sv_game_player_stats(int slot, int stats[QW_MAX_CL_STATS]);

#endif
