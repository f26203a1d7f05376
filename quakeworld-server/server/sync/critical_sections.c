/* The names of the sections and of the -sync modes, and the mode in force (see
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

const char *sv_sync_name(sv_sync_mode mode)
{
    switch (mode) {
    case SYNC_LOCK: return "lock";
    case SYNC_STM: return "stm";
    case SYNC_STMLOCK: return "stmlock";
    case SYNC_REGION: return "region";
    default: return "none";
    }
}
