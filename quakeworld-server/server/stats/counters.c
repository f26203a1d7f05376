/* Per-thread counters (see stats/counters.h). */
#include "stats/counters.h"

#include <pthread.h>
#include <string.h>
#include <time.h>
#include <sys/resource.h>

#include "clock.h"
#include "server.h"
#include "stats/libtm_extensions.h"
#include "sync/critical_sections.h"

static sv_thread_stats stats[SV_MAX_THREADS];
static int nthreads;
static double start_time, start_cpu_ms;
static uint64_t start_ticks;
static struct libtm_totals start_tm;
/* each thread's CPU clock, noted when it enters the frame loop */
static clockid_t cpu_clock[SV_MAX_THREADS];
static bool has_cpu_clock[SV_MAX_THREADS];
/* a thread's CPU time when it left the frame loop (its clock ends with it) */
static double cpu_at_end[SV_MAX_THREADS];
static bool ended[SV_MAX_THREADS];

bool sv_stats_tm_totals(struct libtm_totals *t)
{
    *t = (struct libtm_totals){0};
    if (!sv_libtm.totals_read)
        return false;
    sv_libtm.totals_read(t, sizeof *t);
    return true;
}

struct libtm_totals sv_stats_start_tm(void)
{
    return start_tm;
}

void sv_stats_init(int threads)
{
    nthreads = threads;
    memset(stats, 0, sizeof stats);
    start_time = sv_clock();
    start_ticks = sv_stats_ticks();
    start_cpu_ms = sv_stats_process_cpu_ms();
    sv_stats_tm_totals(&start_tm);
}

double sv_stats_process_cpu_ms(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e3 +
           (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e3;
}

double sv_stats_start_cpu_ms(void)
{
    return start_cpu_ms;
}

/* Whether the calling thread's transaction runs in one of libtm's serial turns: irrevocable,
 * or begun while libtm's policy runs every transaction alone. */
static bool in_serial_turn(void) LIBTM_PURE;
static bool in_serial_turn(void)
{
    if (!SV_HAVE_TM || (sv_sync != SYNC_STM && sv_sync != SYNC_STMLOCK))
        return false;
#if SV_HAVE_TM
    if (_ITM_inTransaction() == LIBTM_IRREVOCABLE)
        return true;
#endif
    /* only libtm has it: the mode its adaptive policy runs ("serial": one at a time) */
    if (!sv_libtm.adaptive_mode)
        return false;
    const char *mode = sv_libtm.adaptive_mode();
    return mode && !strcmp(mode, "serial");
}

/* the calling thread's current move command: its attempts so far, when the first and the
 * last began, whether the last ran in a serial turn, and the thread's lock wait at entry */
static __thread struct {
    unsigned attempts;
    bool serial;
    uint64_t first, last, lock_wait;
} command;

uint64_t sv_stats_command_enter(void)
{
    command.attempts = 0;
    command.lock_wait = sv_stats_thread()->lock_wait_ticks;
    return sv_stats_ticks();
}

void sv_stats_command_attempt(void)
{
    uint64_t now = sv_stats_ticks();
    if (command.attempts++ == 0)
        command.first = now;
    command.last = now;
    command.serial = in_serial_turn();
}

void sv_stats_command_leave(uint64_t entered)
{
    sv_thread_stats *st = sv_stats_thread();
    uint64_t now = sv_stats_ticks();
    if (command.attempts == 0) /* not run (cannot happen: every section runs its body) */
        return;
    uint64_t entry = command.first - entered, lock_wait = st->lock_wait_ticks - command.lock_wait;
    st->cmd_entry_ticks += entry;
    st->cmd_lock_wait_ticks += lock_wait < entry ? lock_wait : entry;
    st->cmd_aborted_ticks += command.last - command.first;
    st->cmd_ticks += now - command.last;
    if (command.serial) {
        st->cmd_serial_ticks += now - command.last;
        st->cmd_serial++;
    }
    st->cmd_restarts += command.attempts - 1;
}

void sv_stats_timeline_start(void)
{
    sv_stats_thread()->mark = sv_stats_ticks();
    ended[sv_thread_index] = false;
    has_cpu_clock[sv_thread_index] =
        pthread_getcpuclockid(pthread_self(), &cpu_clock[sv_thread_index]) == 0;
}

void sv_stats_timeline_end(void)
{
    cpu_at_end[sv_thread_index] = sv_stats_thread_cpu_seconds(sv_thread_index);
    ended[sv_thread_index] = true;
}

double sv_stats_thread_cpu_seconds(int t)
{
    struct timespec ts;
    if (ended[t])
        return cpu_at_end[t];
    if (!has_cpu_clock[t] || clock_gettime(cpu_clock[t], &ts) != 0)
        return 0;
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

uint64_t sv_stats_total_ticks(const sv_thread_stats *st)
{
    return st->idle_ticks + st->u_ticks + st->serial_ticks + st->jobs_ticks + st->rp_ticks +
           st->s_ticks + st->wait_serial_ticks + st->wait_rp_ticks + st->other_ticks;
}

double sv_stats_tick_seconds(void)
{
    double seconds = sv_clock() - start_time;
    uint64_t ticks = sv_stats_ticks() - start_ticks;
    return ticks > 0 && seconds > 0 ? seconds / (double)ticks : 0;
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
