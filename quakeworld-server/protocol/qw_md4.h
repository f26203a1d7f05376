/* MD4 message digest (RFC 1320), used only for the QuakeWorld map checksums. */
#ifndef QW_MD4_H
#define QW_MD4_H

#include <stddef.h>
#include <stdint.h>

/* Writes the 16-byte MD4 digest of data[0..len) to digest. */
void qw_md4(const uint8_t *data, size_t len, uint8_t digest[16]);

/* The map checksum of one block: the digest's four little-endian 32-bit words XORed. */
uint32_t qw_md4_block_checksum(const uint8_t *data, size_t len);

#endif
