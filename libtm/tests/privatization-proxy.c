/* Privatization through a read-only transaction ("proxy privatization"). Thread P commits
 * `priv = published; published = NULL`; thread R sees `priv` in a read-only transaction, commits
 * and from then on treats the node as private. A third thread W still runs a transaction that
 * read `published` before P's commit: it is doomed, but it has not noticed yet (it waits inside
 * the transaction, in pure code, for R to finish, up to a bound).
 *   delayed cleanup: W wrote the node in place before P's commit. R reads the node outside any
 *     transaction; what it reads must be what the node finally holds once W is done (W's value
 *     if W committed, the old value if W rolled back), never a value that is later undone.
 *   doomed reader:   W reads the node after R wrote it privately. No transaction, not even one
 *     that will abort, may see R's private value.
 * A runtime that lets a read-only transaction commit without waiting for older transactions
 * fails both (R does not wait for W); with the wait, W's bounded wait ends, W aborts (or
 * commits first, under algorithms that serialise writers) and R goes on. */
#include "tmtest.h"

#include <pthread.h>
#include <time.h>

#define CLEAN 1000L
#define DIRTY 2000L
#define PRIVATE 3000L
#define WAIT_NS (20 * 1000 * 1000L) /* W's bound: far longer than R needs to check */

struct node {
    _Alignas(64) long value;
};

/* Each on its own cache line, so that their ownership records differ. */
static _Alignas(64) struct node node;
static _Alignas(64) struct node *published;
static _Alignas(64) struct node *priv;
static atomic_int w_touched, r_done;
static long rounds = 20;
static enum { DELAYED_CLEANUP, DOOMED_READER } pattern;
static long r_saw;

TMTEST_PURE static void flag_set(atomic_int *flag) { atomic_store(flag, 1); }

/* Waits, inside a transaction, until *flag is set or WAIT_NS passed (pure: not instrumented,
 * never undone). */
TMTEST_PURE static void flag_wait_bounded(atomic_int *flag)
{
    struct timespec start, now;
    clock_gettime(CLOCK_MONOTONIC, &start);
    while (!atomic_load(flag)) {
        sched_yield();
        clock_gettime(CLOCK_MONOTONIC, &now);
        if ((now.tv_sec - start.tv_sec) * 1000000000L + (now.tv_nsec - start.tv_nsec) > WAIT_NS)
            return;
    }
}

TMTEST_PURE static void note_seen(long seen)
{
    if (seen == PRIVATE)
        tmtest_violation("a transaction read the value %ld that the privatizing thread wrote "
                         "outside any transaction after its read-only transaction committed", seen);
}

/* W: doomed by P's commit once it has read `published`. */
static void *writer_or_reader(void *arg)
{
    (void)arg;
    __transaction_atomic {
        struct node *p = published;
        if (p) {
            if (pattern == DELAYED_CLEANUP) {
                p->value = DIRTY;
                flag_set(&w_touched);
                flag_wait_bounded(&r_done);
            } else {
                flag_set(&w_touched);
                flag_wait_bounded(&r_done);
                note_seen(p->value);
            }
        }
    }
    return NULL;
}

static void *privatizer_p(void *arg)
{
    (void)arg;
    while (!atomic_load(&w_touched))
        sched_yield();
    __transaction_atomic {
        priv = published;
        published = NULL;
    }
    return NULL;
}

/* R: privatizes through a read-only transaction, then uses the node with plain accesses. */
static void *privatizer_r(void *arg)
{
    (void)arg;
    struct node *mine = NULL;
    while (!mine) {
        __transaction_atomic { mine = priv; }
        if (!mine)
            sched_yield();
    }
    if (pattern == DELAYED_CLEANUP)
        r_saw = mine->value;
    else
        mine->value = PRIVATE;
    atomic_store(&r_done, 1);
    return NULL;
}

static void run_round(long round)
{
    node.value = CLEAN;
    published = &node;
    priv = NULL;
    atomic_store(&w_touched, 0);
    atomic_store(&r_done, 0);
    pthread_t w, p, r;
    TMTEST_CHECK(pthread_create(&r, NULL, privatizer_r, NULL) == 0, "pthread_create");
    TMTEST_CHECK(pthread_create(&p, NULL, privatizer_p, NULL) == 0, "pthread_create");
    TMTEST_CHECK(pthread_create(&w, NULL, writer_or_reader, NULL) == 0, "pthread_create");
    pthread_join(w, NULL);
    pthread_join(p, NULL);
    pthread_join(r, NULL);
    if (pattern == DELAYED_CLEANUP)
        TMTEST_CHECK(r_saw == node.value,
                     "round %ld: after its read-only transaction saw the node privatized, R read "
                     "%ld from it, but the node holds %ld once the older transaction finished "
                     "(R read a write that was rolled back: the read-only commit did not wait)",
                     round, r_saw, node.value);
    else
        tmtest_check_no_violations("doomed reader");
}

int main(int argc, char **argv)
{
    tmtest_init(argc, argv,
                "Privatization through a read-only transaction, with an older doomed writer\n"
                "(delayed cleanup) and an older doomed reader.\n"
                "  --rounds=N rounds per pattern (20)\n"
                "  --pattern=N 1: delayed cleanup only, 2: doomed reader only (0: both)");
    rounds = tmtest_option(argc, argv, "rounds", rounds);
    long only = tmtest_option(argc, argv, "pattern", 0);
    for (pattern = DELAYED_CLEANUP; pattern <= DOOMED_READER; pattern++)
        if (only == 0 || only == (long)pattern + 1)
            for (long round = 0; round < rounds; round++)
                run_round(round);
    tmtest_note("%ld rounds of each pattern: read-only privatization safe", rounds);
    return 0;
}
