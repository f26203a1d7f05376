/* MD4 (RFC 1320): three rounds of 16 operations over 512-bit blocks, little-endian words. */
#include "qw_md4.h"

#include <string.h>

static uint32_t rotl(uint32_t x, int s) { return (x << s) | (x >> (32 - s)); }
static uint32_t f_sel(uint32_t x, uint32_t y, uint32_t z) { return (x & y) | (~x & z); }
static uint32_t g_maj(uint32_t x, uint32_t y, uint32_t z) { return (x & y) | (x & z) | (y & z); }
static uint32_t h_xor(uint32_t x, uint32_t y, uint32_t z) { return x ^ y ^ z; }

static uint32_t load_le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void store_le32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); p[2] = (uint8_t)(v >> 16); p[3] = (uint8_t)(v >> 24);
}

static void md4_block(uint32_t state[4], const uint8_t block[64])
{
    static const int round2_order[16] = {0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15};
    static const int round3_order[16] = {0, 8, 4, 12, 2, 10, 6, 14, 1, 9, 5, 13, 3, 11, 7, 15};
    static const int shifts[3][4] = {{3, 7, 11, 19}, {3, 5, 9, 13}, {3, 9, 11, 15}};
    uint32_t x[16];
    for (int i = 0; i < 16; i++)
        x[i] = load_le32(block + 4 * i);

    uint32_t r[4] = {state[0], state[1], state[2], state[3]};
    /* Each step updates the registers in the order a, d, c, b (index 0, 3, 2, 1). */
    for (int i = 0; i < 16; i++) {
        int a = (4 - i % 4) % 4, b = (a + 1) % 4, c = (a + 2) % 4, d = (a + 3) % 4;
        r[a] = rotl(r[a] + f_sel(r[b], r[c], r[d]) + x[i], shifts[0][i % 4]);
    }
    for (int i = 0; i < 16; i++) {
        int a = (4 - i % 4) % 4, b = (a + 1) % 4, c = (a + 2) % 4, d = (a + 3) % 4;
        r[a] = rotl(r[a] + g_maj(r[b], r[c], r[d]) + x[round2_order[i]] + 0x5A827999u,
                    shifts[1][i % 4]);
    }
    for (int i = 0; i < 16; i++) {
        int a = (4 - i % 4) % 4, b = (a + 1) % 4, c = (a + 2) % 4, d = (a + 3) % 4;
        r[a] = rotl(r[a] + h_xor(r[b], r[c], r[d]) + x[round3_order[i]] + 0x6ED9EBA1u,
                    shifts[2][i % 4]);
    }
    for (int i = 0; i < 4; i++)
        state[i] += r[i];
}

void qw_md4(const uint8_t *data, size_t len, uint8_t digest[16])
{
    uint32_t state[4] = {0x67452301u, 0xefcdab89u, 0x98badcfeu, 0x10325476u};
    size_t full = len / 64 * 64;
    for (size_t off = 0; off < full; off += 64)
        md4_block(state, data + off);

    /* Padding: 0x80, zeros up to 56 mod 64, then the bit length as 64-bit little-endian. */
    uint8_t tail[128];
    size_t rest = len - full;
    memset(tail, 0, sizeof tail);
    if (rest)
        memcpy(tail, data + full, rest);
    tail[rest] = 0x80;
    size_t tail_len = rest < 56 ? 64 : 128;
    uint64_t bits = (uint64_t)len * 8;
    for (int i = 0; i < 8; i++)
        tail[tail_len - 8 + i] = (uint8_t)(bits >> (8 * i));
    md4_block(state, tail);
    if (tail_len == 128)
        md4_block(state, tail + 64);

    for (int i = 0; i < 4; i++)
        store_le32(digest + 4 * i, state[i]);
}

uint32_t qw_md4_block_checksum(const uint8_t *data, size_t len)
{
    uint8_t digest[16];
    qw_md4(data, len, digest);
    return load_le32(digest) ^ load_le32(digest + 4) ^ load_le32(digest + 8) ^ load_le32(digest + 12);
}
