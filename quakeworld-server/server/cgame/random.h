/* A per-player random generator usable inside transactions (the shotgun's spread). */
#ifndef SV_CGAME_RANDOM_H
#define SV_CGAME_RANDOM_H

#include <stdint.h>

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
