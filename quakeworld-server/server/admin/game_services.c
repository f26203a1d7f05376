/* The admin side's services to the game (admin/game_services.h). */
#include "admin/game_services.h"

#include "admin/cvar.h"
#include "admin/interpreter.h"
#include "admin/map_change.h"

static bool cvar_get(const char *name, double *value)
{
    if (!sv_cvar_find(name))
        return false;
    *value = sv_cvar_number(name);
    return true;
}

const struct sv_game_services sv_admin_game_services = {
    .changelevel = sv_mapchange_request,
    .localcmd = sv_cmd_execute,
    .cvar_get = cvar_get,
    .cvar_set = sv_cvar_set,
};
