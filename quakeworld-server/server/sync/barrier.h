/* The barriers between the frame's phases (frame.c). A thread that arrives early spins for a
 * while before it sleeps: with 24 clients a phase lasts tens of microseconds, and waking a
 * sleeping thread (a futex, as pthread_barrier does) took as long again -- measured: on lqdm6
 * with 2 threads the second worker started RP 44 us after the first on average, and both ran
 * together for 16 % of RP. How long a waiter spins adapts, per waiter (sv_barrier_waiter: no
 * shared line is written for it): a spin that ended with the others' arrival adds
 * SV_BARRIER_SPIN_MIN to its next budget (up to SV_BARRIER_SPIN_MAX), one that ran out halves
 * it: when the thread everybody waits for is not running -- more threads than cores, or
 * other programs on them -- spinning only holds the core it needs, and the budget falls. With
 * more threads than CPUs nobody spins at all.
 *
 * Two kinds of meeting: sv_barrier_wait, where every thread arrives and the last one lets all
 * go; and the master's own barrier (sv_barrier_join, sv_barrier_release), where the other
 * threads arrive and wait while the master waits only for their arrival, works alone (the
 * serial phase), and then lets them go: one meeting where there would be two in a row for the
 * waiting threads, so one wake-up less per frame; and the master can wake the sleepers ahead
 * of the release (sv_barrier_prewake). */
#ifndef SV_SYNC_BARRIER_H
#define SV_SYNC_BARRIER_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#define SV_BARRIER_SPIN_MIN 2e-6
#define SV_BARRIER_SPIN_MAX 100e-6

typedef struct sv_barrier {
    unsigned count;                   /* threads that meet (the master included) */
    bool spin;                        /* count <= the CPUs online */
    _Alignas(64) atomic_uint arrived;
    atomic_uint generation;           /* advances when all may go (a futex word) */
    atomic_uint sleepers;
    atomic_uint master_sleeping;      /* sv_barrier_join sleeps on `arrived` */
} sv_barrier;

/* One thread's side of one barrier: its spin budget, and where its waits went. */
typedef struct sv_barrier_waiter {
    double budget;                    /* seconds the next early arrival may spin */
    double spin_seconds, sleep_seconds;
    uint64_t sleeps;                  /* waits that ended asleep */
} sv_barrier_waiter;

void sv_barrier_init(sv_barrier *b, unsigned count);
/* Every thread calls it; the last to arrive lets everybody go. */
void sv_barrier_wait(sv_barrier *b, sv_barrier_waiter *w);
/* The master's barrier: the others call sv_barrier_wait and wait there; the master returns
 * from sv_barrier_join once all of them arrived, and lets them go with sv_barrier_release. */
void sv_barrier_join(sv_barrier *b, sv_barrier_waiter *w);
void sv_barrier_release(sv_barrier *b);
/* Between join and release: wakes the threads asleep at b, which then spin (up to
 * SV_BARRIER_SPIN_MAX) for the release. Called about a wake-up's time (tens of microseconds
 * on a virtual machine) before the release, a sleeper is running again when it comes instead
 * of starting that much later, and costs no core while the master's phase is long. */
void sv_barrier_prewake(sv_barrier *b);

#endif
