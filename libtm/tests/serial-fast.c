/* The serial fast path (begin_x86_64.S, transaction.c: a transaction that cannot cancel, begun
 * in serial mode, takes the serial lock's word as a mutex would and keeps no checkpoint) keeps
 * what the general path guarantees: every commit counted in the totals, also after its thread
 * exited and its descriptor went to the next thread; transaction ids that grow, across many id
 * blocks (the fast begin takes the next id without looking at the block's end); nested
 * transactions inside, a closed one that cancels included; user commit actions; and
 * exclusion between threads. libtm-only (the totals are libtm's). */
#include "tmtest.h"
#include "libtm.h"

#include <pthread.h>
#include <stdint.h>

static long counter;
static long inner_counter;
static int action_runs;

TMTEST_PURE static uint64_t id_now(void) { return _ITM_getTransactionId(); }

static void count_action(void *arg)
{
    (void)arg;
    action_runs++;
}

static uint64_t commits_now(void)
{
    struct libtm_totals t;
    libtm_get_totals(&t);
    return t.commits;
}

/* Ids of consecutive outermost transactions grow; a nested transaction that cannot cancel joins
 * the outer one (flat nesting), and has its id. */
static void check_ids(long n)
{
    uint64_t last = 0;
    for (long i = 0; i < n; i++) {
        uint64_t id = 0, inner = 0;
        __transaction_atomic {
            id = id_now();
            __transaction_atomic { inner = id_now(); }
            counter++;
        }
        if (id <= last || inner != id)
            TMTEST_FAIL("transaction %ld: id %llu after %llu, nested id %llu", i,
                        (unsigned long long)id, (unsigned long long)last,
                        (unsigned long long)inner);
        last = id;
    }
}

/* A closed nested transaction that cancels inside an outer one that cannot. */
static void check_nested_cancel(void)
{
    long before = inner_counter;
    __transaction_atomic {
        counter++;
        __transaction_atomic {
            inner_counter++;
            __transaction_cancel;
        }
        __transaction_atomic { inner_counter += 2; }
    }
    TMTEST_CHECK(inner_counter == before + 2, "nested cancel: inner counter %ld, want %ld",
                 inner_counter, before + 2);
}

#define THREAD_TX 5000

static void *worker(void *arg)
{
    (void)arg;
    for (int i = 0; i < THREAD_TX; i++)
        __transaction_atomic { counter++; }
    return NULL;
}

static void run_threads(int n, int at_once)
{
    pthread_t t[8];
    for (int done = 0; done < n; done += at_once) {
        for (int i = 0; i < at_once; i++)
            if (pthread_create(&t[i], NULL, worker, NULL) != 0)
                TMTEST_FAIL("pthread_create");
        for (int i = 0; i < at_once; i++)
            pthread_join(t[i], NULL);
    }
}

int main(int argc, char **argv)
{
    tmtest_init(argc, argv, "serial-fast: the serial fast path counts every commit, keeps ids "
                            "growing, nests, runs commit actions and excludes");
    tmtest_require_libtm();
    /* One thread: the adaptive default runs serially (LIBTM_ALGO may force another mode). */
    uint64_t c0 = commits_now();
    for (int i = 0; i < 1000; i++)
        __transaction_atomic { counter++; }
    uint64_t c1 = commits_now();
    TMTEST_CHECK(c1 - c0 == 1000, "1000 transactions: %llu commits counted",
                 (unsigned long long)(c1 - c0));

    /* 3 x 65,536 ids: beyond the end of the first blocks. */
    check_ids(3 * 65536L);
    check_nested_cancel();

    __transaction_atomic {
        counter++;
        _ITM_addUserCommitAction(count_action, TMTEST_NO_TRANSACTION_ID, NULL);
    }
    TMTEST_CHECK(action_runs == 1, "a commit action ran %d times, want 1", action_runs);

    /* Threads that exit (their descriptors serve the next ones), one and two at a time. */
    long before = counter;
    uint64_t c2 = commits_now();
    run_threads(4, 1);
    run_threads(4, 2);
    uint64_t c3 = commits_now();
    TMTEST_CHECK(counter == before + 8 * THREAD_TX, "counter %ld, want %ld", counter,
                 before + 8 * THREAD_TX);
    TMTEST_CHECK(c3 - c2 == 8 * THREAD_TX, "8 threads x %d transactions: %llu commits counted",
                 THREAD_TX, (unsigned long long)(c3 - c2));
    tmtest_note("serial fast path: ok (%llu commits)", (unsigned long long)c3);
    return 0;
}
