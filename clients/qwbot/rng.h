/* A small seeded random generator (splitmix64 seeding, xorshift64*), identical on every
 * platform, so scripted runs with the same -seed send the same commands. */
#ifndef QWBOT_RNG_H
#define QWBOT_RNG_H

#include <stdint.h>

typedef struct qwbot_rng {
    uint64_t state;
} qwbot_rng;

static inline uint64_t qwbot_splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* One independent stream per (seed, bot). */
static inline void qwbot_rng_seed(qwbot_rng *r, uint64_t seed, uint64_t stream)
{
    uint64_t x = seed * 0x100000001B3ull + stream;
    r->state = qwbot_splitmix64(&x);
    if (r->state == 0)
        r->state = 1;
}

static inline uint64_t qwbot_rng_next(qwbot_rng *r)
{
    uint64_t x = r->state;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    r->state = x;
    return x * 0x2545F4914F6CDD1Dull;
}

/* Uniform integer in [lo, hi] (hi - lo small, bias negligible). */
static inline int qwbot_rng_range(qwbot_rng *r, int lo, int hi)
{
    return lo + (int)((qwbot_rng_next(r) >> 33) % (uint64_t)(hi - lo + 1));
}

#endif
