/* The qwsv-stats lines (see stats/print.h), printed every -stats SECONDS and on exit.
 *
 * FORMAT (stable, parsed by the benchmark scripts): one line per thread, then one totals line,
 * each a fixed word "qwsv-stats" followed by space-separated key=value pairs:
 *
 *   qwsv-stats scope=interval|final thread=<index>|all sync=<mode> sched=<static|lpt>
 *     threads=<N>
 *     seconds=<wall seconds covered> frames=<n> fps=<frames/s>
 *     packets=<client packets processed> packets_per_s=<rate>
 *     commands=<movement commands run> bad_packets=<rejected client packets>
 *     u_ms=<ms in phase U> rp_ms=<ms in RP> s_ms=<ms in S> wait_ms=<ms waiting at barriers>
 *     idle_ms=<ms the master waited for packets (0 for workers)>
 *     lock_wait_ms=<ms spent waiting for the global lock (lock and stmlock modes) or the
 *     region locks, in any phase>
 *     (wait_ms: at the serial barrier -- workers: through the master's receive + U; master:
 *     for the workers' end of S -- and between RP and S)
 *     total_ms=<the thread's time line: the sum of idle_ms, u_ms, serial_ms, jobs_ms, rp_ms,
 *     s_ms, wait_serial_ms, wait_rp_ms and other_ms, each moment in one of them>
 *     other_ms=<between the phases: frame bookkeeping, these lines>
 *     thread_cpu_ms=<the thread's CPU time (user + system) over the line's time: its
 *     total_ms less what it spent asleep or waiting for a core; the final line's covers
 *     the whole run, start-up included>
 *     wait_serial_ms= wait_rp_ms=<wait_ms by barrier>
 *     wait_serial_spin_ms= wait_serial_sleep_ms=<of wait_serial_ms, spinning (sched_yield
 *     after the first microsecond) and asleep on the futex; the rest is the barrier's own
 *     code> wait_rp_spin_ms= wait_rp_sleep_ms=<the same between RP and S>
 *     wait_sleeps=<waits that ended asleep>
 *     cmd_ms=<of rp_ms, the move commands' attempts that finished: useful command work>
 *     cmd_entry_ms=<before a command's first attempt: the global lock, libtm's begin and
 *     serial turns> cmd_lock_wait_ms=<of it, the lock's wait>
 *     cmd_aborted_ms=<attempts that restarted> cmd_restarts=<restarts>
 *     cmd_serial_ms=<of cmd_ms, the commands that ran in libtm's serial turns (its policy
 *     running one transaction at a time, or irrevocable)> cmd_serial=<how many>
 *     rp_handovers=<RP: times a worker found another thread running commands alone (the
 *     global lock; libtm's serial turn) and left it the frame's remaining clients
 *     (sched/sched.c)>
 *     replay_ms=<the virtual clients' own side of the packets (-replay; in s_ms, and the
 *     master's in idle_ms)> idle_replay_ms=<of it, the master's in idle_ms>
 *     cs_<section>=<entries> for every section in sync/critical_sections.h
 *     jobs_ms=<ms planning jobs (master, -sched lpt)> serial_ms=<ms in the serial phase>
 *     rockets=<rockets launched> rocket_kills=<players killed by a rocket, their own too>
 *     telefrags=<players telefragged, at a spawn point or by a teleporter>
 *     kills=<frags gained> deaths=<players who died> pickups=<items taken> (stats/game_work.h)
 *     qc_errors=<QuakeC runtime errors, reported or not (0 with the C game)>
 *     replayed_replies=<replies built for -replay's virtual clients, counted, not sent>
 *     replayed_bytes=<their bytes>
 *   and on the totals line only: cpu_ms=<the process's user + system CPU time>,
 *     tm_commits= tm_aborts= tm_conflict_aborts= tm_serial=<libtm's counters of the whole
 *     process (libtm_totals_read; absent on another runtime): transactions committed, rolled
 *     back, of those by conflicts, and run exclusively (serial turns, irrevocable)>, over the
 *   frames that processed a packet (stats/frame_stats.h):
 *     busy_frames=<n> jobs_per_frame= clients_per_frame= weight=clients|cost_us
 *     weight_max=<mean of each frame's heaviest job> weight_mean=<mean job weight>
 *     msgs_per_frame=<packets per frame> all_busy_share=<share of RP with every worker busy>
 *     rp_span_ms=<RP, first start to last finish, summed> start_skew_ms=<first start to
 *     last start, summed> work_balance=<the shortest worker's RP over the longest one's>
 *     deferred_clients= deferred_shots= deferred_rockets=<what jobs left to the serial phase>
 *
 * Times are totals over the covered seconds (per thread; the totals line sums them, and its
 * frames/fps are the master's). Thread 0 is the master (it also serves its own clients).
 * "interval" lines cover the time since the previous print; "final" lines cover the whole run. */
#include "stats/print.h"

#include <stdbool.h>
#include <string.h>

#include "sched/sched.h"
#include "server.h"
#include "stats/counters.h"
#include "stats/frame_stats.h"

/* the counters at the last interval line, and when it was printed */
static sv_thread_stats last[SV_MAX_THREADS];
static double last_time;
/* the start of the counters that `last` belongs to (sv_stats_init starts them anew) */
static double counters_start;
/* the process's CPU time then, and at the last interval line */
static double cpu_start_ms, cpu_last_ms;
/* libtm's counters then */
static struct libtm_totals tm_start, tm_last;
/* each thread's CPU time at the last interval line */
static double thread_cpu_last[SV_MAX_THREADS];

static void print_line(FILE *out, const char *label, const char *thread, double secs,
                       const sv_thread_stats *d, uint64_t frames, double cpu_ms,
                       double thread_cpu_ms, const struct libtm_totals *tm)
{
    double tick_ms = sv_stats_tick_seconds() * 1e3;
#define MS(ticks) ((double)(ticks) * tick_ms)
    fprintf(out,
            "qwsv-stats scope=%s thread=%s sync=%s sched=%s threads=%d seconds=%.3f frames=%llu "
            "fps=%.1f packets=%llu packets_per_s=%.1f commands=%llu bad_packets=%llu "
            "u_ms=%.3f rp_ms=%.3f s_ms=%.3f wait_ms=%.3f idle_ms=%.3f lock_wait_ms=%.3f",
            label, thread, sv_sync_name(sv_sync), sv_sched_name(sv_sched), sv_stats_threads(),
            secs, (unsigned long long)frames,
            secs > 0 ? frames / secs : 0.0, (unsigned long long)d->packets,
            secs > 0 ? d->packets / secs : 0.0, (unsigned long long)d->commands,
            (unsigned long long)d->bad_packets, MS(d->u_ticks), MS(d->rp_ticks), MS(d->s_ticks),
            MS(d->wait_serial_ticks + d->wait_rp_ticks), MS(d->idle_ticks),
            MS(d->lock_wait_ticks));
    fprintf(out, " total_ms=%.3f other_ms=%.3f wait_serial_ms=%.3f wait_rp_ms=%.3f"
            " thread_cpu_ms=%.3f", MS(sv_stats_total_ticks(d)), MS(d->other_ticks),
            MS(d->wait_serial_ticks), MS(d->wait_rp_ticks), thread_cpu_ms);
    fprintf(out, " wait_serial_spin_ms=%.3f wait_serial_sleep_ms=%.3f wait_rp_spin_ms=%.3f"
            " wait_rp_sleep_ms=%.3f wait_sleeps=%llu cmd_ms=%.3f cmd_entry_ms=%.3f"
            " cmd_lock_wait_ms=%.3f cmd_aborted_ms=%.3f cmd_restarts=%llu cmd_serial_ms=%.3f"
            " cmd_serial=%llu rp_handovers=%llu replay_ms=%.3f idle_replay_ms=%.3f",
            d->wait_serial_spin_seconds * 1e3, d->wait_serial_sleep_seconds * 1e3,
            d->wait_rp_spin_seconds * 1e3, d->wait_rp_sleep_seconds * 1e3,
            (unsigned long long)d->wait_sleeps, MS(d->cmd_ticks), MS(d->cmd_entry_ticks),
            MS(d->cmd_lock_wait_ticks), MS(d->cmd_aborted_ticks),
            (unsigned long long)d->cmd_restarts, MS(d->cmd_serial_ticks),
            (unsigned long long)d->cmd_serial, (unsigned long long)d->rp_handovers,
            MS(d->replay_ticks), MS(d->idle_replay_ticks));
    for (int c = 0; c < CS_COUNT; c++)
        fprintf(out, " cs_%s=%llu", sv_cs_names[c], (unsigned long long)d->cs_entries[c]);
    fprintf(out, " jobs_ms=%.3f serial_ms=%.3f", MS(d->jobs_ticks), MS(d->serial_ticks));
#undef MS
    fprintf(out, " rockets=%llu rocket_kills=%llu telefrags=%llu", (unsigned long long)d->rockets,
            (unsigned long long)d->rocket_kills, (unsigned long long)d->telefrags);
    fprintf(out, " kills=%llu deaths=%llu pickups=%llu qc_errors=%llu replayed_replies=%llu"
            " replayed_bytes=%llu", (unsigned long long)d->kills, (unsigned long long)d->deaths,
            (unsigned long long)d->pickups, (unsigned long long)d->qc_errors,
            (unsigned long long)d->replayed_replies,
            (unsigned long long)d->replayed_bytes);
    if (!strcmp(thread, "all")) {
        fprintf(out, " cpu_ms=%.1f", cpu_ms);
        if (tm)
            fprintf(out, " tm_commits=%llu tm_aborts=%llu tm_conflict_aborts=%llu tm_serial=%llu",
                    (unsigned long long)tm->commits, (unsigned long long)tm->aborts,
                    (unsigned long long)tm->conflict_aborts, (unsigned long long)tm->serial);
        sv_frame_stats_print(out, !strcmp(label, "final"));
    }
    fputc('\n', out);
}

static void diff(sv_thread_stats *d, const sv_thread_stats *a, const sv_thread_stats *b)
{
    d->frames = a->frames - b->frames;
#define DIFF(field) d->field = a->field - b->field;
    SV_STATS_SUMMED(DIFF)
#undef DIFF
    for (int c = 0; c < CS_COUNT; c++)
        d->cs_entries[c] = a->cs_entries[c] - b->cs_entries[c];
}

static void add(sv_thread_stats *t, const sv_thread_stats *d)
{
#define ADD(field) t->field += d->field;
    SV_STATS_SUMMED(ADD)
#undef ADD
    for (int c = 0; c < CS_COUNT; c++)
        t->cs_entries[c] += d->cs_entries[c];
}

void sv_stats_print(FILE *out, const char *label, double now)
{
    if (counters_start != sv_stats_start_time()) {
        counters_start = last_time = sv_stats_start_time();
        memset(last, 0, sizeof last);
        memset(thread_cpu_last, 0, sizeof thread_cpu_last);
        cpu_start_ms = cpu_last_ms = sv_stats_start_cpu_ms();
        tm_start = tm_last = sv_stats_start_tm();
    }
    bool final = strcmp(label, "final") == 0;
    double cpu_now = sv_stats_process_cpu_ms();
    struct libtm_totals tm, tm_d;
    bool have_tm = sv_stats_tm_totals(&tm);
    const struct libtm_totals *tm_from = final ? &tm_start : &tm_last;
    tm_d = (struct libtm_totals){.commits = tm.commits - tm_from->commits,
                                 .aborts = tm.aborts - tm_from->aborts,
                                 .conflict_aborts = tm.conflict_aborts - tm_from->conflict_aborts,
                                 .serial = tm.serial - tm_from->serial};
    double secs = now - (final ? counters_start : last_time);
    sv_thread_stats total = {0};
    double total_thread_cpu_ms = 0;
    static const sv_thread_stats zero;
    int nthreads = sv_stats_threads();
    for (int t = 0; t < nthreads; t++) {
        const sv_thread_stats *now_t = sv_stats_of_thread(t);
        sv_thread_stats d;
        diff(&d, now_t, final ? &zero : &last[t]);
        char name[16];
        snprintf(name, sizeof name, "%d", t);
        double thread_cpu = sv_stats_thread_cpu_seconds(t);
        double thread_cpu_ms = (thread_cpu - (final ? 0 : thread_cpu_last[t])) * 1e3;
        if (!final)
            thread_cpu_last[t] = thread_cpu;
        total_thread_cpu_ms += thread_cpu_ms;
        print_line(out, label, name, secs, &d, d.frames, 0, thread_cpu_ms, NULL);
        add(&total, &d);
        if (t == 0)
            total.frames = d.frames;
        last[t] = *now_t;
    }
    print_line(out, label, "all", secs, &total, total.frames,
               cpu_now - (final ? cpu_start_ms : cpu_last_ms), total_thread_cpu_ms,
               have_tm ? &tm_d : NULL);
    fflush(out);
    last_time = now;
    cpu_last_ms = cpu_now;
    tm_last = tm;
}
