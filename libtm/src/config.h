/* The configuration (config.c): the environment and the CPU, read once at start-up. */
#ifndef LIBTM_CONFIG_H
#define LIBTM_CONFIG_H

#include "algo.h"
#include "cm.h"
#include <stdbool.h>

struct tm_config {
    const struct tm_algo *forced; /* LIBTM_ALGO: this algorithm only, no adaptation */
    unsigned retries;             /* restarts before going serial */
    const struct tm_cm *cm;       /* contention manager (contention.h), set at start-up */
    bool cm_hears_ends;           /* ... whether it hears of every transaction's end */
    int verbose;                  /* LIBTM_VERBOSE: 1 start and exit lines, 2 also each
                                   * adaptive round's measurements */
    bool rtm;                     /* the CPU has usable RTM */
    bool htm;                     /* ... and LIBTM_HTM allows it (htm.c) */
    const char *stats_path;
    bool turns;                   /* LIBTM_TURNS: orec's writers may take turns (orec_turns.c) */
};
extern struct tm_config tm_config;
void tm_config_read(void);

#endif
