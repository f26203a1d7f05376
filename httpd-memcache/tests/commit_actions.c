/* The module frees objects and registers pool cleanups through _ITM_addUserCommitAction.
 * This checks the runtime's side of that contract under concurrency: every action
 * registered by a committed transaction runs exactly once, on the committing thread, and
 * none from aborted attempts. (GCC 12's libitm with its adaptive default method fails it:
 * a few actions in a thousand are lost; with ITM_DEFAULT_METHOD=ml_wt it passes.) */
#include <libtm.h>

#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

enum { THREADS = 4, ITERATIONS = 50000 };

static long shared_counter;
static __thread long actions_ran;

static void count_action(void *unused)
{
    (void)unused;
    actions_ran++;
}

typedef struct {
    long registered;
    long ran;
} thread_result_t;

/* One transaction per call, so no loop variable lives across the (setjmp-like) begin. */
__attribute__((noinline)) static void increment_with_action(void)
{
    __transaction_atomic {
        shared_counter++;
        _ITM_addUserCommitAction(count_action, LIBTM_NO_TRANSACTION_ID, NULL);
    }
}

static void *worker(void *opaque)
{
    thread_result_t *result = opaque;
    for (long i = 0; i < ITERATIONS; i++) {
        increment_with_action();
        result->registered++;
        if (i % 2000 == 0)
            usleep(50); /* let the threads' transactions interleave differently */
    }
    result->ran = actions_ran;
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        printf("usage: commit_actions\nRuns %d threads x %d transactions, each registering one "
               "commit action; fails unless every action ran exactly once.\n", THREADS, ITERATIONS);
        return 0;
    }
    pthread_t threads[THREADS];
    thread_result_t results[THREADS];
    memset(results, 0, sizeof(results));
    pthread_create(&threads[0], NULL, worker, &results[0]);
    usleep(10000); /* the runtime first sees one thread, then several */
    for (int i = 1; i < THREADS; i++)
        pthread_create(&threads[i], NULL, worker, &results[i]);
    int failed = 0;
    for (int i = 0; i < THREADS; i++) {
        pthread_join(threads[i], NULL);
        printf("thread %d: %ld transactions committed, %ld commit actions ran\n", i,
               results[i].registered, results[i].ran);
        failed |= results[i].ran != results[i].registered;
    }
    if (shared_counter != (long)THREADS * ITERATIONS) {
        printf("FAIL: counter %ld, expected %ld\n", shared_counter, (long)THREADS * ITERATIONS);
        return 1;
    }
    if (failed) {
        printf("FAIL: commit actions lost or repeated\n");
        return 1;
    }
    printf("every commit action ran exactly once\n");
    return 0;
}
