/* The qwsv-stats lines: the per-thread counters (stats/counters.h) with the frame statistics
 * (stats/frame_stats.h), printed every -stats SECONDS and on exit. The output format is
 * documented at the top of stats/print.c. */
#ifndef SV_STATS_PRINT_H
#define SV_STATS_PRINT_H

#include <stdio.h>

/* Master, between frames (workers are parked at a barrier): one line per thread and a
 * totals line for the interval since the last call (label "interval") or since the counters
 * started (label "final"). */
void sv_stats_print(FILE *out, const char *label, double now);

#endif
