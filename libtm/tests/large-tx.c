/* Large transactions (Atomic Quake's sizes): each transaction reads 1.5 MB (checking that the
 * sum of the shared array is constant) and writes 350 KB (its own region, every word set to
 * its stamp), while other threads do the same and move units between cells of the shared
 * array. Everything must commit correctly. */
#include "tmtest.h"

#include <stdlib.h>

#define READ_WORDS (1536 * 1024 / 8)  /* 1.5 MB */
#define WRITE_WORDS (350 * 1024 / 8)  /* 350 KB */
#define CELL_START 10

static long *read_area;
static long *write_area[8];
static int thread_count = 3;
static long transactions_per_thread = 8;

TMTEST_PURE static void probe_sum(long sum, int thread, long round)
{
    if (sum != (long)READ_WORDS * CELL_START)
        tmtest_violation("thread %d, transaction %ld: the 1.5 MB read set sums to %ld, expected "
                         "%ld", thread, round, sum, (long)READ_WORDS * CELL_START);
}

static void worker(int index)
{
    uint64_t rng = 99u + (uint64_t)index;
    long *mine = write_area[index];
    for (long round = 0; round < transactions_per_thread; round++) {
        long from = (long)(tmtest_rand(&rng) % READ_WORDS), to = (long)(tmtest_rand(&rng) % READ_WORDS);
        long stamp = index * 1000 + round + 1;
        __transaction_atomic {
            long sum = 0;
            for (long i = 0; i < READ_WORDS; i++)
                sum += read_area[i];
            probe_sum(sum, index, round);
            read_area[from] -= 1;
            read_area[to] += 1;
            for (long i = 0; i < WRITE_WORDS; i++)
                mine[i] = stamp;
        }
    }
}

int main(int argc, char **argv)
{
    tmtest_init(argc, argv,
                "Transactions reading 1.5 MB and writing 350 KB, from several threads at once.\n"
                "  --threads=N (3, at most 8)  --tx=N transactions per thread (8)");
    thread_count = (int)tmtest_option(argc, argv, "threads", thread_count);
    transactions_per_thread = tmtest_option(argc, argv, "tx", transactions_per_thread);
    TMTEST_CHECK(thread_count >= 1 && thread_count <= 8, "--threads must be 1..8");
    read_area = malloc(READ_WORDS * sizeof(long));
    TMTEST_CHECK(read_area != NULL, "out of memory");
    for (long i = 0; i < READ_WORDS; i++)
        read_area[i] = CELL_START;
    for (int t = 0; t < thread_count; t++) {
        write_area[t] = calloc(WRITE_WORDS, sizeof(long));
        TMTEST_CHECK(write_area[t] != NULL, "out of memory");
    }

    tmtest_run_threads(thread_count, worker);

    tmtest_check_no_violations("sums seen inside large transactions");
    long sum = 0;
    for (long i = 0; i < READ_WORDS; i++)
        sum += read_area[i];
    TMTEST_CHECK(sum == (long)READ_WORDS * CELL_START, "final sum %ld, expected %ld", sum,
                 (long)READ_WORDS * CELL_START);
    for (int t = 0; t < thread_count; t++) {
        long stamp = t * 1000 + transactions_per_thread;
        for (long i = 0; i < WRITE_WORDS; i++)
            TMTEST_CHECK(write_area[t][i] == stamp,
                         "thread %d's 350 KB region: word %ld = %ld, expected the last stamp %ld",
                         t, i, write_area[t][i], stamp);
    }
    tmtest_note("%d threads x %ld transactions of 1.5 MB read + 350 KB written: correct",
                thread_count, transactions_per_thread);
    return 0;
}
