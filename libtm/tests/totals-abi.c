/* The versioned counters (libtm.h): libtm_totals_read writes exactly the caller's sizeof, so a
 * program built against a shorter struct libtm_totals keeps working; the LIBTM_1.0 entry point
 * libtm_get_totals, which old binaries call, fills only the six fields it was published with.
 * Words after the caller's struct are canaries that must survive. libtm-only. */
#include "tmtest.h"
#include "libtm.h"

#include <string.h>

/* What a binary built against LIBTM_1.0 calls. */
void old_get_totals(struct libtm_totals *t);
__asm__(".symver old_get_totals, libtm_get_totals@LIBTM_1.0");

#define CANARY 0x5a5a5a5a5a5a5a5aull

static long counter;

/* Unsafe (not transaction_safe, defined elsewhere in effect): a relaxed transaction that calls
 * it must become irrevocable. */
__attribute__((noinline, noipa)) void unsafe_increment(long *p);
__attribute__((noinline, noipa)) void unsafe_increment(long *p)
{
    __asm__ volatile("" ::: "memory");
    (*p)++;
}

int main(int argc, char **argv)
{
    tmtest_init(argc, argv, "totals-abi: the struct libtm_totals contract (size argument, "
                            "LIBTM_1.0 compatibility)");
    tmtest_require_libtm();
    for (int i = 0; i < 100; i++)
        __transaction_atomic { counter++; }

    uint64_t words[16];
    const size_t six = 6 * sizeof(uint64_t);
    for (size_t i = 0; i < 16; i++)
        words[i] = CANARY;
    old_get_totals((struct libtm_totals *)words);
    TMTEST_CHECK(words[0] >= 100, "LIBTM_1.0 libtm_get_totals: commits = %llu, expected >= 100",
                 (unsigned long long)words[0]);
    for (size_t i = 6; i < 16; i++)
        TMTEST_CHECK(words[i] == CANARY, "LIBTM_1.0 libtm_get_totals wrote word %zu, beyond "
                     "the six fields of the LIBTM_1.0 struct", i);

    for (size_t i = 0; i < 16; i++)
        words[i] = CANARY;
    libtm_totals_read((struct libtm_totals *)words, six);
    TMTEST_CHECK(words[0] >= 100, "libtm_totals_read: commits = %llu, expected >= 100",
                 (unsigned long long)words[0]);
    for (size_t i = 6; i < 16; i++)
        TMTEST_CHECK(words[i] == CANARY, "libtm_totals_read(size %zu) wrote word %zu", six, i);

    struct libtm_totals t;
    memset(&t, 0xff, sizeof t);
    libtm_get_totals(&t); /* the header's spelling: today's full struct */
    TMTEST_CHECK(t.commits >= 100 && t.commits != UINT64_MAX && t.htm_aborts != UINT64_MAX,
                 "libtm_get_totals(&t) left fields unwritten (commits %llu)",
                 (unsigned long long)t.commits);
    TMTEST_CHECK(counter == 100, "counter = %ld", counter);

    /* Serial runs that the runtime chose (one thread: every transaction runs alone) are not
     * counted as irrevocable; a transaction that the code makes irrevocable is. */
    TMTEST_CHECK(t.irrevocable == 0 && t.serial >= 100,
                 "one thread, 100 plain transactions: irrevocable %llu (want 0: run serially by "
                 "the runtime's choice), serial %llu (want >= 100)",
                 (unsigned long long)t.irrevocable, (unsigned long long)t.serial);
    __transaction_relaxed { unsafe_increment(&counter); }
    libtm_get_totals(&t);
    TMTEST_CHECK(t.irrevocable == 1, "after a relaxed transaction with an unsafe call: "
                 "irrevocable %llu, want 1", (unsigned long long)t.irrevocable);
    tmtest_note("versioned totals: ok (commits %llu)", (unsigned long long)t.commits);
    return 0;
}
