/* Opacity across privatization and republication with the same pointer (the ABA that broke
 * orec's first value-checked revalidation, 82f6087): a reader transaction reads the slot (the
 * node) and the node's word 0, then, inside the transaction, lets another thread privatize
 * the node in a transaction, change both words with plain stores (no ownership record shows
 * them) and publish the same node again. The reader then reads word 1. The slot holds its old
 * value again, but word 0 does not: the reader must restart, never see word 0 and word 1 from
 * different moments. The reader is read-only until then, so the privatizer does not wait for
 * it (privatization.c). Handshaken rounds: run with a forced software algorithm
 * (LIBTM_ALGO=orec or norec), whose transactions can wait for each other. */
#include "tmtest.h"

struct node {
    long word[2];
};

static struct node node = { { 0, 0 } };
static struct node *slot = &node;
static long rounds = 200;
static atomic_long reader_read, cycle_done;
static long waited_round = -1;
static long committed_with_node;

/* Outside libtm's view: the reader's first attempt of each round lets the cycle happen. */
TMTEST_PURE static void let_the_cycle_run(long round)
{
    if (waited_round == round)
        return;
    waited_round = round;
    atomic_store(&reader_read, round);
    while (atomic_load(&cycle_done) != round)
        tmtest_yield(1);
}

TMTEST_PURE static void probe(long round, long w0, long w1)
{
    if (w0 != w1)
        tmtest_violation("round %ld: a reader transaction saw word[0] = %ld but word[1] = %ld "
                         "of a published node", round, w0, w1);
}

static void reader(long round)
{
    long w0 = 0, w1 = 0;
    int found = 0;
    __transaction_atomic {
        struct node *n = slot;
        found = n != NULL;
        if (n) {
            w0 = n->word[0];
            let_the_cycle_run(round);
            w1 = n->word[1];
            probe(round, w0, w1);
        }
    }
    if (found) {
        TMTEST_CHECK(w0 == w1, "round %ld: committed with word[0] = %ld, word[1] = %ld", round, w0,
                     w1);
        committed_with_node++;
    }
}

static void cycler(long round)
{
    while (atomic_load(&reader_read) != round)
        tmtest_yield(1);
    struct node *n;
    __transaction_atomic {
        n = slot;
        slot = NULL;
    }
    /* Private now: plain stores, which no ownership record shows. */
    n->word[0] = round;
    n->word[1] = round;
    __transaction_atomic { slot = n; }
    atomic_store(&cycle_done, round);
}

static void role(int index)
{
    /* Both threads register before the first handshake (a registration waits for running
     * transactions). */
    static atomic_int registered;
    __transaction_atomic { node.word[0] += 0; }
    atomic_fetch_add(&registered, 1);
    while (atomic_load(&registered) != 2)
        tmtest_yield(1);
    for (long r = 1; r <= rounds; r++) {
        if (index == 0)
            reader(r);
        else
            cycler(r);
    }
}

int main(int argc, char **argv)
{
    tmtest_init(argc, argv,
                "A reader sees a node privatized, changed with plain stores and republished\n"
                "under the same pointer between two of its reads; it must restart.\n"
                "  --rounds=N (200)");
    rounds = tmtest_option(argc, argv, "rounds", rounds);
    tmtest_run_threads(2, role);
    tmtest_check_no_violations("the node's words seen equal inside reader transactions");
    TMTEST_CHECK(committed_with_node == rounds, "the reader committed %ld of %ld rounds with the node",
                 committed_with_node, rounds);
    tmtest_note("%ld rounds: the republished node was never seen half old", rounds);
    return 0;
}
