/* The server's monotonic clock (see clock.h). */
#include "clock.h"

#include <time.h>

double sv_clock(void)
{
    static struct timespec start;
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    if (start.tv_sec == 0 && start.tv_nsec == 0)
        start = ts;
    return (double)(ts.tv_sec - start.tv_sec) + (ts.tv_nsec - start.tv_nsec) * 1e-9;
}
