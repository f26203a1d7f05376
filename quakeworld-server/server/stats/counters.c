/* Per-thread counters (see stats/counters.h). */
#include "stats/counters.h"

#include <string.h>

#include "clock.h"
#include "server.h"

static sv_thread_stats stats[SV_MAX_THREADS];
static int nthreads;
static double start_time;

void sv_stats_init(int threads)
{
    nthreads = threads;
    memset(stats, 0, sizeof stats);
    start_time = sv_clock();
}

LIBTM_SAFE sv_thread_stats *sv_stats_thread(void)
{
    return &stats[sv_thread_index];
}

int sv_stats_threads(void)
{
    return nthreads;
}

double sv_stats_start_time(void)
{
    return start_time;
}

const sv_thread_stats *sv_stats_of_thread(int t)
{
    return &stats[t];
}

void sv_stats_sum(uint64_t *packets, uint64_t *commands)
{
    *packets = *commands = 0;
    for (int t = 0; t < nthreads; t++) {
        *packets += stats[t].packets;
        *commands += stats[t].commands;
    }
}
