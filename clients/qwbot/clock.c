/* The monotonic clock all timing in qwbot uses (see run.h). */
#include <time.h>

#include "run.h"

double qwbot_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}
