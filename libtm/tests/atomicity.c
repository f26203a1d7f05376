/* Atomicity and isolation under contention: 16 threads (on however many cores) run bank
 * transfers, counter-array increments and moves in a doubly linked ring; audit transactions
 * check the invariants from inside (through transaction_pure probes) and the main thread
 * checks them again at the end. */
#include "tmtest.h"

#include <stdio.h>

#define ACCOUNTS 24
#define INITIAL_BALANCE 1000
#define COUNTERS 8
#define RING_NODES 32

static long accounts[ACCOUNTS];
static long counters[COUNTERS];

struct ring_node {
    struct ring_node *next, *prev;
    int id;
};
static struct ring_node ring[RING_NODES]; /* ring[0] is the fixed head */

static int thread_count = 16;
static long operations_per_thread = 10000;
static atomic_long counter_increments;

TMTEST_PURE static void probe_bank_total(long total)
{
    if (total != (long)ACCOUNTS * INITIAL_BALANCE)
        tmtest_violation("audit transaction saw a bank total of %ld, expected %ld", total,
                         (long)ACCOUNTS * INITIAL_BALANCE);
}

TMTEST_PURE static void probe_counters(long first, long other, int index)
{
    if (first != other)
        tmtest_violation("audit transaction saw counters[0]=%ld but counters[%d]=%ld", first,
                         index, other);
}

TMTEST_PURE static void probe_ring(int visited, int links_ok)
{
    if (visited != RING_NODES || !links_ok)
        tmtest_violation("audit transaction walked the ring and visited %d nodes (expected %d),"
                         " back links %s", visited, RING_NODES, links_ok ? "ok" : "broken");
}

/* Every 64th transfer lets other threads run between its debit and its credit, so that
 * transactions really overlap even on few cores. */
static void transfer(uint64_t *rng)
{
    int from = (int)(tmtest_rand(rng) % ACCOUNTS);
    int to = (int)(tmtest_rand(rng) % ACCOUNTS);
    long amount = (long)(tmtest_rand(rng) % 50);
    int pause = tmtest_rand(rng) % 64 == 0;
    __transaction_atomic {
        accounts[from] -= amount;
        if (pause)
            tmtest_yield(1);
        accounts[to] += amount;
    }
}

static void increment_counters(void)
{
    __transaction_atomic {
        for (int i = 0; i < COUNTERS; i++)
            counters[i]++;
    }
    atomic_fetch_add(&counter_increments, 1);
}

/* Unlinks one node and puts it right after the head. */
static void move_to_front(uint64_t *rng)
{
    struct ring_node *node = &ring[1 + tmtest_rand(rng) % (RING_NODES - 1)];
    __transaction_atomic {
        node->prev->next = node->next;
        node->next->prev = node->prev;
        node->next = ring[0].next;
        node->prev = &ring[0];
        ring[0].next->prev = node;
        ring[0].next = node;
    }
}

static void audit(void)
{
    __transaction_atomic {
        long total = 0;
        for (int i = 0; i < ACCOUNTS; i++)
            total += accounts[i];
        probe_bank_total(total);

        long first = counters[0];
        for (int i = 1; i < COUNTERS; i++)
            probe_counters(first, counters[i], i);

        /* Bounded walk: an inconsistent ring must not loop forever. */
        int visited = 0, links_ok = 1;
        struct ring_node *node = &ring[0];
        do {
            if (node->next->prev != node)
                links_ok = 0;
            node = node->next;
            visited++;
        } while (node != &ring[0] && visited <= RING_NODES);
        probe_ring(visited, links_ok);
    }
}

static void worker(int index)
{
    uint64_t rng = 0x9e3779b97f4a7c15ULL * (uint64_t)(index + 1);
    for (long i = 0; i < operations_per_thread; i++) {
        unsigned op = (unsigned)(tmtest_rand(&rng) % 10);
        if (op < 5)
            transfer(&rng);
        else if (op < 7)
            increment_counters();
        else if (op < 9)
            move_to_front(&rng);
        else
            audit();
    }
}

int main(int argc, char **argv)
{
    tmtest_init(argc, argv,
                "Runs bank transfers, counter increments and ring moves in transactions from\n"
                "many threads and checks the invariants inside audit transactions and at the end.\n"
                "  --threads=N (16)  --ops=N operations per thread (10000)");
    thread_count = (int)tmtest_option(argc, argv, "threads", thread_count);
    operations_per_thread = tmtest_option(argc, argv, "ops", operations_per_thread);

    for (int i = 0; i < ACCOUNTS; i++)
        accounts[i] = INITIAL_BALANCE;
    for (int i = 0; i < RING_NODES; i++) {
        ring[i].id = i;
        ring[i].next = &ring[(i + 1) % RING_NODES];
        ring[i].prev = &ring[(i + RING_NODES - 1) % RING_NODES];
    }

    tmtest_run_threads(thread_count, worker);

    tmtest_check_no_violations("invariants checked inside audit transactions");
    long total = 0;
    for (int i = 0; i < ACCOUNTS; i++)
        total += accounts[i];
    TMTEST_CHECK(total == (long)ACCOUNTS * INITIAL_BALANCE,
                 "bank total after all transfers is %ld, expected %ld (lost or duplicated update)",
                 total, (long)ACCOUNTS * INITIAL_BALANCE);
    long expected = atomic_load(&counter_increments);
    for (int i = 0; i < COUNTERS; i++)
        TMTEST_CHECK(counters[i] == expected,
                     "counters[%d] = %ld after %ld committed increment transactions", i,
                     counters[i], expected);
    int visited = 0;
    struct ring_node *node = &ring[0];
    do {
        TMTEST_CHECK(node->next->prev == node, "ring: node %d's next (%d) does not point back",
                     node->id, node->next->id);
        node = node->next;
        visited++;
    } while (node != &ring[0] && visited <= RING_NODES);
    TMTEST_CHECK(visited == RING_NODES, "ring has %d reachable nodes, expected %d", visited,
                 RING_NODES);
    tmtest_note("%d threads x %ld operations: invariants held (%ld counter increments)",
                thread_count, operations_per_thread, expected);
    return 0;
}
