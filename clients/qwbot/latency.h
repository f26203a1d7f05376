/* Round-trip samples (microseconds) and their percentiles. */
#ifndef QWBOT_LATENCY_H
#define QWBOT_LATENCY_H

#include <stddef.h>
#include <stdint.h>

typedef struct qwbot_latency {
    uint32_t *us;
    size_t count, capacity;
    int oom;                 /* a sample was dropped for lack of memory */
} qwbot_latency;

void qwbot_latency_add(qwbot_latency *l, uint32_t microseconds);
/* Sorts the samples (once) and returns the p-th percentile (0..100, nearest rank); 0 if none. */
uint32_t qwbot_latency_percentile(qwbot_latency *l, double p);
double qwbot_latency_mean(const qwbot_latency *l);
void qwbot_latency_free(qwbot_latency *l);

#endif
