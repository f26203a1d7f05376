/* Progress: a transaction that conflicts on every attempt must still commit. The victim reads
 * a shared word, then waits (boundedly) until the hammer thread's next transaction has
 * changed that word in memory, then writes: no speculative execution of the victim can
 * commit, so the runtime has to fall back to something that excludes the hammer (serial or
 * irrevocable mode). The test fails by timing out when the victim starves. */
#include "tmtest.h"

struct contended {
    long hot;
    char gap[4096];
    long victim_result;
};
static struct contended shared;
static atomic_long hammer_commits;
static atomic_int victim_done;
static atomic_long victim_attempts;
static long victim_transactions = 20;

/* Waits until the word no longer holds `seen` (a plain load: the hammer's store shows as soon
 * as it is made, committed or not); gives up after a bounded number of yields, because a
 * runtime that runs the victim alone blocks the hammer meanwhile. */
TMTEST_PURE static void wait_for_hammer(const long *word, long seen)
{
    atomic_fetch_add(&victim_attempts, 1);
    for (int i = 0; i < 2000 && __atomic_load_n(word, __ATOMIC_ACQUIRE) == seen; i++)
        tmtest_yield(1);
}

static void victim(void)
{
    for (long i = 0; i < victim_transactions; i++) {
        __transaction_atomic {
            long hot = shared.hot;
            wait_for_hammer(&shared.hot, hot);
            shared.victim_result = hot + 1;
        }
    }
    atomic_store(&victim_done, 1);
}

static void hammer(void)
{
    while (!atomic_load(&victim_done)) {
        __transaction_atomic {
            shared.hot++;
        }
        atomic_fetch_add(&hammer_commits, 1);
    }
}

static void role(int index)
{
    if (index == 0)
        victim();
    else
        hammer();
}

int main(int argc, char **argv)
{
    tmtest_init(argc, argv,
                "A transaction that conflicts on every speculative attempt must still commit\n"
                "(the test times out otherwise).  --victim-tx=N (20)");
    victim_transactions = tmtest_option(argc, argv, "victim-tx", victim_transactions);
    tmtest_run_threads(2, role);
    TMTEST_CHECK(shared.victim_result > 0 && shared.victim_result <= shared.hot + 1,
                 "victim result %ld is not hot+1 of some committed state (hot = %ld)",
                 shared.victim_result, shared.hot);
    tmtest_note("%ld victim transactions committed after %ld attempts; the hammer committed %ld",
                victim_transactions, atomic_load(&victim_attempts), atomic_load(&hammer_commits));
    return 0;
}
