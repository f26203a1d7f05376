/* CRC-16/CCITT and the clc_move sequence checksum (see qw_crc.h). */
#include "qw_crc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

uint16_t qw_crc16(const uint8_t *data, size_t len)
{
    uint16_t crc = 0xffff;
    for (size_t i = 0; i < len; i++) {
        crc ^= (uint16_t)(data[i] << 8);
        for (int b = 0; b < 8; b++)
            crc = (crc & 0x8000) ? (uint16_t)((crc << 1) ^ 0x1021) : (uint16_t)(crc << 1);
    }
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
