/* The map checksums (see qw_map_checksum.h). The layout of a BSP29 header is read here only
 * as far as the checksums need it; world/bsp.h describes the whole format. */
#include "qw_map_checksum.h"

#include "qw_md4.h"

#define BSP_VERSION 29
#define NUM_LUMPS 15
/* The lumps left out: entities from both checksums, and from checksum2 the ones a client
 * may rebuild (visibility, nodes, leafs). */
#define LUMP_ENTITIES 0
#define LUMP_VISIBILITY 4
#define LUMP_NODES 5
#define LUMP_LEAFS 10

static int32_t read_i32(const uint8_t *p)
{
    return (int32_t)((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
                     (uint32_t)p[3] << 24);
}

int qw_map_checksums(const uint8_t *file, size_t len, uint32_t *checksum, uint32_t *checksum2)
{
    if (len < 4 + 8 * NUM_LUMPS || read_i32(file) != BSP_VERSION)
        return -1;
    uint32_t sum = 0, sum2 = 0;
    for (int i = 0; i < NUM_LUMPS; i++) {
        int32_t ofs = read_i32(file + 4 + 8 * i), size = read_i32(file + 8 + 8 * i);
        if (ofs < 0 || size < 0 || (uint64_t)ofs + (uint64_t)size > len)
            return -1;
        if (i == LUMP_ENTITIES)
            continue;
        uint32_t block = qw_md4_block_checksum(file + ofs, (size_t)size);
        sum ^= block;
        if (i != LUMP_VISIBILITY && i != LUMP_NODES && i != LUMP_LEAFS)
            sum2 ^= block;
    }
    if (checksum)
        *checksum = sum;
    if (checksum2)
        *checksum2 = sum2;
    return 0;
}
