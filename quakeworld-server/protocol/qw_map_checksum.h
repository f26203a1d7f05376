/* The QuakeWorld map checksums of a whole BSP29 file, what a client proves in "prespawn" that
 * it has the server's map: for each lump but the entities, the MD4 digest's four
 * little-endian words XORed; checksum = XOR over those 14 values, checksum2 the same without
 * visibility, nodes and leafs (what clients send). The server, qwbot and the tests' client
 * compute them the same way here. */
#ifndef QW_MAP_CHECKSUM_H
#define QW_MAP_CHECKSUM_H

#include <stddef.h>
#include <stdint.h>

/* Returns 0, or -1 when the file is too short for the header, is not version 29, or a lump
 * lies outside it (the files world/bsp.c's loader refuses for their header). */
int qw_map_checksums(const uint8_t *file, size_t len, uint32_t *checksum, uint32_t *checksum2);

#endif
