/* Per-thread counters: frames, packets, commands, time per phase, section entries, what the
 * fights did (rockets, rocket kills, telefrags, kills, deaths, pickups), replies counted for
 * virtual clients. Every thread counts into its own (the game's
 * counts, made inside a move command's transaction, touch no other thread's line); they are
 * read when no worker runs (the master between frames) and printed as the qwsv-stats lines
 * (stats/print.h). Below everything that counts, which is most of the server. */
#ifndef SV_STATS_COUNTERS_H
#define SV_STATS_COUNTERS_H

#include <stdbool.h>
#include <stdint.h>

#include <libtm.h>

#include "server.h"
#include "sync/critical_sections.h"

typedef struct sv_thread_stats {
    uint64_t frames;
    uint64_t packets;          /* sequenced client packets accepted and processed */
    uint64_t commands;         /* movement commands run */
    uint64_t bad_packets;      /* client packets rejected */
    double u_seconds, rp_seconds, s_seconds, wait_seconds;
    /* wait_seconds by barrier and how: the serial one (workers wait there through the
     * master's receive + U, the master for the workers' end of S) and the one between RP and
     * S, spinning or asleep (sync/barrier.h) */
    double wait_serial_spin_seconds, wait_serial_sleep_seconds;
    double wait_rp_spin_seconds, wait_rp_sleep_seconds;
    uint64_t wait_sleeps;      /* waits that ended asleep (a futex wake-up each) */
    /* of rp_seconds, the move commands (net/inbox.c): the attempt that finished (useful
     * work), the entry before the first attempt (the global lock, libtm's begin and its
     * serial turns) and the attempts that restarted (aborted work) */
    uint64_t cmd_ticks, cmd_entry_ticks, cmd_aborted_ticks; /* sv_stats_ticks */
    uint64_t cmd_restarts;
    uint64_t replay_ticks;     /* -replay: the virtual clients' own side of the packets */
    double idle_seconds;       /* master: waiting for packets (select) */
    double lock_wait_seconds;  /* waiting for the global lock (lock, stmlock) */
    double jobs_seconds;       /* master: planning the frame's jobs (-sched lpt) */
    double serial_seconds;     /* master: the serial phase (-sched lpt) */
    uint64_t cs_entries[CS_COUNT];
    uint64_t rockets;          /* rockets launched */
    uint64_t rocket_kills;     /* players killed by a rocket (their own too) */
    uint64_t telefrags;        /* players telefragged (at a spawn point or a teleporter) */
    uint64_t kills, deaths, pickups; /* the game's work, as stats/game_work.h sees it */
    uint64_t qc_errors;        /* QuakeC runtime errors (qcgame: every one, logged or not) */
    uint64_t replayed_replies; /* replies to -replay's virtual clients, counted, not sent */
    uint64_t replayed_bytes;
} __attribute__((aligned(64))) sv_thread_stats;

/* Every scalar counter above but frames (the master's alone): what the qwsv-stats lines take
 * differences of and add up over threads. A new counter goes here too. */
#define SV_STATS_SUMMED(X) X(packets) X(commands) X(bad_packets) X(u_seconds) X(rp_seconds) \
    X(s_seconds) X(wait_seconds) X(wait_serial_spin_seconds) X(wait_serial_sleep_seconds)    \
    X(wait_rp_spin_seconds) X(wait_rp_sleep_seconds) X(wait_sleeps) X(cmd_ticks)           \
    X(cmd_entry_ticks) X(cmd_aborted_ticks) X(cmd_restarts) X(replay_ticks)                \
    X(idle_seconds) X(lock_wait_seconds) X(jobs_seconds)                                    \
    X(serial_seconds) X(rockets) X(rocket_kills) X(telefrags) X(kills) X(deaths) X(pickups)  \
    X(qc_errors) X(replayed_replies) X(replayed_bytes)

/* Zeroes the counters of `threads` threads and notes the time counting starts. */
void sv_stats_init(int threads);
/* The calling thread's counters (also inside a section). */
LIBTM_SAFE sv_thread_stats *sv_stats_thread(void);

/* The time of what is timed per command or reply, read from the processor's time-stamp
 * counter (a few nanoseconds, where the clock takes tens on a virtual machine: at three reads
 * a command it cost 4 % of the C game's CPU time), and the seconds of one tick, measured
 * against sv_clock since counting started. */
static inline uint64_t sv_stats_ticks(void)
{
    return __builtin_ia32_rdtsc();
}
double sv_stats_tick_seconds(void);

/* A move command's times (cmd_ticks, cmd_entry_ticks, cmd_aborted_ticks, cmd_restarts): sv_stats_command_enter before its section, sv_stats_command_attempt first
 * thing inside it (again at each restart: pure, so what it notes survives the rollback), and
 * sv_stats_command_leave after the section. */
uint64_t sv_stats_command_enter(void);
void sv_stats_command_attempt(void) LIBTM_PURE;
void sv_stats_command_leave(uint64_t entered);

/* Master, no worker running: */
/* how many threads count, and since when (sv_clock), and the process's CPU time then */
int sv_stats_threads(void);
double sv_stats_start_time(void);
double sv_stats_start_cpu_ms(void);
/* the process's CPU time so far: every thread's user + system time, ms */
double sv_stats_process_cpu_ms(void);
/* libtm's counters of the whole process now, and when counting started; false (zeros) on
 * another runtime */
bool sv_stats_tm_totals(struct libtm_totals *t);
struct libtm_totals sv_stats_start_tm(void);
/* thread t's counters so far */
const sv_thread_stats *sv_stats_of_thread(int t);
/* packets and commands processed so far by all threads */
void sv_stats_sum(uint64_t *packets, uint64_t *commands);

#endif
