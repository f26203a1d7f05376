/* Every wait in libtm spins briefly and then yields or blocks: on 2 cores with 8 threads the
 * thread we wait for is often preempted, and spinning would only delay it (GCC's libitm loses
 * most of its throughput that way). Waits for another thread's answer spin longer while there
 * are no more threads than processors: the other thread is then most likely running and
 * answers within microseconds, and yielding would only add system calls. */
#include "wait.h"
#include "registry.h"
#include "tx.h"

#include <linux/futex.h>
#include <sched.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* Cycles to spin before sleeping while the other thread likely runs, and otherwise. */
#define SPIN_CYCLES_RUNNING 200000
#define SPIN_CYCLES_CROWDED 4000

static unsigned processors;

unsigned tm_processors(void)
{
    if (!processors) {
        cpu_set_t set;
        int n = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : 0;
        processors = n > 0 ? (unsigned)n : 1;
    }
    return processors;
}

int64_t tm_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

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

struct tm_wait tm_wait_start(void)
{
    bool crowded = tm_thread_count() > tm_processors();
    return (struct tm_wait){
        .spin_until = tm_cycles() + (crowded ? SPIN_CYCLES_CROWDED : SPIN_CYCLES_RUNNING) };
}

bool tm_wait_spinning(struct tm_wait *wait)
{
    for (int i = 0; i < 8; i++)
        __builtin_ia32_pause();
    return tm_cycles() < wait->spin_until;
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

void tm_futex_wake_one(_Atomic uint32_t *word)
{
    syscall(SYS_futex, (uint32_t *)word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}
