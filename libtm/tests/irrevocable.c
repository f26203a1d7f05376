/* Irrevocability: a __transaction_relaxed that calls an uninstrumented function (write(2) to a
 * pipe, in another translation unit) must run serial-irrevocable: _ITM_inTransaction() says 2,
 * no other transaction executes its body meanwhile (speculative transactions check a flag the
 * irrevocable one raises from inside), the unsafe call happens exactly once per transaction,
 * and the bank invariant holds. A call through a pointer to a function without a
 * transactional clone must also go irrevocable. */
#include "tmtest.h"
#include "unsafe-helpers.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#define ACCOUNTS 32
#define INITIAL_BALANCE 100

static long accounts[ACCOUNTS];
static int pipe_fds[2];
static long irrevocable_transactions = 60, speculative_threads = 3;
static atomic_int irrevocable_running, irrevocable_done;
static atomic_long speculative_bodies;
static long (*no_clone_function)(long);
static long no_clone_result;

TMTEST_PURE static void irrevocable_section(long round)
{
    int mode = _ITM_inTransaction();
    if (mode != tmtest_irrevocable)
        tmtest_violation("round %ld: after the unsafe call _ITM_inTransaction() = %d, expected 2 "
                         "(serial-irrevocable)", round, mode);
    atomic_store(&irrevocable_running, 1);
    /* Give any (wrongly) concurrent transaction time to run into the flag. */
    tmtest_yield(20);
    atomic_store(&irrevocable_running, 0);
}

TMTEST_PURE static void speculative_probe(const char *where)
{
    atomic_fetch_add(&speculative_bodies, 1);
    if (atomic_load(&irrevocable_running))
        tmtest_violation("a speculative transaction executed (%s) while an irrevocable "
                         "transaction was running", where);
}

TMTEST_PURE static int irrevocable_finished(void)
{
    return atomic_load(&irrevocable_done);
}

/* The compiler cannot know this stays 1: GCC then gives the transaction only an uninstrumented
 * code path without pr_doesGoIrrevocable, which must start irrevocable as well. */
static volatile int go_irrevocable_later = 1;

static void irrevocable_thread(void)
{
    for (long round = 0; round < irrevocable_transactions; round++) {
        int from = (int)(round % ACCOUNTS), to = (int)((round * 7 + 3) % ACCOUNTS);
        if (round % 2 == 0) {
            /* Certainly irrevocable: GCC marks it pr_doesGoIrrevocable. */
            __transaction_relaxed {
                accounts[from] -= 5;
                unsafe_write_long(pipe_fds[1], round);
                irrevocable_section(round);
                accounts[to] += 5;
            }
        } else {
            /* Might not go irrevocable, as far as the compiler knows. */
            __transaction_relaxed {
                accounts[from] -= 5;
                if (go_irrevocable_later) {
                    unsafe_write_long(pipe_fds[1], round);
                    irrevocable_section(round);
                }
                accounts[to] += 5;
            }
        }
        /* Missing clone: an indirect call to a function with no transactional clone switches
         * a running (instrumented) transaction to irrevocable mode in the middle. */
        unsafe_increment_saw_mode = -1;
        __transaction_relaxed {
            accounts[to] += 1;
            no_clone_result = no_clone_function(no_clone_result);
            irrevocable_section(round);
            accounts[from] -= 1;
        }
        TMTEST_CHECK(unsafe_increment_saw_mode == tmtest_irrevocable,
                     "round %ld: a function without a transactional clone, called through a "
                     "pointer in a relaxed transaction, saw _ITM_inTransaction() = %d, expected 2",
                     round, unsafe_increment_saw_mode);
    }
    atomic_store(&irrevocable_done, 1);
}

static void speculative_thread(int index)
{
    uint64_t rng = 1234567u * (uint64_t)index;
    while (!irrevocable_finished()) {
        int from = (int)(tmtest_rand(&rng) % ACCOUNTS), to = (int)(tmtest_rand(&rng) % ACCOUNTS);
        __transaction_atomic {
            speculative_probe("at its start");
            accounts[from] -= 1;
            accounts[to] += 1;
            speculative_probe("after its writes");
        }
    }
}

static void role(int index)
{
    if (index == 0)
        irrevocable_thread();
    else
        speculative_thread(index);
}

int main(int argc, char **argv)
{
    tmtest_init(argc, argv,
                "Relaxed transactions with unsafe calls (write to a pipe, a function without a\n"
                "clone) must run serial-irrevocable, alone, and exactly once.\n"
                "  --rounds=N (60)  --threads=N speculative threads (3)");
    irrevocable_transactions = tmtest_option(argc, argv, "rounds", irrevocable_transactions);
    speculative_threads = tmtest_option(argc, argv, "threads", speculative_threads);
    TMTEST_CHECK(pipe(pipe_fds) == 0, "pipe: %s", strerror(errno));
    TMTEST_CHECK(irrevocable_transactions * (long)sizeof(long) < 60000,
                 "--rounds too large for the pipe buffer");
    for (int i = 0; i < ACCOUNTS; i++)
        accounts[i] = INITIAL_BALANCE;
    no_clone_function = unsafe_increment_pointer();

    /* Alone first (single-threaded process), then with speculative threads. */
    __transaction_relaxed {
        accounts[0] += 0;
        unsafe_write_long(pipe_fds[1], -1);
        irrevocable_section(-1);
    }
    tmtest_run_threads(1 + (int)speculative_threads, role);

    tmtest_check_no_violations("irrevocable transactions");
    long total = 0;
    for (int i = 0; i < ACCOUNTS; i++)
        total += accounts[i];
    TMTEST_CHECK(total == ACCOUNTS * INITIAL_BALANCE, "bank total %ld, expected %d", total,
                 ACCOUNTS * INITIAL_BALANCE);
    TMTEST_CHECK(no_clone_result == irrevocable_transactions,
                 "the clone-less function's result is %ld after %ld transactions (each must run "
                 "it exactly once)", no_clone_result, irrevocable_transactions);

    /* Every irrevocable transaction wrote to the pipe exactly once, in order. */
    close(pipe_fds[1]);
    fcntl(pipe_fds[0], F_SETFL, O_NONBLOCK);
    long value, expected = -1, count = 0;
    while (read(pipe_fds[0], &value, sizeof value) == (ssize_t)sizeof value) {
        TMTEST_CHECK(value == expected, "the pipe holds %ld where %ld was expected: an "
                     "irrevocable transaction's unsafe call ran twice or not at all", value,
                     expected);
        expected++;
        count++;
    }
    TMTEST_CHECK(count == irrevocable_transactions + 1,
                 "the pipe holds %ld writes, expected %ld (one per irrevocable transaction)",
                 count, irrevocable_transactions + 1);
    tmtest_note("%ld irrevocable transactions ran alone (%ld speculative bodies executed "
                "meanwhile, none during them)", irrevocable_transactions,
                atomic_load(&speculative_bodies));
    return 0;
}
