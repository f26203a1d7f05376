/* Transactional malloc/calloc/free (GCC turns them into _ITM_malloc/_ITM_calloc/_ITM_free
 * inside transactions): a block allocated in a transaction that is cancelled is freed; a
 * free inside a transaction is deferred to the commit and forgotten on cancel; a cancelled
 * nested transaction frees only its own allocations. Live blocks are counted by a malloc
 * wrapper (common/malloc-tracker.c). */
#include "malloc-tracker.h"
#include "tmtest.h"

#include <stdlib.h>

/* The probes look at a block after the transaction freed it: on purpose (the free must not
 * have happened yet), and only through the tracker, never dereferencing it. */
#pragma GCC diagnostic ignored "-Wuse-after-free"
#include <stdio.h>
#include <string.h>

#define SIZE_A 4001
#define SIZE_B 4003

/* Each thread works on its own slot (shared memory, but not shared between the threads:
 * the checks after each transaction must see only this thread's doing). */
struct slot {
    char *block;
    long word;
    char padding[48];
};
static struct slot slots[2];

TMTEST_PURE static void probe_still_allocated(const void *p, const char *when)
{
    /* An irrevocable transaction runs GCC's uninstrumented code path, which calls the plain
     * free(): nothing can be rolled back there, so an immediate free is correct. */
    if (_ITM_inTransaction() == tmtest_irrevocable)
        return;
    if (!tracked_is_live(p))
        tmtest_violation("a block freed inside a transaction was already released %s "
                         "(frees must be deferred to the commit)", when);
}

TMTEST_PURE static void probe_zeroed(const char *p, size_t size)
{
    for (size_t i = 0; i < size; i++)
        if (p[i]) {
            tmtest_violation("calloc inside a transaction returned a non-zero byte at %zu", i);
            return;
        }
}

static void expect_live(const char *who, const char *scenario, long expected)
{
    long live = tracked_live_blocks();
    TMTEST_CHECK(live == expected, "%s: %s: %ld tracked blocks are live, expected %ld", who,
                 scenario, live, expected);
}

/* While other threads run transactions, a block that a committed transaction freed may stay
 * allocated until no transaction that could still read it runs (libtm releases it later, by
 * the thread's exit at the latest: main checks that nothing is left); alone, it is freed at
 * once. */
static int other_threads_run;

static void expect_freed(const char *who, const char *scenario, long expected, long freed)
{
    long live = tracked_live_blocks();
    if (!other_threads_run) {
        expect_live(who, scenario, expected);
        return;
    }
    TMTEST_CHECK(live >= expected && live <= expected + freed,
                 "%s: %s: %ld tracked blocks are live, expected %ld to %ld (freed blocks may "
                 "wait for other threads' transactions)", who, scenario, live, expected,
                 expected + freed);
}

static int check_nested; /* see main */

static void scenarios(const char *who, struct slot *slot)
{
    long base = tracked_live_blocks();

    for (int repeat = 0; repeat < 200; repeat++) {
        /* Allocation in a cancelled transaction is freed. */
        __transaction_atomic {
            char *p = malloc(SIZE_A);
            if (p) {
                p[0] = 1;
                slot->block = p;
            }
            slot->word = 1;
            __transaction_cancel;
        }
        TMTEST_CHECK(slot->block == NULL, "%s: a cancelled transaction's pointer survived", who);
        expect_live(who, "after cancelling a transaction that called malloc", base);

        __transaction_atomic {
            char *p = calloc(1, SIZE_B);
            if (p)
                probe_zeroed(p, SIZE_B);
            slot->block = p;
            __transaction_cancel;
        }
        expect_live(who, "after cancelling a transaction that called calloc", base);

        /* malloc + free in one transaction, committed and cancelled. */
        __transaction_atomic {
            char *p = malloc(SIZE_A);
            slot->word = 2;
            free(p);
        }
        expect_live(who, "after committing a transaction that allocated and freed a block", base);
        __transaction_atomic {
            char *p = malloc(SIZE_A);
            slot->word = 3;
            free(p);
            __transaction_cancel;
        }
        expect_live(who, "after cancelling a transaction that allocated and freed a block", base);
    }

    /* Committed allocation stays. */
    __transaction_atomic {
        char *p = calloc(1, SIZE_B);
        if (p)
            probe_zeroed(p, SIZE_B);
        slot->block = p;
    }
    TMTEST_CHECK(slot->block != NULL, "%s: calloc in a committed transaction returned NULL", who);
    expect_live(who, "after committing a transaction that called calloc", base + 1);

    /* A free is deferred to the commit and forgotten on cancel. */
    memset(slot->block, 0x77, SIZE_B);
    char *block = slot->block;
    __transaction_atomic {
        free(slot->block);
        probe_still_allocated(block, "before the transaction ended");
        slot->block = NULL;
        __transaction_cancel;
    }
    TMTEST_CHECK(slot->block == block, "%s: cancelled transaction's pointer update survived", who);
    expect_live(who, "after cancelling a transaction that freed a block", base + 1);
    for (int i = 0; i < SIZE_B; i++)
        TMTEST_CHECK(block[i] == 0x77, "%s: byte %d of a block whose free was cancelled changed",
                     who, i);
    __transaction_atomic {
        free(slot->block);
        probe_still_allocated(block, "before the transaction ended");
        slot->block = NULL;
    }
    tmtest_check_no_violations(who);
    expect_freed(who, "after committing a transaction that freed a block", base, 1);

    if (!check_nested)
        return;
    /* Nested: the inner cancel frees only the inner's allocation and forgets its free. */
    char *outer_block = NULL;
    __transaction_atomic {
        outer_block = malloc(SIZE_A);
        slot->word = 4;
        __transaction_atomic {
            char *inner = malloc(SIZE_B);
            slot->block = inner;
            free(outer_block);
            __transaction_cancel;
        }
        slot->word = 5;
    }
    TMTEST_CHECK(outer_block != NULL && tracked_is_live(outer_block),
                 "%s: the outer transaction's block was freed by the cancelled inner transaction",
                 who);
    expect_freed(who, "after an outer transaction whose nested transaction allocated and was "
                 "cancelled", base + 1, 1);
    free(outer_block);
    expect_freed(who, "at the end", base, 1);
}

static void thread_scenarios(int index)
{
    scenarios(index == 0 ? "thread 0 (of 2)" : "thread 1 (of 2)", &slots[index]);
}

int main(int argc, char **argv)
{
    tmtest_init(argc, argv,
                "Checks that allocations of cancelled transactions are freed and that frees in\n"
                "transactions are deferred to the commit (counting live blocks).");
    check_nested = 1;
    scenarios("single-threaded process", &slots[0]);
    tmtest_note("single thread: transactional malloc/calloc/free correct");
    if (tmtest_runtime_is_gcc()) {
        check_nested = 0;
        tmtest_note("not checking allocations of cancelled nested transactions with two threads "
                    "on GCC's libitm: its ml_wt/gl_wt methods (the default without RTM) leak the "
                    "block allocated by the cancelled inner transaction");
    }
    other_threads_run = 1;
    tmtest_run_threads(2, thread_scenarios);
    TMTEST_CHECK(tracked_live_blocks_all() == 0,
                 "%ld tracked blocks still allocated after both threads ended (a block freed in "
                 "a committed transaction was never released)", tracked_live_blocks_all());
    tmtest_note("two threads: transactional malloc/calloc/free correct");
    return 0;
}
