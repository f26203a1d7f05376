/* Per-thread pseudo-random numbers (xorshift64*): cheap, no shared state, reproducible by seed. */
#ifndef BENCH_RNG_H
#define BENCH_RNG_H

#include <stdint.h>

/* Spreads (seed, stream) so that neighbouring thread ids get unrelated, non-zero states. */
static inline uint64_t rng_seed(uint64_t seed, uint64_t stream)
{
    uint64_t z = seed * 0x9E3779B97F4A7C15ull + stream + 0x632BE59BD9B4E019ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return z ? z : 0x2545F4914F6CDD1Dull;
}

static inline uint64_t rng_next(uint64_t *state)
{
    uint64_t x = *state;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *state = x;
    return x * 0x2545F4914F6CDD1Dull;
}

/* Uniform in [0, bound) without division (bound > 0). */
static inline uint64_t rng_below(uint64_t *state, uint64_t bound)
{
    return (uint64_t)(((unsigned __int128)rng_next(state) * bound) >> 64);
}

#endif
