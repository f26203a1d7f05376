/* Changing the map: on request (the "map" command) or when the match ends at the time or
 * frag limit (cvars timelimit, fraglimit), then to the next map of the rotation (cvar
 * sv_maplist). Connected clients are sent "changing" and "reconnect", as QuakeWorld servers
 * do: they sign on to the new map on their open connection. Master thread only. */
#ifndef SV_ADMIN_MAP_CHANGE_H
#define SV_ADMIN_MAP_CHANGE_H

#include <stdbool.h>
#include <stddef.h>

/* Checks the map (file, BSP) and schedules the change for the next frame's U (or, before
 * the first map is loaded, makes it the first map). False with a message. */
bool sv_mapchange_request(const char *name, char *err, size_t errlen);
/* The map scheduled to load next ("" if none). */
const char *sv_mapchange_pending(void);
/* Start-up: loads the scheduled map. */
bool sv_mapchange_load_first(char *err, size_t errlen);
/* U (master, workers parked): ends the match at a limit, then changes the map if one is
 * scheduled. */
void sv_mapchange_frame(void);
/* Seconds since the current map was loaded. */
double sv_mapchange_map_seconds(void);
/* The map after `current` in the rotation list (current itself when the list is empty). */
void sv_mapchange_next_in_rotation(const char *list, const char *current, char *out,
                                   size_t size);

#endif
