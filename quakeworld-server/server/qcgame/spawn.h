/* The map's entities spawned by QuakeC, and the sign-on they write (qcgame/spawn.c). */
#ifndef SV_QCGAME_SPAWN_H
#define SV_QCGAME_SPAWN_H

#include <stddef.h>
#include <stdint.h>

#include <libtm.h>

/* While the map spawns (QuakeC's MSG_INIT, makestatic, ambientsound): appends to the
 * sign-on. */
LIBTM_SAFE void qcg_signon_write(const void *data, size_t len);

#endif
