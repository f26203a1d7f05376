/* Thread descriptors are recycled: 10,000 short-lived threads (two alive at a time) each run a
 * few transactions (a write, a read-only one, one that cancels, one with a commit action).
 * The resident memory after the last thread may exceed the one measured after the first
 * 1,000 threads by at most 8 MiB (a leak of 1 KiB per thread would exceed it). */
#include "tmtest.h"

#include <pthread.h>
#include <stdlib.h>

#include "rss.h"

#define GROWTH_LIMIT_KIB (8 * 1024)

static long total_threads = 10000;
static long counter;
static long last_read;
static atomic_long commit_actions_run;

static void count_commit(void *arg)
{
    (void)arg;
    atomic_fetch_add(&commit_actions_run, 1);
}

TMTEST_PURE static void add_commit_action(void)
{
    _ITM_addUserCommitAction(count_commit, TMTEST_NO_TRANSACTION_ID, NULL);
}

TMTEST_PURE static void remember(long value)
{
    last_read = value;
}

static void *short_lived(void *arg)
{
    (void)arg;
    __transaction_atomic {
        counter++;
    }
    __transaction_atomic {
        remember(counter);
    }
    __transaction_atomic {
        counter = -1; /* a plain store: GCC's serial method cannot undo x += c (RfW/WaW) */
        __transaction_cancel;
    }
    __transaction_atomic {
        counter++;
        add_commit_action();
    }
    return NULL;
}

static void run_threads(long count)
{
    for (long i = 0; i < count; i += 2) {
        pthread_t a, b;
        TMTEST_CHECK(pthread_create(&a, NULL, short_lived, NULL) == 0, "pthread_create failed");
        TMTEST_CHECK(pthread_create(&b, NULL, short_lived, NULL) == 0, "pthread_create failed");
        pthread_join(a, NULL);
        pthread_join(b, NULL);
    }
}

int main(int argc, char **argv)
{
    tmtest_init(argc, argv,
                "10,000 short-lived threads run transactions; resident memory must not grow by\n"
                "more than 8 MiB after the first 1,000.  --threads=N (10000, even)");
    total_threads = tmtest_option(argc, argv, "threads", total_threads);
    TMTEST_CHECK(total_threads >= 2000 && total_threads % 2 == 0,
                 "--threads must be even and at least 2000");
    run_threads(1000);
    long rss_warm = tmtest_rss_kib();
    TMTEST_CHECK(rss_warm > 0, "cannot read VmRSS from /proc/self/status");
    run_threads(total_threads - 1000);
    long rss_end = tmtest_rss_kib();

    TMTEST_CHECK(counter == 2 * total_threads,
                 "counter = %ld after %ld threads that each committed two increments", counter,
                 total_threads);
    TMTEST_CHECK(atomic_load(&commit_actions_run) == total_threads,
                 "%ld commit actions ran for %ld threads (one each)",
                 atomic_load(&commit_actions_run), total_threads);
    TMTEST_CHECK(rss_end - rss_warm <= GROWTH_LIMIT_KIB,
                 "resident memory grew from %ld KiB (after 1000 threads) to %ld KiB (after %ld): "
                 "%ld KiB, more than %d KiB (thread descriptors leak?)", rss_warm, rss_end,
                 total_threads, rss_end - rss_warm, GROWTH_LIMIT_KIB);
    tmtest_note("%ld threads: VmRSS %ld KiB after 1000, %ld KiB at the end", total_threads,
                rss_warm, rss_end);
    return 0;
}
