/* A small transactional program linked against GCC's libitm (no libtm -L, no rpath): the
 * drop-in test runs it on libtm through LD_LIBRARY_PATH. Prints the runtime's
 * _ITM_libraryVersion() on stdout and checks a bank invariant with two threads. */
#include "tmtest.h"

#include <stdio.h>

static long accounts[8];

static void worker(int index)
{
    for (int i = 0; i < 2000; i++) {
        int from = (i + index) % 8, to = (i * 3 + 1) % 8;
        __transaction_atomic {
            accounts[from] -= 1;
            accounts[to] += 1;
        }
        __transaction_atomic {
            accounts[to] = accounts[to] + 0;
            if (i % 5 == 0)
                __transaction_cancel;
        }
    }
}

int main(int argc, char **argv)
{
    tmtest_init(argc, argv,
                "Runs a few transactions and prints the TM runtime's version; built against\n"
                "GCC's libitm, to be run on libtm with LD_LIBRARY_PATH.");
    printf("runtime: %s\n", _ITM_libraryVersion());
    tmtest_run_threads(2, worker);
    long total = 0;
    for (int i = 0; i < 8; i++)
        total += accounts[i];
    TMTEST_CHECK(total == 0, "bank total %ld, expected 0", total);
    return 0;
}
