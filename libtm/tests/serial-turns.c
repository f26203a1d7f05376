/* Exclusion and progress where serial mode hands out turns (libtm's serial_lock.c: with
 * several threads, a thread that finds the lock taken queues, and the holder keeps the lock
 * for a turn). Whatever the runtime does, under every algorithm:
 *   1. transactions exclude each other: each one checks a pair that it breaks and mends in
 *      two steps, with a pause between them;
 *   2. threads that run transactions back to back all finish their share: nobody starves;
 *   3. a thread does not wait for a lock holder that stopped running transactions: the
 *      threads meet at a barrier between single transactions, and one of them sleeps
 *      between its transactions.
 * It fails on a violation, or by timing out when a thread starves or waits for ever. */
#include "tmtest.h"

#include <pthread.h>
#include <stdio.h>
#include <time.h>

static struct {
    long a, b;       /* equal outside transactions */
    long total;      /* transactions committed */
} shared;

static long ops_per_thread = 20000;
static long barrier_rounds = 200;
static pthread_barrier_t barrier;

TMTEST_PURE static void probe_pair(long a, long b)
{
    if (a != b)
        tmtest_violation("a transaction saw a = %ld and b = %ld: another one was halfway", a, b);
}

/* One transaction: checks the pair, breaks it, pauses now and then, mends it. */
static void step(int pause)
{
    __transaction_atomic {
        long a = shared.a;
        probe_pair(a, shared.b);
        shared.a = a + 1;
        if (pause)
            tmtest_yield(1);
        shared.b = a + 1;
        shared.total++;
    }
}

static void sleep_us(long us)
{
    struct timespec ts = { 0, us * 1000 };
    nanosleep(&ts, NULL);
}

static void dense(int index)
{
    uint64_t rng = (uint64_t)index * 7919 + 1;
    for (long i = 0; i < ops_per_thread; i++)
        step(tmtest_rand(&rng) % 256 == 0);
}

/* One transaction per barrier round; thread 0 also sleeps between its transactions. */
static void meeting(int index)
{
    for (long i = 0; i < barrier_rounds; i++) {
        step(0);
        if (index == 0)
            sleep_us(200);
        pthread_barrier_wait(&barrier);
    }
}

static void dense_then_meeting(int index)
{
    dense(index);
    meeting(index);
}

int main(int argc, char **argv)
{
    tmtest_init(argc, argv, "serial-turns [--ops=N] [--rounds=N]: exclusion and progress of "
                            "threads running transactions back to back, at barriers and "
                            "sleeping between transactions, with 2 and 4 threads");
    ops_per_thread = tmtest_option(argc, argv, "ops", ops_per_thread);
    barrier_rounds = tmtest_option(argc, argv, "rounds", barrier_rounds);
    long expected = 0;
    for (int meeting_threads = 2; meeting_threads <= 4; meeting_threads += 2) {
        pthread_barrier_init(&barrier, NULL, (unsigned)meeting_threads);
        tmtest_run_threads(meeting_threads, dense_then_meeting);
        pthread_barrier_destroy(&barrier);
        expected += meeting_threads * (ops_per_thread + barrier_rounds);
        tmtest_note("%d threads: %ld transactions in all", meeting_threads, shared.total);
    }
    tmtest_check_no_violations("transactions in turns");
    TMTEST_CHECK(shared.total == expected && shared.a == expected && shared.b == expected,
                 "committed %ld transactions, pair (%ld, %ld); expected %ld", shared.total,
                 shared.a, shared.b, expected);
    printf("serial-turns: %ld transactions, every one alone\n", shared.total);
    return 0;
}
