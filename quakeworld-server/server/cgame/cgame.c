/* The C deathmatch's operations table (game/game.h). */
#include "cgame/cgame.h"

LIBTM_SAFE static bool client_kill(int slot)
{
    return sv_game_damage(slot, slot, 1000, sv.players[slot].origin, DMG_SUICIDE);
}

/* Its only failure is a reliable queue overflowing. */
static void failed(sv_client *cl, bool entering)
{
    (void)entering;
    sv_client_request_drop(cl, "reliable message overflow");
}

static const char *lightstyle(int i)
{
    return i == 0 ? "m" : "";
}

const struct sv_game sv_cgame = {
    .name = "C deathmatch",
    .spawn_map = sv_cgame_spawn_map,
    .spawn_player = sv_cgame_spawn_player,
    .spawn_spectator = sv_cgame_spawn_spectator,
    .run_command = sv_cgame_run_command,
    .client_kill = client_kill,
    .failed = failed,
    .command_reach = sv_cgame_command_reach,
    .action_box = sv_cgame_action_box,
    .arrival_box = sv_cgame_arrival_box,
    .command_fits = sv_cgame_command_fits,
    .finish_jobs = sv_cgame_finish_jobs,
    .deferred_shots = sv_cgame_deferred_shots,
    .remove_player = sv_cgame_remove_player,
    .physics = sv_cgame_physics,
    .player_stats = sv_cgame_player_stats,
    .player_frame = sv_cgame_player_frame,
    .lightstyle = lightstyle,
};
