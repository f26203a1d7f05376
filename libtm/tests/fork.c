/* fork in a multithreaded transactional process: while three threads keep running
 * transactions, the main thread forks several times. Each child (one thread: the forking one)
 * must still run transactions, alone and in a new thread, with the invariant intact; the
 * parent's threads go on. A child that hangs (for instance waiting for a thread that does not
 * exist in it) is killed by its alarm and reported. */
#include "tmtest.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define ACCOUNTS 16
#define INITIAL_BALANCE 100
#define FORKS 20
#define CHILD_ALARM_SECONDS 45 /* below the harness timeout, far above the need */

static long accounts[ACCOUNTS];
static atomic_int stop_workers;

TMTEST_PURE static void probe_total(long total, const char *who)
{
    if (total != ACCOUNTS * INITIAL_BALANCE)
        tmtest_violation("%s: a transaction saw a bank total of %ld, expected %d", who, total,
                         ACCOUNTS * INITIAL_BALANCE);
}

static void transfer_and_audit(uint64_t *rng, const char *who)
{
    int from = (int)(tmtest_rand(rng) % ACCOUNTS), to = (int)(tmtest_rand(rng) % ACCOUNTS);
    __transaction_atomic {
        accounts[from] -= 3;
        accounts[to] += 3;
    }
    __transaction_atomic {
        long total = 0;
        for (int i = 0; i < ACCOUNTS; i++)
            total += accounts[i];
        probe_total(total, who);
    }
}

TMTEST_PURE static int workers_stopped(void)
{
    return atomic_load(&stop_workers);
}

static void child_thread_work(int index)
{
    uint64_t rng = 5u + (uint64_t)index;
    for (int i = 0; i < 1000; i++)
        transfer_and_audit(&rng, "child's new thread");
}

static void child(void)
{
    alarm(CHILD_ALARM_SECONDS);
    uint64_t rng = 3;
    for (int i = 0; i < 1000; i++)
        transfer_and_audit(&rng, "child's forking thread");
    tmtest_run_threads(1, child_thread_work);
    tmtest_check_no_violations("child after fork");
    long total = 0;
    for (int i = 0; i < ACCOUNTS; i++)
        total += accounts[i];
    if (total != ACCOUNTS * INITIAL_BALANCE)
        TMTEST_FAIL("child: bank total %ld, expected %d", total, ACCOUNTS * INITIAL_BALANCE);
    _exit(0);
}

static void role(int index)
{
    uint64_t rng = 17u * (uint64_t)(index + 1);
    if (index > 0) {
        while (!workers_stopped())
            transfer_and_audit(&rng, "parent's worker");
        return;
    }
    for (int round = 0; round < FORKS; round++) {
        for (int i = 0; i < 200; i++)
            transfer_and_audit(&rng, "parent's forking thread");
        pid_t pid = fork();
        TMTEST_CHECK(pid >= 0, "fork: %s", strerror(errno));
        if (pid == 0)
            child();
        int status;
        TMTEST_CHECK(waitpid(pid, &status, 0) == pid, "waitpid: %s", strerror(errno));
        if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM)
            TMTEST_FAIL("fork %d: the child did not finish 2000 short transactions in %d s: it "
                        "hangs in the TM runtime after fork", round, CHILD_ALARM_SECONDS);
        TMTEST_CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0,
                     "fork %d: the child failed (status %#x, see its message above)", round,
                     status);
    }
    atomic_store(&stop_workers, 1);
}

int main(int argc, char **argv)
{
    tmtest_init(argc, argv,
                "Forks 20 times while 3 threads run transactions; each child must run\n"
                "transactions in its own thread and in a new one.");
    /* GCC's libitm has no fork handling: a child forked while another thread is inside a
     * transaction waits forever for that thread in its commit (observed with ml_wt). */
    tmtest_require_libtm();
    for (int i = 0; i < ACCOUNTS; i++)
        accounts[i] = INITIAL_BALANCE;
    tmtest_run_threads(4, role);
    tmtest_check_no_violations("parent");
    long total = 0;
    for (int i = 0; i < ACCOUNTS; i++)
        total += accounts[i];
    TMTEST_CHECK(total == ACCOUNTS * INITIAL_BALANCE, "parent: bank total %ld", total);
    tmtest_note("%d forks: parent and children kept running transactions", FORKS);
    return 0;
}
