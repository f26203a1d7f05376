/* CRC-16/CCITT and the clc_move sequence checksum (see qw_crc.h). */
#include "qw_crc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The CRC-16 of each byte value shifted into the top of the register, made by the compiler:
 * for a 4-bit value the CRC is its carry-less product with the polynomial 0x1021 (nothing to
 * reduce below 16 bits), and a byte is two 4-bit steps. One lookup per byte instead of eight
 * shift/xor steps (the server checks every move with it). */
#define NIBBLE_CRC(i) ((((i) & 1) ? 0x1021 : 0) ^ (((i) & 2) ? 0x2042 : 0) ^ \
                       (((i) & 4) ? 0x4084 : 0) ^ (((i) & 8) ? 0x8108 : 0))
#define BYTE_CRC(b) ((uint16_t)(((NIBBLE_CRC((b) >> 4) << 4) & 0xffff) ^ \
                                NIBBLE_CRC(((NIBBLE_CRC((b) >> 4) >> 12) ^ (b)) & 15)))
#define CRC4(b) BYTE_CRC(b), BYTE_CRC((b) + 1), BYTE_CRC((b) + 2), BYTE_CRC((b) + 3)
#define CRC16(b) CRC4(b), CRC4((b) + 4), CRC4((b) + 8), CRC4((b) + 12)
#define CRC64(b) CRC16(b), CRC16((b) + 16), CRC16((b) + 32), CRC16((b) + 48)
static const uint16_t byte_crc[256] = {CRC64(0), CRC64(64), CRC64(128), CRC64(192)};

uint16_t qw_crc16(const uint8_t *data, size_t len)
{
    uint16_t crc = 0xffff;
    for (size_t i = 0; i < len; i++)
        crc = (uint16_t)(crc << 8) ^ byte_crc[((crc >> 8) ^ data[i]) & 0xff];
    return crc;
}

bool qw_chktbl_load(qw_chktbl *tbl, const char *path, char *err, size_t errlen)
{
    if (!path)
        path = getenv("QW_CHKTBL");
    if (!path || !*path) {
        snprintf(err, errlen, "no sequence checksum table given: pass the path of "
                 "shared/quake/protocol/chktbl.bin or set QW_CHKTBL");
        return false;
    }
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen,
                 "cannot open the sequence checksum table %s (%s): it lives in "
                 "shared/quake/protocol/chktbl.bin; pass its path or set QW_CHKTBL",
                 path, strerror(errno));
        return false;
    }
    size_t got = fread(tbl->bytes, 1, sizeof tbl->bytes, f);
    int extra = fgetc(f);
    fclose(f);
    if (got != sizeof tbl->bytes || extra != EOF) {
        snprintf(err, errlen, "%s is not the 1024-byte sequence checksum table", path);
        return false;
    }
    return true;
}

uint8_t qw_sequence_crc_byte(const qw_chktbl *tbl, const uint8_t *data, size_t len,
                             int32_t sequence)
{
    uint8_t block[64];
    if (sequence < 0)
        sequence = -sequence;   /* never happens on the wire; keeps the index in range */
    const uint8_t *p = tbl->bytes + (sequence % (QW_CHKTBL_SIZE - 4));
    if (len > 60)
        len = 60;
    memcpy(block, data, len);
    block[len] = (uint8_t)((sequence & 0xff) ^ p[0]);
    block[len + 1] = p[1];
    block[len + 2] = (uint8_t)(((sequence >> 8) & 0xff) ^ p[2]);
    block[len + 3] = p[3];
    return (uint8_t)(qw_crc16(block, len + 4) & 0xff);
}
