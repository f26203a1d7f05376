/* QuakeWorld's game in QuakeC: its operations table (game/game.h). */
#include "qcgame/qcgame.h"

#include "cgame/cgame.h"

/* Every QuakeC command runs in the serial phase of -sched lpt (sv_qcgame_command_fits), so
 * nothing waits for the jobs' end. */
static void finish_jobs(int threads)
{
    (void)threads;
}

static void deferred_shots(int threads, int *shots, int *rockets)
{
    (void)threads;
    *shots = *rockets = 0;
}

/* QuakeC's teleporters are edicts, not the server's ENT_TELEPORT entities: never asked. */
static void arrival_box(const sv_entity *teleporter, float mins[3], float maxs[3])
{
    for (int i = 0; i < 3; i++)
        mins[i] = maxs[i] = teleporter->origin[i];
}

const struct sv_game sv_qcgame = {
    .name = "QuakeC",
    .own_messages_and_rotation = true,
    .commands_may_fail = true,
    .spawn_map = sv_qcgame_spawn_map,
    .map_ending = sv_qcgame_map_ending,
    .try_player = sv_qcgame_try_player,
    .spawn_player = sv_qcgame_spawn_player,
    .spawn_spectator = sv_qcgame_spawn_spectator,
    .run_command = sv_qcgame_run_command,
    .client_kill = sv_qcgame_client_kill,
    .failed = sv_qcgame_failed,
    .command_reach = sv_qcgame_command_reach,
    /* both games keep the player's origin and velocity in sv.players (QuakeC: a copy), so
     * the C game's box serves for grouping QuakeC's players into jobs */
    .action_box = sv_cgame_action_box,
    .arrival_box = arrival_box,
    .command_fits = sv_qcgame_command_fits,
    .finish_jobs = finish_jobs,
    .deferred_shots = deferred_shots,
    .remove_player = sv_qcgame_remove_player,
    .physics = sv_qcgame_physics,
    .player_stats = sv_qcgame_player_stats,
    .player_frame = sv_qcgame_player_frame,
    .lightstyle = sv_qcgame_lightstyle,
};
