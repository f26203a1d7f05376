/* Every wait in libtm spins briefly and then yields or blocks: on 2 cores with 8 threads the
 * thread we wait for is often preempted, and spinning would only delay it (GCC's libitm loses
 * most of its throughput that way). */
#include "tx.h"

#include <linux/futex.h>
#include <sched.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

void tm_wait_pause(unsigned *round)
{
    unsigned r = (*round)++;
    if (r < 8) {
        for (unsigned i = 0; i < (4u << r); i++)
            __builtin_ia32_pause();
    } else {
        sched_yield();
    }
}

void tm_futex_wait(_Atomic uint32_t *word, uint32_t expected, long timeout_ns)
{
    struct timespec ts = { timeout_ns / 1000000000L, timeout_ns % 1000000000L };
    syscall(SYS_futex, (uint32_t *)word, FUTEX_WAIT_PRIVATE, expected,
            timeout_ns > 0 ? &ts : NULL, NULL, 0);
}

void tm_futex_wake(_Atomic uint32_t *word)
{
    syscall(SYS_futex, (uint32_t *)word, FUTEX_WAKE_PRIVATE, 0x7fffffff, NULL, NULL, 0);
}
