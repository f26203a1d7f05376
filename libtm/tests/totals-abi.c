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
    tmtest_note("versioned totals: ok (commits %llu)", (unsigned long long)t.commits);
    return 0;
}
