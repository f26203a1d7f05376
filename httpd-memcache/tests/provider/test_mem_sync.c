/* MEM_CRITICAL and mem_sync_defer, the two synchronisation modes: lock mode holds the cache's
 * mutex for the section and runs deferred work at once; tm mode runs the section as a
 * transaction and deferred work after it commits; a lock-mode cache without its mutex (or a
 * tm-mode cache in a build without -fgnu-tm) stops the process with a message instead of
 * running the section unprotected. */
#include "provider_fixture.h"

#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static void *try_lock(void *opaque)
{
    apr_thread_mutex_t *mutex = opaque;
    apr_status_t status = apr_thread_mutex_trylock(mutex);
    if (status == APR_SUCCESS)
        apr_thread_mutex_unlock(mutex);
    return APR_STATUS_IS_EBUSY(status) ? mutex : NULL;
}

/* Whether another thread finds the mutex taken. Pure: MEM_CRITICAL compiles its section for
 * both modes, and this one runs in lock mode only. */
LIBTM_PURE static int held_elsewhere(apr_thread_mutex_t *mutex)
{
    pthread_t thread;
    void *busy;
    assert_int_equal(pthread_create(&thread, NULL, try_lock, mutex), 0);
    assert_int_equal(pthread_join(thread, &busy), 0);
    return busy != NULL;
}

static void note_ran(void *flag)
{
    *(int *)flag = 1;
}

static void test_lock_mode_holds_the_mutex_and_defers_nothing(void **state)
{
    (void)state;
    mem_sync_t sync = {.use_tm = 0};
    assert_int_equal(apr_thread_mutex_create(&sync.lock, APR_THREAD_MUTEX_DEFAULT, group_pool),
                     APR_SUCCESS);
    int held = 0, ran = 0, ran_inside = 0;
    MEM_CRITICAL(&sync, held = held_elsewhere(sync.lock); mem_sync_defer(&sync, note_ran, &ran);
                 ran_inside = ran);
    assert_true(held);
    assert_true(ran_inside); /* as 2.2 did: at once, under the lock */
    assert_false(held_elsewhere(sync.lock));
}

#ifndef MEM_SYNC_LOCK_ONLY
static void test_tm_mode_runs_a_transaction_and_defers_to_commit(void **state)
{
    (void)state;
    mem_sync_t sync = {.use_tm = 1};
    int in_transaction = LIBTM_OUTSIDE, ran = 0, ran_inside = 1;
    MEM_CRITICAL(&sync, in_transaction = _ITM_inTransaction(); mem_sync_defer(&sync, note_ran, &ran);
                 ran_inside = ran);
    assert_int_not_equal(in_transaction, LIBTM_OUTSIDE);
    assert_false(ran_inside);
    assert_true(ran);
}
#endif

/* Runs one critical section in a child process; returns its signal (0 if it ended normally)
 * and what it wrote to stderr in message. */
static int section_in_child(mem_sync_t sync, char *message, size_t size)
{
    int pipe_ends[2];
    assert_int_equal(pipe(pipe_ends), 0);
    fflush(stdout);
    pid_t child = fork();
    assert_true(child >= 0);
    if (child == 0) {
        signal(SIGABRT, SIG_DFL);
        dup2(pipe_ends[1], STDERR_FILENO);
        int counter = 0;
        MEM_CRITICAL(&sync, counter++);
        _exit(counter == 1 ? 0 : 1);
    }
    close(pipe_ends[1]);
    ssize_t length = read(pipe_ends[0], message, size - 1);
    message[length > 0 ? length : 0] = '\0';
    close(pipe_ends[0]);
    int status;
    assert_int_equal(waitpid(child, &status, 0), child);
    return WIFSIGNALED(status) ? WTERMSIG(status) : 0;
}

static void test_lock_mode_without_a_mutex_stops(void **state)
{
    (void)state;
    char message[400];
    mem_sync_t sync = {.use_tm = 0, .lock = NULL};
    assert_int_equal(section_in_child(sync, message, sizeof(message)), SIGABRT);
    assert_non_null(strstr(message, "mod_mem_cache: a cache in MCacheSync lock mode has no mutex; "
                                    "stopping this process rather than run a critical section "
                                    "unprotected"));
}

#ifdef MEM_SYNC_LOCK_ONLY
static void test_tm_mode_in_a_build_without_transactions_stops(void **state)
{
    (void)state;
    char message[400];
    mem_sync_t sync = {.use_tm = 1};
    assert_int_equal(section_in_child(sync, message, sizeof(message)), SIGABRT);
    assert_non_null(strstr(message, "a cache in MCacheSync tm mode, in a build without -fgnu-tm"));
}
#endif

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lock_mode_holds_the_mutex_and_defers_nothing),
#ifndef MEM_SYNC_LOCK_ONLY
        cmocka_unit_test(test_tm_mode_runs_a_transaction_and_defers_to_commit),
#else
        cmocka_unit_test(test_tm_mode_in_a_build_without_transactions_stops),
#endif
        cmocka_unit_test(test_lock_mode_without_a_mutex_stops),
    };
    return cmocka_run_group_tests_name("MEM_CRITICAL and mem_sync_defer", tests, group_setup,
                                       group_teardown);
}
