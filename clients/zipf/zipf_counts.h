/* Zipf request counts and the seeded page sample behind the URL lists. */
#ifndef ZIPF_COUNTS_H
#define ZIPF_COUNTS_H

#include <stddef.h>
#include <stdint.h>

/* Splits total into counts[0..n-1] proportional to (k+1)^-s (k = rank - 1), rounding by
 * largest remainder so that the counts sum to total exactly. Returns 0, or -1 if s < 0,
 * n == 0 or counts is NULL. */
int zipf_counts(double s, size_t n, unsigned long total, unsigned long *counts);

/* Deterministic Fisher-Yates shuffle of items[0..n-1] (pointers) from seed (splitmix64). */
void zipf_shuffle(void **items, size_t n, uint64_t seed);

#endif
