/* Round-trip samples and nearest-rank percentiles. */
#include "latency.h"

#include <math.h>
#include <stdlib.h>

void qwbot_latency_add(qwbot_latency *l, uint32_t microseconds)
{
    if (l->count == l->capacity) {
        size_t cap = l->capacity ? l->capacity * 2 : 4096;
        uint32_t *p = realloc(l->us, cap * sizeof *p);
        if (!p) {
            l->oom = 1;
            return;
        }
        l->us = p;
        l->capacity = cap;
    }
    l->us[l->count++] = microseconds;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

uint32_t qwbot_latency_percentile(qwbot_latency *l, double p)
{
    if (l->count == 0)
        return 0;
    qsort(l->us, l->count, sizeof *l->us, cmp_u32);
    double rank = ceil(p / 100.0 * (double)l->count);
    size_t idx = rank < 1 ? 0 : (size_t)rank - 1;
    if (idx >= l->count)
        idx = l->count - 1;
    return l->us[idx];
}

double qwbot_latency_mean(const qwbot_latency *l)
{
    if (l->count == 0)
        return 0;
    double sum = 0;
    for (size_t i = 0; i < l->count; i++)
        sum += l->us[i];
    return sum / (double)l->count;
}

void qwbot_latency_free(qwbot_latency *l)
{
    free(l->us);
    l->us = NULL;
    l->count = l->capacity = 0;
}
