/* Privatization safety: a privatizer unlinks a node from the shared slot in a transaction and
 * then, outside any transaction, fills it with a poison pattern, checks for a while that the
 * pattern stays (no late write-back or undo by a transaction that still held the old pointer),
 * refills it and publishes it again (or, for one slot, frees it and publishes a newly
 * allocated node, which often reuses the memory). Workers increment every word of the node they find; they
 * must never commit having seen the poison, and the words they see must all be equal. */
#include "tmtest.h"

#include <stdlib.h>
#include <string.h>

#define NODE_WORDS 16
#define POISON 0x5a5a5a5a5a5a5a5aL
#define SLOTS 3
#define HEAP_SLOT 2 /* its node is freed after privatization and replaced by a new one */

struct node {
    long word[NODE_WORDS];
};

static struct node nodes[SLOTS];
static struct node *slot[SLOTS];
static int worker_count = 3;
static long worker_transactions = 20000, privatizations = 300;
/* Words of a never-written array that each worker transaction reads before its node: a longer
 * read set makes each snapshot extension (which validates it) take longer, and so widens the
 * windows in which other threads' commits and requests race with it. */
#define MAX_BACKGROUND_READS 4096
static long background[MAX_BACKGROUND_READS];
static long background_reads = 0;
static atomic_int privatizer_done;

TMTEST_PURE static void probe_node_view(const long *seen)
{
    for (int i = 1; i < NODE_WORDS; i++) {
        if (seen[i] != seen[0]) {
            tmtest_violation("a worker transaction saw word[0] = %#lx but word[%d] = %#lx in a "
                             "published node", (unsigned long)seen[0], i, (unsigned long)seen[i]);
            return;
        }
    }
}

TMTEST_PURE static int privatizer_finished(void)
{
    return atomic_load(&privatizer_done);
}

static void worker(int index)
{
    uint64_t rng = 77u + (uint64_t)index;
    for (long i = 0; i < worker_transactions && !privatizer_finished(); i++) {
        int which = (int)(tmtest_rand(&rng) % SLOTS);
        long seen[NODE_WORDS];
        int found = 0;
        long sum = 0;
        __transaction_atomic {
            for (long r = 0; r < background_reads; r++)
                sum += background[r];
            struct node *node = slot[which];
            found = node != NULL;
            if (node) {
                for (int w = 0; w < NODE_WORDS; w++) {
                    seen[w] = node->word[w];
                    node->word[w] = seen[w] + 1;
                    /* Half-way through, let the privatizer run: its commit must not let it
                     * touch the node before this transaction is finished (or rolled back). */
                    if (w == NODE_WORDS / 2 && i % 4 == 0)
                        tmtest_yield(1);
                }
                probe_node_view(seen);
            }
        }
        TMTEST_CHECK(sum == 0, "the never-written background array summed to %ld", sum);
        /* What a committed transaction saw is the committed state. */
        if (found) {
            for (int w = 0; w < NODE_WORDS; w++)
                TMTEST_CHECK(seen[w] != POISON,
                             "a committed worker transaction read the privatizer's poison in "
                             "word %d of node %d (privatization not safe)", w, which);
            probe_node_view(seen);
        }
    }
}

static void privatizer(void)
{
    for (long round = 0; round < privatizations; round++) {
        int which = (int)(round % SLOTS);
        struct node *node;
        __transaction_atomic {
            node = slot[which];
            slot[which] = NULL;
        }
        /* The node is private now: plain accesses. */
        for (int w = 0; w < NODE_WORDS; w++)
            node->word[w] = POISON;
        atomic_thread_fence(memory_order_seq_cst);
        tmtest_yield(20); /* time for a late write-back or undo to show up, if there is one */
        for (int w = 0; w < NODE_WORDS; w++)
            TMTEST_CHECK(node->word[w] == POISON,
                         "round %ld: word %d of privatized node %d changed from the poison to "
                         "%#lx after the privatizing transaction committed (a transaction "
                         "wrote or rolled back into private memory)", round, w, which,
                         (unsigned long)node->word[w]);
        if (which == HEAP_SLOT) {
            /* A late write into the freed node would corrupt the heap or the next node. */
            free(node);
            node = malloc(sizeof *node);
            TMTEST_CHECK(node != NULL, "out of memory");
        }
        long restart_value = round * 1000;
        for (int w = 0; w < NODE_WORDS; w++)
            node->word[w] = restart_value;
        __transaction_atomic {
            slot[which] = node;
        }
    }
    atomic_store(&privatizer_done, 1);
}

static void role(int index)
{
    if (index == 0)
        privatizer();
    else
        worker(index);
}

int main(int argc, char **argv)
{
    tmtest_init(argc, argv,
                "One thread privatizes nodes in transactions and poisons them outside; workers\n"
                "update the published nodes. Checks the poison stays and is never committed.\n"
                "  --workers=N (3)  --rounds=N privatizations (300)  --worker-tx=N (20000)\n"
                "  --background-reads=N words each worker transaction reads first (0, max 4096)");
    worker_count = (int)tmtest_option(argc, argv, "workers", worker_count);
    privatizations = tmtest_option(argc, argv, "rounds", privatizations);
    worker_transactions = tmtest_option(argc, argv, "worker-tx", worker_transactions);
    background_reads = tmtest_option(argc, argv, "background-reads", background_reads);
    TMTEST_CHECK(background_reads >= 0 && background_reads <= MAX_BACKGROUND_READS,
                 "--background-reads=%ld: give 0..%d", background_reads, MAX_BACKGROUND_READS);
    for (int s = 0; s < SLOTS; s++)
        slot[s] = s == HEAP_SLOT ? calloc(1, sizeof(struct node)) : &nodes[s];
    TMTEST_CHECK(slot[HEAP_SLOT] != NULL, "out of memory");

    tmtest_run_threads(1 + worker_count, role);

    tmtest_check_no_violations("node words seen equal inside worker transactions");
    for (int s = 0; s < SLOTS; s++) {
        TMTEST_CHECK(slot[s] != NULL && (s == HEAP_SLOT || slot[s] == &nodes[s]),
                     "slot %d does not hold its node at the end", s);
        for (int w = 1; w < NODE_WORDS; w++)
            TMTEST_CHECK(slot[s]->word[w] == slot[s]->word[0],
                         "node %d: word %d = %ld but word 0 = %ld at the end", s, w,
                         slot[s]->word[w], slot[s]->word[0]);
    }
    free(slot[HEAP_SLOT]);
    tmtest_note("%ld privatizations with %d concurrent workers: poison never disturbed or seen",
                privatizations, worker_count);
    return 0;
}
