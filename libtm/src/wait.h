/* Waiting (wait.c): bounded spinning, then yielding or blocking. */
#ifndef LIBTM_WAIT_H
#define LIBTM_WAIT_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

unsigned tm_processors(void); /* processors this process may run on */
int64_t tm_now_ns(void);      /* CLOCK_MONOTONIC */
void tm_wait_pause(unsigned *round);
/* A bounded spin before sleeping on another thread's answer (privatization.c):
 * tm_wait_spinning is true while the caller should look again, false when it should sleep.
 * The spin is long while that thread is likely running, short otherwise. */
struct tm_wait {
    uint64_t spin_until;
};
struct tm_wait tm_wait_start(void);
bool tm_wait_spinning(struct tm_wait *wait);
void tm_futex_wait(_Atomic uint32_t *word, uint32_t expected, long timeout_ns);
void tm_futex_wake(_Atomic uint32_t *word);     /* every sleeper */
void tm_futex_wake_one(_Atomic uint32_t *word); /* one sleeper */

#endif
