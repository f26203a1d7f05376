/* Per-frame statistics (see stats/frame_stats.h).
 *
 * "All workers busy" is the part of RP between the moment the last worker started and the
 * moment the first one finished (its work; then it waits at the barrier): from then on some
 * worker idles. A frame's RP lasts from the first start to the last finish. It depends on the
 * assignment and on how long the barrier takes to get every worker running (start_skew: from
 * the first worker's start to the last one's); the work balance leaves the latter out: the
 * shortest worker's RP over the longest one's, as if all had started together. Frames without
 * a packet (idle waits, U only) are not counted: they would dilute every average. CSV columns:
 *   frame,time_s,sched,sync,threads,jobs,clients,weight_max,weight_mean,packets,commands,
 *   rp_ms,all_busy_ms,start_skew_ms,work_min_ms,work_max_ms,deferred_clients,deferred_shots,
 *   deferred_rockets */
#include "stats/frame_stats.h"

#include <errno.h>
#include <string.h>

#include "clock.h"
#include "sched/sched.h"
#include "server.h"
#include "stats/counters.h"

typedef struct frame_totals {
    uint64_t frames;                   /* frames that processed a packet */
    uint64_t jobs, clients, packets, commands;
    uint64_t deferred_clients, deferred_shots, deferred_rockets;
    double weight_max, weight_mean;    /* sums over the frames */
    double rp_seconds, all_busy_seconds, start_skew_seconds;
    double work_min_seconds, work_max_seconds;
} frame_totals;

static frame_totals totals, at_last_print;
static struct {
    double start[SV_MAX_THREADS], finish[SV_MAX_THREADS];
} frame;
static uint64_t packets_before, commands_before;
static FILE *csv;

bool sv_frame_stats_open_csv(const char *path, char *err, size_t errlen)
{
    csv = fopen(path, "w");
    if (!csv) {
        snprintf(err, errlen, "-framecsv %s: cannot write it: %s", path, strerror(errno));
        return false;
    }
    setvbuf(csv, NULL, _IOFBF, 1 << 16);
    fprintf(csv, "frame,time_s,sched,sync,threads,jobs,clients,weight_max,weight_mean,packets,"
                 "commands,rp_ms,all_busy_ms,start_skew_ms,work_min_ms,work_max_ms,"
                 "deferred_clients,deferred_shots,"
                 "deferred_rockets\n");
    return true;
}

void sv_frame_stats_rp(int worker, double start, double finish)
{
    frame.start[worker] = start;
    frame.finish[worker] = finish;
}

void sv_frame_stats_end(void)
{
    uint64_t packets, commands;
    sv_stats_sum(&packets, &commands);
    uint64_t frame_packets = packets - packets_before, frame_commands = commands - commands_before;
    packets_before = packets;
    commands_before = commands;
    if (frame_packets == 0)
        return;
    double first_start = frame.start[0], last_start = frame.start[0];
    double first_finish = frame.finish[0], last_finish = frame.finish[0];
    double work_min = frame.finish[0] - frame.start[0], work_max = work_min;
    for (int t = 1; t < sv.opt.threads; t++) {
        double work = frame.finish[t] - frame.start[t];
        first_start = frame.start[t] < first_start ? frame.start[t] : first_start;
        last_start = frame.start[t] > last_start ? frame.start[t] : last_start;
        first_finish = frame.finish[t] < first_finish ? frame.finish[t] : first_finish;
        last_finish = frame.finish[t] > last_finish ? frame.finish[t] : last_finish;
        work_min = work < work_min ? work : work_min;
        work_max = work > work_max ? work : work_max;
    }
    double rp = last_finish - first_start;
    double all_busy = first_finish > last_start ? first_finish - last_start : 0;
    int jobs, job_clients, clients, shots, rockets;
    double weight_max, weight_sum;
    sv_sched_frame_jobs(&jobs, &job_clients, &weight_max, &weight_sum);
    sv_sched_deferred(&clients, &shots, &rockets);

    totals.frames++;
    totals.jobs += (uint64_t)jobs;
    totals.clients += (uint64_t)job_clients;
    totals.packets += frame_packets;
    totals.commands += frame_commands;
    totals.deferred_clients += (uint64_t)clients;
    totals.deferred_shots += (uint64_t)shots;
    totals.deferred_rockets += (uint64_t)rockets;
    double weight_mean = jobs ? weight_sum / jobs : 0;
    totals.weight_max += weight_max;
    totals.weight_mean += weight_mean;
    totals.rp_seconds += rp;
    totals.all_busy_seconds += all_busy;
    totals.start_skew_seconds += last_start - first_start;
    totals.work_min_seconds += work_min;
    totals.work_max_seconds += work_max;
    if (csv)
        fprintf(csv, "%u,%.6f,%s,%s,%d,%d,%d,%.3f,%.3f,%llu,%llu,%.4f,%.4f,%.4f,%.4f,%.4f,%d,%d,%d\n",
                sv.framenum, sv_clock(), sv_sched_name(sv_sched), sv_sync_name(sv_sync),
                sv.opt.threads, jobs, job_clients, weight_max, weight_mean,
                (unsigned long long)frame_packets, (unsigned long long)frame_commands, rp * 1e3,
                all_busy * 1e3, (last_start - first_start) * 1e3, work_min * 1e3, work_max * 1e3,
                clients, shots, rockets);
}

void sv_frame_stats_print(FILE *out, bool final)
{
    frame_totals d = totals;
    if (!final) {
        const frame_totals *b = &at_last_print;
        d.frames -= b->frames;
        d.jobs -= b->jobs;
        d.clients -= b->clients;
        d.packets -= b->packets;
        d.commands -= b->commands;
        d.deferred_clients -= b->deferred_clients;
        d.deferred_shots -= b->deferred_shots;
        d.deferred_rockets -= b->deferred_rockets;
        d.weight_max -= b->weight_max;
        d.weight_mean -= b->weight_mean;
        d.rp_seconds -= b->rp_seconds;
        d.all_busy_seconds -= b->all_busy_seconds;
        d.start_skew_seconds -= b->start_skew_seconds;
        d.work_min_seconds -= b->work_min_seconds;
        d.work_max_seconds -= b->work_max_seconds;
        at_last_print = totals;
    }
    double n = d.frames ? (double)d.frames : 1;
    fprintf(out,
            " busy_frames=%llu jobs_per_frame=%.2f clients_per_frame=%.2f weight=%s "
            "weight_max=%.2f weight_mean=%.2f msgs_per_frame=%.2f all_busy_share=%.3f "
            "rp_span_ms=%.3f start_skew_ms=%.3f work_balance=%.3f deferred_clients=%llu "
            "deferred_shots=%llu deferred_rockets=%llu",
            (unsigned long long)d.frames, d.jobs / n, d.clients / n, sv_sched_weight_name(),
            d.weight_max / n, d.weight_mean / n, d.packets / n,
            d.rp_seconds > 0 ? d.all_busy_seconds / d.rp_seconds : 0, d.rp_seconds * 1e3,
            d.start_skew_seconds * 1e3,
            d.work_max_seconds > 0 ? d.work_min_seconds / d.work_max_seconds : 0,
            (unsigned long long)d.deferred_clients, (unsigned long long)d.deferred_shots,
            (unsigned long long)d.deferred_rockets);
    if (csv)
        fflush(csv);
}
