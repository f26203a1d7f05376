/* Console variables (cvars), the settings an admin changes with "set NAME VALUE", "NAME
 * VALUE", +set on the command line, server.cfg or rcon: hostname, maxclients, timelimit,
 * fraglimit, rcon_password, sv_gamedir, the map rotation and the rcon rate limit. Cvars
 * marked for the serverinfo appear there under QuakeWorld's keys (sv_gamedir is *gamedir),
 * and a change is sent to the connected clients (svc_serverinfo); the serverinfo they feed is
 * built here, with the admin's keys and the server's own. Master thread only. */
#ifndef SV_ADMIN_CVAR_H
#define SV_ADMIN_CVAR_H

#include <stdbool.h>
#include <stddef.h>

typedef struct sv_cvar {
    const char *name;
    const char *default_value;
    const char *serverinfo_key;       /* NULL: not in the serverinfo */
    bool numeric;                     /* a number from lo to hi */
    bool integer;
    double lo, hi;
    bool secret;                      /* never printed (rcon_password) */
    const char *help;
    char value[256];
} sv_cvar;

/* Sets every cvar to its default (once, before the command line and server.cfg run). */
void sv_cvar_init(void);
sv_cvar *sv_cvar_find(const char *name);
/* Sets a cvar; false with a message (naming the cvar, the accepted values) if the name is
 * unknown or the value out of range. Applies the change (options, serverinfo, clients). */
bool sv_cvar_set(const char *name, const char *value, char *err, size_t errlen);
const char *sv_cvar_string(const char *name);
double sv_cvar_number(const char *name);
/* Calls fn for every cvar, in table order. */
void sv_cvar_each(void (*fn)(const sv_cvar *cv, void *arg), void *arg);
/* "serverinfo KEY VALUE": a cvar's key sets the cvar; another key (an admin's contact, a
 * league name, ...) is added to the serverinfo (empty VALUE removes it); keys starting
 * with '*' belong to the server. False with a message. */
bool sv_cvar_set_serverinfo(const char *key, const char *value, char *err, size_t errlen);
/* Calls fn for each key/value pair of an info string ("\\key\\value..."). */
void sv_info_each(const char *info, void (*fn)(const char *key, const char *value, void *arg),
                  void *arg);
/* The serverinfo keys of the cvars (hostname, maxclients, ...), added to info. */
void sv_cvar_add_serverinfo(char *info, size_t size);
/* Rebuilds sv.serverinfo: the cvars' keys, the admin's own and the server's (map, *version,
 * *sync, ...). At a map load, and after a change of a serverinfo cvar while a map runs. */
void sv_cvar_build_serverinfo(void);

#endif
