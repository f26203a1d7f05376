/* The game, as the engine sees it: one operations table for two games, chosen once at
 * start-up (as libtm's struct tm_algo is): QuakeWorld's own game in QuakeC (qcgame/:
 * qwprogs.dat run by the interpreter in progs/) when a progs file is found (qcgame/qcgame.h
 * says where it looks), else the deathmatch written in C (cgame/). The engine calls
 * sv_game->OP(...) and never asks which game runs; a game reaches the engine's admin side
 * (map changes, console commands, cvars) only through the services table below, which admin
 * fills in. This folder holds only this interface.
 * Operations marked SV_GAME_SAFE run inside critical sections (see
 * sync/critical_sections.h): their pointers are transaction_safe, so a transaction calls the
 * game's transactional clone. */
#ifndef SV_GAME_H
#define SV_GAME_H

#include <stdbool.h>
#include <stddef.h>

#include "net/tokenize.h"
#include "server.h"
#include "sync/region.h"

/* A transaction_safe pointer, as the functions it points to are (LIBTM_SAFE: also in the
 * builds without -fgnu-tm, where the attribute only types them). */
#define SV_GAME_SAFE LIBTM_SAFE

struct sv_game {
    const char *name; /* for the log: "QuakeC", "C deathmatch" */
    /* QuakeC says itself who entered and who left (ClientConnect, ClientDisconnect) and keeps
     * its own limits, intermission and rotation (changelevel); for the C game the engine
     * does (net/, admin/map_change.c). */
    bool own_messages_and_rotation;
    /* Whether a movement command may fail half way (QuakeC: any runtime error), so that it
     * must run in a cancellable section. */
    bool commands_may_fail;

    /* Map load (master, single-threaded), after the BSP, PVS and area are ready: precache
     * lists, the map's entities, baselines and the sign-on. False with err set. */
    bool (*spawn_map)(char *err, size_t errlen);
    /* Before the map is unloaded for a map change: what the players keep into the next map
     * (QuakeC's SetChangeParms). NULL: nothing. */
    void (*map_ending)(void);
    /* After spawn_map (master): whether a player can enter the map -- one is tried on a free
     * slot and removed --; false with err naming the call and the QuakeC error, and
     * admin/map_change.c refuses the map. NULL: every map can be entered (the C game). */
    bool (*try_player)(char *err, size_t errlen);

    /* RP, inside CS_SPAWN_PLAYER (begin; the C game's respawn also nested inside
     * CS_MOVE_COMMAND). False when it failed (a reliable queue overflowed, a QuakeC error):
     * the section is cancelled, and `failed` says what to do. */
    bool (*spawn_player)(int slot) SV_GAME_SAFE;
    /* RP, inside CS_SPAWN_PLAYER: a spectator enters, above a spawn point, in nobody's way. */
    void (*spawn_spectator)(int slot) SV_GAME_SAFE;
    /* RP, inside CS_MOVE_COMMAND: one movement command of a spawned client (a spectator's
     * flies it through walls and touches nothing). False when the command failed. */
    bool (*run_command)(sv_client *cl, const qw_usercmd *cmd) SV_GAME_SAFE;
    /* RP, inside CS_MOVE_COMMAND: the "kill" command (suicide). */
    bool (*client_kill)(int slot) SV_GAME_SAFE;
    /* RP, outside any section: a string command that is none of the engine's
     * (net/client_commands.c). False when the game has no such command (the engine logs it
     * as unknown); NULL: the game has no commands of its own (neither has yet: id's
     * QuakeWorld progs has no entry for them; mvdsv hands them to a mod's GE_ClientCommand). */
    bool (*client_command)(sv_client *cl, const sv_args *a);
    /* After a section whose game call returned false (outside the section): the C game's
     * only failure is a reliable queue overflowing, and the client is dropped; a QuakeC
     * runtime error is reported (rate-limited) and the client plays on, unless it happened
     * while it entered the game (`entering`). Master or the client's worker. */
    void (*failed)(sv_client *cl, bool entering);

    /* Where a movement command of player `slot` may look or write, for -sync region's locks
     * (sync/region.h), from what only the command's own thread writes. cmd NULL: a command
     * that stays in place (suicide). QuakeC reaches any entity: every leaf. */
    void (*command_reach)(int slot, const qw_usercmd *cmd, sv_reach *out);
    /* -sched lpt (sched/sched.h). The box a job is built from for player `slot`: where
     * `commands` movement commands of `seconds` in all may take it, widened by what a
     * command reaches around the player and some slack. */
    void (*action_box)(int slot, float seconds, int commands, float mins[3], float maxs[3]);
    /* What a command that goes through this teleporter may touch on the far side in the
     * same command (whoever it telefrags, what its axe hits). */
    void (*arrival_box)(const sv_entity *teleporter, float mins[3], float maxs[3]);
    /* Whether a movement command of player `slot` can run in a job built from mins..maxs:
     * everything it may touch lies inside, and it does not respawn the player. Computed
     * before the command runs, from what only its own job writes. */
    bool (*command_fits)(int slot, const qw_usercmd *cmd, const float mins[3],
                         const float maxs[3]);
    /* The serial phase: relinks the players that moved or died in jobs, then runs the work
     * the jobs of `threads` workers deferred; and how many shots and rockets wait for it. */
    void (*finish_jobs)(int threads);
    void (*deferred_shots)(int threads, int *shots, int *rockets);

    /* Master only (U or between frames). */
    void (*remove_player)(int slot);
    void (*physics)(double dt);

    /* S: player stats as sent with svc_updatestat, and the animation frame of player
     * `slot`'s model in svc_playerinfo. */
    void (*player_stats)(int slot, int stats[QW_MAX_CL_STATS]);
    int (*player_frame)(int slot);
    /* The sign-on's light style i ("m": normal light; QuakeC sets its own). */
    const char *(*lightstyle)(int i);
};

/* The game that runs: the C game until start-up chose QuakeC (main.c). */
extern const struct sv_game *sv_game;

/* What a game may ask of the engine's admin side, filled in by admin (admin/admin.c) and
 * handed to the game when it is chosen. Master only, outside the sections (QuakeC's requests
 * run at the start of U). */
struct sv_game_services {
    /* A map change at the end of this frame; false with err set (no such map). */
    bool (*changelevel)(const char *map, char *err, size_t errlen);
    /* Console commands, as server.cfg's are run; `where` names them in error messages. */
    bool (*localcmd)(const char *text, const char *where);
    /* A cvar's value; false when there is no such cvar. */
    bool (*cvar_get)(const char *name, double *value);
    bool (*cvar_set)(const char *name, const char *value, char *err, size_t errlen);
};

#endif
