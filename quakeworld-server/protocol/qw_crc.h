/* CRC-16/CCITT (poly 0x1021, init 0xFFFF, no reflection, no final xor) and the clc_move
 * sequence checksum byte, whose 1024-byte mixing table comes from id's GPL source and lives
 * outside the repository in $(SHARED)/quake/protocol/chktbl.bin. */
#ifndef QW_CRC_H
#define QW_CRC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define QW_CHKTBL_SIZE 1024

uint16_t qw_crc16(const uint8_t *data, size_t len);

/* The table used by qw_sequence_crc_byte. */
typedef struct qw_chktbl {
    uint8_t bytes[QW_CHKTBL_SIZE];
} qw_chktbl;

/* Loads the table from `path` (NULL = the file named by $QW_CHKTBL). The usual place is
 * <quake basedir>/protocol/chktbl.bin, i.e. $(SHARED)/quake/protocol/chktbl.bin. On failure
 * returns false and writes a message naming the file and the fix into err. */
bool qw_chktbl_load(qw_chktbl *tbl, const char *path, char *err, size_t errlen);

/* Checksum byte of a clc_move: `data` = the bytes after the checksum byte (at most 60 count),
 * `sequence` = the netchan sequence of the packet carrying it (>= 0). */
uint8_t qw_sequence_crc_byte(const qw_chktbl *tbl, const uint8_t *data, size_t len,
                             int32_t sequence);

#endif
