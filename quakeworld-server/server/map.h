/* Loading the map: BSP + checksums, collision/visibility tables, precache lists, item and
 * spawn point entities from the entity lump, and the sign-on chunks; the serverinfo is built
 * anew for it (admin/cvar.h). */
#ifndef SV_MAP_H
#define SV_MAP_H

#include <stdbool.h>
#include <stddef.h>

/* Loads basedir/id1/maps/<name>.bsp. False with a message naming the file on failure. */
bool sv_map_load(const char *basedir, const char *name, char *err, size_t errlen);
/* Reads and parses BASEDIR/id1/maps/<name>.bsp without touching the running map (a map
 * change checks the new map first). False with a message naming the file. */
bool sv_map_validate(const char *basedir, const char *name, char *err, size_t errlen);
/* Empties the players and prepares every entity's link object (start-up, and with each
 * map unloaded): unlinking leaves a link ready for reuse. */
void sv_map_init_players(void);
/* Frees the running map and clears its entities and players (before loading another). */
void sv_map_unload(void);

#endif
