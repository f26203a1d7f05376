/* Per-thread measurements: frames, packets, commands, time per phase, section entries.
 * The output format is documented at the top of sv_stats.c. */
#ifndef SV_STATS_H
#define SV_STATS_H

#include <stdint.h>
#include <stdio.h>

#include "critical_sections.h"

typedef struct sv_thread_stats {
    uint64_t frames;
    uint64_t packets;          /* sequenced client packets accepted and processed */
    uint64_t commands;         /* movement commands run */
    uint64_t bad_packets;      /* client packets rejected */
    double u_seconds, rp_seconds, s_seconds, wait_seconds;
    double idle_seconds;       /* master: waiting for packets (select) */
    double lock_wait_seconds;  /* waiting for the global lock (lock, stmlock) */
    double jobs_seconds;       /* master: planning the frame's jobs (-sched lpt) */
    double serial_seconds;     /* master: the serial phase (-sched lpt) */
    uint64_t cs_entries[CS_COUNT];
} __attribute__((aligned(64))) sv_thread_stats;

void sv_stats_init(int threads);
sv_thread_stats *sv_stats_thread(void);
/* Prints one line per thread and a totals line for the interval since the last call
 * (label "interval") or since start (label "final"). */
void sv_stats_print(FILE *out, const char *label, double now);
/* Packets and commands processed so far by all threads (master, no worker running). */
void sv_stats_sum(uint64_t *packets, uint64_t *commands);

#endif
