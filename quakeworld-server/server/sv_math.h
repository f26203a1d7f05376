/* The server's math: the shared vector helpers (world/qw_math.h) and a per-player random
 * generator usable inside transactions. */
#ifndef SV_MATH_H
#define SV_MATH_H

#include <stdint.h>

#include "qw_math.h"

/* xorshift32: per-player state, so no shared generator becomes a conflict hotspot. */
static inline uint32_t sv_random(uint32_t *state)
{
    uint32_t x = *state ? *state : 0x9e3779b9u;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    *state = x;
    return x;
}
/* -1..1 */
static inline float sv_crandom(uint32_t *state)
{
    return (float)(sv_random(state) & 0xffff) / 32767.5f - 1.0f;
}

#endif
