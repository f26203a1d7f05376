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
    /* Every moment of the thread's time since it entered the frame loop is in exactly one of
     * these (sv_stats_phase_end: one time-stamp read per phase boundary), so they add up to
     * its total: receive + U, the serial phase and job planning (master), RP, S, the serial
     * barrier (workers: through the master's receive + U; master: for the workers' end of S),
     * the barrier between RP and S, and what lies between phases (frame bookkeeping, the
     * qwsv-stats lines). */
    uint64_t idle_ticks, u_ticks, serial_ticks, jobs_ticks, rp_ticks, s_ticks;
    uint64_t wait_serial_ticks, wait_rp_ticks, other_ticks;
    /* of the waits, spinning (with sched_yield) and asleep on the futex (sync/barrier.h); the
     * rest is the barrier's own code, futex wake-ups included */
    double wait_serial_spin_seconds, wait_serial_sleep_seconds;
    double wait_rp_spin_seconds, wait_rp_sleep_seconds;
    uint64_t wait_sleeps;      /* waits that ended asleep (a futex wake-up each) */
    /* of rp_ticks, the move commands (net/inbox.c): the attempt that finished (useful
     * work), the entry before the first attempt and the attempts that restarted (aborted
     * work); of the entry, the lock's wait (the rest of it, under stm, is libtm's begin:
     * waiting for a serial turn, or for another thread's to end) */
    uint64_t cmd_ticks, cmd_entry_ticks, cmd_aborted_ticks;
    uint64_t cmd_lock_wait_ticks;
    /* of cmd_ticks, the commands whose attempt ran in one of libtm's serial turns (libtm's
     * policy running one transaction at a time, or irrevocable), and how many */
    uint64_t cmd_serial_ticks, cmd_serial;
    uint64_t cmd_restarts;
    uint64_t replay_ticks;     /* -replay: the virtual clients' own side of the packets */
    uint64_t idle_replay_ticks; /* of replay_ticks, the master's in idle_ticks (the rest in S) */
    uint64_t lock_wait_ticks;  /* waiting for the global or region locks, in any phase */
    uint64_t rp_handovers;     /* RP: the worker found another thread running commands alone
                                * (the global lock, libtm's serial turn) and left it the
                                * frame's remaining clients (sched/sched.c) */
    uint64_t mark;             /* the thread's last phase boundary (not a counter) */
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
#define SV_STATS_SUMMED(X) X(packets) X(commands) X(bad_packets) X(idle_ticks) X(u_ticks)   \
    X(serial_ticks) X(jobs_ticks) X(rp_ticks) X(s_ticks) X(wait_serial_ticks)                \
    X(wait_rp_ticks) X(other_ticks) X(wait_serial_spin_seconds) X(wait_serial_sleep_seconds) \
    X(wait_rp_spin_seconds) X(wait_rp_sleep_seconds) X(wait_sleeps) X(cmd_ticks)             \
    X(cmd_entry_ticks) X(cmd_aborted_ticks) X(cmd_lock_wait_ticks) X(cmd_serial_ticks)       \
    X(cmd_serial) X(cmd_restarts) X(replay_ticks) X(idle_replay_ticks) X(lock_wait_ticks)    \
    X(rp_handovers)                                                                          \
    X(rockets) X(rocket_kills) X(telefrags) X(kills) X(deaths) X(pickups) X(qc_errors)       \
    X(replayed_replies) X(replayed_bytes)

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

/* The calling thread's time line: sv_stats_timeline_start when it enters the frame loop (what
 * came before is start-up, not counted), sv_stats_phase_end(&st->X_ticks) at the end of each
 * phase: the time since the last boundary goes to that phase. sv_stats_phase_begin at a
 * phase's start puts what lay between the phases in other_ticks. */
void sv_stats_timeline_start(void);
/* When the thread leaves the frame loop: its CPU time stays readable after it exits. */
void sv_stats_timeline_end(void);
static inline void sv_stats_phase_end(sv_thread_stats *st, uint64_t *phase)
{
    uint64_t now = sv_stats_ticks();
    *phase += now - st->mark;
    st->mark = now;
}
static inline void sv_stats_phase_begin(sv_thread_stats *st)
{
    sv_stats_phase_end(st, &st->other_ticks);
}
/* Thread t's CPU time so far (user + system, seconds; 0 before it entered the frame loop):
 * its time line less what it spent descheduled -- other programs on its core, or asleep. */
double sv_stats_thread_cpu_seconds(int t);
/* Of a thread's counters, the time its time line covers (the sum of its phases), in ticks. */
uint64_t sv_stats_total_ticks(const sv_thread_stats *st);

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
