/* Memory freed by a committed transaction must not go back to the allocator while a
 * transaction that read the old pointer may still read the block. One thread publishes a new
 * block and frees the old one in the same transaction; readers read one word per page of the
 * published block in theirs. Blocks are large and malloc is told to serve them with mmap, so a
 * block released too early is unmapped and a late reader faults (SIGSEGV) instead of silently
 * reading stale memory. Every word of a block holds its generation: a reader must see one
 * generation in all pages, and a committed reader a generation that was published. */
#include "tmtest.h"

#include <malloc.h>
#include <stdlib.h>
#include <time.h>

#define PAGE_WORDS (4096 / sizeof(long))

static long *published;                  /* the current block; its words hold its generation */
static long block_kib = 256, swaps = 3000, seconds = 0;
static long highest_generation;          /* what readers may see: swaps, or no bound */
static atomic_long swapped;
static int readers = 2;
static atomic_int writer_done;
static atomic_long reader_commits;

TMTEST_PURE static int finished(void)
{
    return atomic_load(&writer_done);
}

static long *new_block(long generation)
{
    size_t words = (size_t)block_kib * 1024 / sizeof(long);
    long *b = malloc(words * sizeof(long));
    TMTEST_CHECK(b != NULL, "out of memory allocating a %ld KiB block", block_kib);
    for (size_t w = 0; w < words; w++)
        b[w] = generation;
    return b;
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Publishes `swaps` blocks, or with --seconds as many as fit in that time. */
static void writer(void)
{
    double stop = now() + (double)seconds;
    long generation = 1;
    for (; seconds ? now() < stop : generation <= swaps; generation++) {
        long *fresh = new_block(generation);
        __transaction_atomic {
            long *old = published;
            published = fresh;
            free(old);
        }
    }
    atomic_store(&swapped, generation - 1);
    atomic_store(&writer_done, 1);
}

static void reader(void)
{
    size_t pages = (size_t)block_kib * 1024 / 4096;
    long committed = 0, last_generation = 0;
    while (!finished()) {
        long first = 0, other = 0;
        __transaction_atomic {
            const long *b = published;
            first = b[0];
            other = first;
            for (size_t p = 1; p < pages; p++) {
                long v = b[p * PAGE_WORDS];
                if (v != first)
                    other = v;
            }
        }
        TMTEST_CHECK(other == first, "a committed reader saw generations %ld and %ld in one block",
                     first, other);
        TMTEST_CHECK(first >= last_generation && first <= highest_generation,
                     "a committed reader saw generation %ld after %ld (of at most %ld)", first,
                     last_generation, highest_generation);
        last_generation = first;
        committed++;
    }
    atomic_fetch_add(&reader_commits, committed);
}

static void role(int index)
{
    if (index == 0)
        writer();
    else
        reader();
}

int main(int argc, char **argv)
{
    tmtest_init(argc, argv,
                "A writer swaps large mmap-served blocks and frees the old one in the same\n"
                "transaction; readers read one word per page of the current block in theirs.\n"
                "A block released while a reader may still read it faults (SIGSEGV).\n"
                "  --swaps=N blocks published (3000)  --seconds=N swap for N seconds instead\n"
                "  --readers=N (2)  --block-kib=N (256)");
    swaps = tmtest_option(argc, argv, "swaps", swaps);
    seconds = tmtest_option(argc, argv, "seconds", seconds);
    readers = (int)tmtest_option(argc, argv, "readers", readers);
    block_kib = tmtest_option(argc, argv, "block-kib", block_kib);
    TMTEST_CHECK(swaps >= 1 && seconds >= 0 && readers >= 1 && readers <= 64 && block_kib >= 8,
                 "give --swaps >= 1, --seconds >= 0, --readers in 1..64, --block-kib >= 8");
    /* A fixed threshold: glibc otherwise raises it to the size of the first mmapped block
     * freed, and later blocks would come from the heap, where a late read does not fault.
     * AddressSanitizer's allocator refuses it but reports a late read itself. */
    if (mallopt(M_MMAP_THRESHOLD, 64 * 1024) != 1)
        tmtest_note("mallopt(M_MMAP_THRESHOLD) refused (a sanitizer's allocator?): blocks may "
                    "not be unmapped when freed");
    highest_generation = seconds ? __LONG_MAX__ : swaps;
    published = new_block(0);

    tmtest_run_threads(1 + readers, role);

    free(published);
    tmtest_note("%ld blocks of %ld KiB swapped and freed in transactions while %d readers "
                "committed %ld transactions: no reader faulted or saw a torn block",
                atomic_load(&swapped),
                block_kib, readers, atomic_load(&reader_commits));
    return 0;
}
