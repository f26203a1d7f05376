/* What a server admin drives (cvars, server.cfg, the command line's +commands, the stdin
 * console, rcon, map changes): started once, then run by the master once per frame. */
#ifndef SV_ADMIN_H
#define SV_ADMIN_H

#include <stdbool.h>
#include <stddef.h>

/* Opens -logfile, runs server.cfg (bad lines are reported and skipped) and then the command
 * line's commands (an error there stops the start), loads the first map and starts the
 * stdin console. False with a message. */
bool sv_admin_start(char *err, size_t errlen);
/* U, master (workers parked): console lines typed since the last frame, then the match
 * limits and a pending map change. */
void sv_admin_frame(void);

#endif
