/* The barrier between the frame's phases (frame.c: three per frame). A thread that arrives
 * early spins for a while before it sleeps: with 24 clients a phase lasts tens of
 * microseconds, and waking a sleeping thread (a futex, as pthread_barrier does) took as long
 * again -- measured: on lqdm6 with 2 threads the second worker started RP 44 us after the
 * first on average, and both ran together for 16 % of RP. How long it spins adapts: a spin
 * that ended with the others' arrival adds SV_BARRIER_SPIN_MIN to the next one's budget
 * (up to SV_BARRIER_SPIN_MAX), one that ran out halves it: when the
 * thread everybody waits for is not running -- more threads than cores, or other programs on
 * them -- spinning only holds the core it needs, and the budget falls. With more threads than
 * CPUs nobody spins at all. */
#ifndef SV_SYNC_BARRIER_H
#define SV_SYNC_BARRIER_H

#include <stdatomic.h>
#include <stdbool.h>

#define SV_BARRIER_SPIN_MIN 2e-6
#define SV_BARRIER_SPIN_MAX 100e-6

typedef struct sv_barrier {
    unsigned count;                   /* threads that meet */
    bool spin;                        /* count <= the CPUs online */
    atomic_uint arrived;
    atomic_uint generation;           /* advances when the last one arrives (a futex word) */
    atomic_uint sleepers;
    _Atomic double spin_budget;       /* seconds the next early arrival may spin */
} sv_barrier;

void sv_barrier_init(sv_barrier *b, unsigned count);
void sv_barrier_wait(sv_barrier *b);

#endif
