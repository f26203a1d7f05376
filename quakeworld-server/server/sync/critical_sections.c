/* The names of the sections, the table of the -sync modes and the mode in force (see
 * sync/critical_sections.h; the locks themselves are in sync/global_lock.c). */
#include "sync/critical_sections.h"

const char *const sv_cs_names[CS_COUNT] = {
    [CS_MOVE_COMMAND] = "move_command",
    [CS_CLIENT_MESSAGE] = "client_message",
    [CS_BROADCAST] = "broadcast",
    [CS_SPAWN_PLAYER] = "spawn_player",
    [CS_USERINFO] = "userinfo",
    [CS_SCOREBOARD] = "scoreboard",
};

sv_sync_mode sv_sync = SYNC_NONE;

const sv_choice sv_sync_modes[] = {
    {"lock", SYNC_LOCK, "one global lock"},
    {"region", SYNC_REGION, "the areanode region locks"},
    {"stm", SYNC_STM, "transactions"},
    {"stmlock", SYNC_STMLOCK, "transactions under the global lock"},
    {"none", SYNC_NONE, "nothing"},
    {NULL, 0, NULL},
};

const char *sv_sync_name(sv_sync_mode mode)
{
    return sv_choice_name(sv_sync_modes, mode);
}
