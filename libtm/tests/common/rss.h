/* Resident memory of the calling process, in KiB (VmRSS of /proc/self/status), or -1. */
#ifndef TMTEST_RSS_H
#define TMTEST_RSS_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static inline long tmtest_rss_kib(void)
{
    FILE *status = fopen("/proc/self/status", "r");
    if (!status)
        return -1;
    char line[256];
    long kib = -1;
    while (fgets(line, sizeof line, status))
        if (strncmp(line, "VmRSS:", 6) == 0)
            kib = strtol(line + 6, NULL, 10);
    fclose(status);
    return kib;
}

#endif
