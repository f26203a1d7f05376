/* Finding the server's map under -basedir and computing the checksum a client sends in
 * "prespawn" (checksum2 of quakeworld.md, via libqwproto's qw_map_checksums). */
#ifndef QWBOT_MAPFILE_H
#define QWBOT_MAPFILE_H

#include <stddef.h>
#include <stdint.h>

/* Looks for maps/NAME.bsp in DIR, DIR/id1, DIR/qw, then every other subdirectory of DIR.
 * On success returns 0 with the path and checksum2; else -1 with a message in err. */
int qwbot_map_checksum(const char *basedir, const char *map, char *path, size_t pathlen,
                       uint32_t *checksum2, char *err, size_t errlen);

/* The CRC-16 of the game directory's progs/NAME (player.mdl, eyes.mdl) next to the map's
 * maps/ folder, which servers compare with the userinfo keys pmodel/emodel. -1 if absent. */
long qwbot_model_crc(const char *map_path, const char *model);

#endif
