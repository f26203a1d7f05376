/* Measurements of each frame's request phase, for both -sched modes: the jobs and their
 * weights (-sched static: a worker's clients with packets are its one job), the share of RP
 * during which every worker was busy, the messages (client packets) and commands, and what
 * the jobs deferred to the serial phase. Summed into the qwsv-stats lines
 * (stats/print.c), and with -framecsv written as one CSV row per frame that processed a
 * packet. */
#ifndef SV_STATS_FRAME_STATS_H
#define SV_STATS_FRAME_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* -framecsv FILE (at start-up): false with the reason in err. */
bool sv_frame_stats_open_csv(const char *path, char *err, size_t errlen);
/* Each worker, at the end of its RP: when it started and finished (sv_clock). */
void sv_frame_stats_rp(int worker, double start, double finish);
/* Master, after the frame's last barrier (no worker runs): adds the frame, with its jobs
 * and what they deferred as the scheduler tells (sched/sched.h). */
void sv_frame_stats_end(void);
/* The keys of the frame statistics for a qwsv-stats line, since the last interval line or
 * (final) since the start; an interval line starts a new interval. */
void sv_frame_stats_print(FILE *out, bool final);

#endif
