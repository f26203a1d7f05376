/* The cvars QuakeC reads (qcgame/qcg.h): copied from the engine by the master before each
 * frame (through its services), read by the cvar() builtin in RP. */
#include <stdlib.h>
#include <string.h>

#include "qcgame/qcg.h"

/* The cvars QuakeC reads, with the value they have when the server does not know them
 * (QuakeWorld's own defaults): copied by the master before each frame, read in RP. */
static const struct { const char *name, *fallback; } cvar_names[] = {
    {"deathmatch", "1"}, {"teamplay", "0"}, {"fraglimit", "0"}, {"timelimit", "0"},
    {"samelevel", "0"}, {"noexit", "0"}, {"registered", "1"}, {"temp1", "0"},
    {"skill", "1"}, {"coop", "0"}, {"sv_gravity", "800"}, {"sv_maxspeed", "320"},
    {"sv_aim", "2"}, {"watervis", "0"},
};
#define NUM_CVARS (sizeof cvar_names / sizeof cvar_names[0])
static float cvar_values[NUM_CVARS];

LIBTM_SAFE float qcg_cvar_value(const char *name)
{
    for (size_t i = 0; i < NUM_CVARS; i++)
        if (qcg_streq(cvar_names[i].name, name))
            return cvar_values[i];
    return 0;
}

void qcg_refresh_cvars(void)
{
    for (size_t i = 0; i < NUM_CVARS; i++) {
        const char *name = cvar_names[i].name;
        double value;
        if (!strcmp(name, "sv_gravity"))
            cvar_values[i] = sv.movevars.gravity;
        else if (!strcmp(name, "sv_maxspeed"))
            cvar_values[i] = sv.movevars.maxspeed;
        else if (qcg.services->cvar_get(name, &value))
            cvar_values[i] = (float)value;
        else
            cvar_values[i] = (float)atof(cvar_names[i].fallback);
    }
}
