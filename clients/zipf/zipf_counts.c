/* See zipf_counts.h. */
#include "zipf_counts.h"

#include <math.h>
#include <stdlib.h>

typedef struct {
    size_t rank;
    double remainder;
} remainder_t;

static int by_remainder_desc(const void *a, const void *b)
{
    const remainder_t *x = a, *y = b;
    if (x->remainder != y->remainder)
        return x->remainder < y->remainder ? 1 : -1;
    return x->rank < y->rank ? -1 : (x->rank > y->rank); /* ties: better rank first */
}

int zipf_counts(double s, size_t n, unsigned long total, unsigned long *counts)
{
    if (s < 0 || n == 0 || !counts)
        return -1;
    double harmonic = 0;
    for (size_t k = 1; k <= n; k++)
        harmonic += pow((double)k, -s);
    remainder_t *remainders = malloc(n * sizeof(*remainders));
    if (!remainders)
        return -1;
    unsigned long assigned = 0;
    for (size_t k = 0; k < n; k++) {
        double exact = (double)total * pow((double)(k + 1), -s) / harmonic;
        counts[k] = (unsigned long)floor(exact);
        assigned += counts[k];
        remainders[k].rank = k;
        remainders[k].remainder = exact - floor(exact);
    }
    qsort(remainders, n, sizeof(*remainders), by_remainder_desc);
    for (size_t i = 0; assigned < total && i < n; i++, assigned++)
        counts[remainders[i].rank]++;
    free(remainders);
    return 0;
}

static uint64_t splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

void zipf_shuffle(void **items, size_t n, uint64_t seed)
{
    uint64_t state = seed;
    for (size_t i = n; i > 1; i--) {
        size_t j = (size_t)(splitmix64(&state) % i);
        void *tmp = items[i - 1];
        items[i - 1] = items[j];
        items[j] = tmp;
    }
}
