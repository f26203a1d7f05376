/* Which game runs: the sv_game_* functions of game.h hand each call to QuakeWorld's game in
 * QuakeC (qcgame/) or to the C deathmatch (the other files of game/). */
#include "game/game.h"

#include "log.h"
#include "qcgame/qcgame.h"

bool sv_game_qc;

LIBTM_SAFE bool sv_game_spawn_player(int slot)
{
    return sv_game_qc ? sv_qcgame_spawn_player(slot) : sv_cgame_spawn_player(slot);
}

LIBTM_SAFE void sv_game_spawn_spectator(int slot)
{
    if (sv_game_qc)
        sv_qcgame_spawn_spectator(slot);
    else
        sv_cgame_spawn_spectator(slot);
}

LIBTM_SAFE bool sv_game_run_command(sv_client *cl, const qw_usercmd *cmd)
{
    return sv_game_qc ? sv_qcgame_run_command(cl, cmd) : sv_cgame_run_command(cl, cmd);
}

LIBTM_SAFE bool sv_game_client_kill(int slot)
{
    if (sv_game_qc)
        return sv_qcgame_client_kill(slot);
    return sv_game_damage(slot, slot, 1000, sv.players[slot].origin, DMG_SUICIDE);
}

bool sv_game_client_command(sv_client *cl, const sv_args *a)
{
    (void)cl;
    (void)a;
    return false;
}

void sv_game_failed(sv_client *cl, bool entering)
{
    if (sv_game_qc)
        sv_qcgame_failed(cl, entering);
    else
        sv_client_request_drop(cl, "reliable message overflow");
}

bool sv_game_commands_may_fail(void)
{
    return sv_game_qc;
}

void sv_game_command_reach(int slot, const qw_usercmd *cmd, sv_reach *out)
{
    if (sv_game_qc)
        sv_qcgame_command_reach(slot, cmd, out);
    else
        sv_cgame_command_reach(slot, cmd, out);
}

void sv_game_action_box(int slot, float seconds, int commands, float mins[3], float maxs[3])
{
    /* both games keep the player's origin and velocity in sv.players (qcgame: a copy) */
    sv_cgame_action_box(slot, seconds, commands, mins, maxs);
}

bool sv_game_command_fits(int slot, const qw_usercmd *cmd, const float mins[3],
                          const float maxs[3])
{
    return sv_game_qc ? sv_qcgame_command_fits(slot, cmd, mins, maxs)
                      : sv_cgame_command_fits(slot, cmd, mins, maxs);
}

void sv_game_finish_jobs(int threads)
{
    if (!sv_game_qc)
        sv_cgame_finish_jobs(threads);
}

void sv_game_deferred_shots(int threads, int *shots, int *rockets)
{
    if (sv_game_qc)
        *shots = *rockets = 0;
    else
        sv_cgame_deferred_shots(threads, shots, rockets);
}

void sv_game_remove_player(int slot)
{
    if (sv_game_qc)
        sv_qcgame_remove_player(slot);
    else
        sv_cgame_remove_player(slot);
}

void sv_game_physics(double dt)
{
    if (sv_game_qc)
        sv_qcgame_physics(dt);
    else
        sv_cgame_physics(dt);
}

void sv_game_map_ending(void)
{
    if (sv_game_qc)
        sv_qcgame_map_ending();
}

void sv_game_player_stats(int slot, int stats[QW_MAX_CL_STATS])
{
    if (sv_game_qc)
        sv_qcgame_player_stats(slot, stats);
    else
        sv_cgame_player_stats(slot, stats);
}

int sv_game_player_frame(int slot)
{
    return sv_game_qc ? sv_qcgame_player_frame(slot) : sv_cgame_player_frame(slot);
}

const char *sv_game_lightstyle(int i)
{
    if (sv_game_qc)
        return sv_qcgame_lightstyle(i);
    return i == 0 ? "m" : "";
}
