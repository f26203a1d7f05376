/* The deathmatch written in C, behind game/game.h's table (sv_cgame, cgame/cgame.c), split as
 * QuakeC splits its game rules: player.c (client.qc: spawning, one command, spectators),
 * weapons.c, combat.c, items.c, liquids.c, triggers.c, targets.c, movers.c with doors.c,
 * plats.c, buttons.c, entities.c, relink.c, think.c (what moves by itself in U), spawn.c (a
 * map's entities by classname). This header is what its files share across the folder and
 * what the tests call; functions marked LIBTM_SAFE run inside critical sections. */
#ifndef SV_CGAME_H
#define SV_CGAME_H

#include "game/game.h"
#include "server.h"
#include "sync/region.h"

extern const struct sv_game sv_cgame;

/* map load (master, single-threaded; cgame/spawn.c calls these) */
void sv_game_spawn_item(int item, const float origin[3]);
/* Brush entities (func_wall, doors, ...) stand still as their submodel; solid or not. */
void sv_game_spawn_brush(int submodel, bool solid);
/* trigger_teleport: an invisible trigger (the submodel's box) sending players to dest. */
void sv_game_spawn_teleport(int submodel, const float dest[3], float yaw);
/* Maps without items (like crateprefab_dm) get one item per spawn point, so players meet. */
void sv_game_add_default_items(void);
bool sv_cgame_spawn_map(char *err, size_t errlen);

/* What did the damage (for obituaries). */
typedef enum {
    DMG_SHOTGUN, DMG_AXE, DMG_ROCKET, DMG_TELEFRAG, DMG_SUICIDE, DMG_DROWN, DMG_SLIME,
    DMG_LAVA, DMG_CRUSH
} sv_damage_cause;
/* RP inside a section, or U: damage and its consequences (death, frags, obituaries). */
LIBTM_SAFE bool sv_game_damage(int target, int attacker, int amount, const float from[3],
                               sv_damage_cause cause);

/* The table's operations (game/game.h says what each does). */
LIBTM_SAFE bool sv_cgame_spawn_player(int slot);
LIBTM_SAFE void sv_cgame_spawn_spectator(int slot);
LIBTM_SAFE bool sv_cgame_run_command(sv_client *cl, const qw_usercmd *cmd);
void sv_cgame_command_reach(int slot, const qw_usercmd *cmd, sv_reach *out);
void sv_cgame_action_box(int slot, float seconds, int commands, float mins[3], float maxs[3]);
void sv_cgame_arrival_box(const sv_entity *teleporter, float mins[3], float maxs[3]);
bool sv_cgame_command_fits(int slot, const qw_usercmd *cmd, const float mins[3],
                           const float maxs[3]);
void sv_cgame_finish_jobs(int threads);
void sv_cgame_deferred_shots(int threads, int *shots, int *rockets);
void sv_cgame_remove_player(int slot);
void sv_cgame_physics(double dt);
void sv_cgame_player_stats(int slot, int stats[QW_MAX_CL_STATS]);
int sv_cgame_player_frame(int slot);

#endif
