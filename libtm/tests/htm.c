/* Hardware transactions (Intel RTM): with several threads libtm runs transactions that cannot
 * cancel in RTM transactions, with the serial lock as fallback. This checks that it does (the
 * totals count hardware commits; none when the CPU lacks RTM, with LIBTM_HTM=0 or with a forced
 * LIBTM_ALGO) and that hardware transactions stay atomic while serial-irrevocable transactions
 * (a relaxed transaction calling uninstrumented code) and cancellable ones (serial with undo
 * log while htm mode is on) run concurrently: transfers keep the bank total, every audit sees
 * the total, _ITM_inTransaction says 1 or 2 inside and commit actions run exactly once. Exits 77
 * without RTM after the atomicity checks. */
#include "tmtest.h"
#include "unsafe-helpers.h"
#include "libtm.h"

#include <cpuid.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define ACCOUNTS 64
#define INITIAL_BALANCE 1000
#define TOTAL ((long)ACCOUNTS * INITIAL_BALANCE)

static long accounts[ACCOUNTS];
static long serial_rounds = 2000, hardware_threads = 2;
static atomic_int done;
static atomic_long audits_ok, commit_actions_run;
static long commit_actions_registered; /* only changed inside transactions */

TMTEST_PURE static int mode_now(void) { return _ITM_inTransaction(); }
TMTEST_PURE static int finished(void) { return atomic_load(&done); }

static void count_commit_action(void *arg)
{
    (void)arg;
    atomic_fetch_add(&commit_actions_run, 1);
}

TMTEST_PURE static void add_commit_action(void)
{
    _ITM_addUserCommitAction(count_commit_action, TMTEST_NO_TRANSACTION_ID, NULL);
}

static int cpu_has_rtm(void)
{
    unsigned a, b, c, d;
    if (__get_cpuid_max(0, NULL) < 7)
        return 0;
    __cpuid_count(7, 0, a, b, c, d);
    return (b & (1u << 11)) && !(d & (1u << 11));
}

static void check_audit(long sum, const char *who)
{
    if (sum != TOTAL)
        tmtest_violation("%s: an audit inside a transaction saw a total of %ld, expected %ld",
                         who, sum, TOTAL);
    else
        atomic_fetch_add(&audits_ok, 1);
}

static long audit(void)
{
    long sum = 0;
    __transaction_atomic {
        for (int i = 0; i < ACCOUNTS; i++)
            sum += accounts[i];
    }
    return sum;
}

/* Transfers and audits that qualify for the hardware path. */
static void hardware_thread(int index)
{
    uint64_t rng = 0x9e3779b97f4a7c15ull * (uint64_t)(index + 1);
    for (long i = 0; i < 256 || !finished(); i++) {
        int from = (int)(tmtest_rand(&rng) % ACCOUNTS), to = (int)(tmtest_rand(&rng) % ACCOUNTS);
        int mode = -1;
        __transaction_atomic {
            accounts[from] -= 3;
            mode = mode_now();
            accounts[to] += 3;
        }
        if (mode != 1 && mode != 2)
            tmtest_violation("_ITM_inTransaction() = %d inside a transaction, expected 1 or 2",
                             mode);
        if (i % 16 == 0)
            check_audit(audit(), "hardware thread");
        if (i % 64 == 0) {
            /* A user commit action forces the software path; it must run once. */
            __transaction_atomic {
                commit_actions_registered++;
                add_commit_action();
            }
        }
    }
}

/* Serial-irrevocable and cancellable transactions among the hardware ones. */
static void serial_thread(void)
{
    uint64_t rng = 42;
    for (long round = 0; round < serial_rounds; round++) {
        int from = (int)(tmtest_rand(&rng) % ACCOUNTS), to = (int)(tmtest_rand(&rng) % ACCOUNTS);
        long sum = 0;
        __transaction_relaxed {
            accounts[from] -= 7;
            unsafe_nothing(); /* uninstrumented code: serial-irrevocable from here */
            for (int i = 0; i < ACCOUNTS; i++)
                sum += accounts[i];
            accounts[to] += 7;
        }
        if (sum != TOTAL - 7)
            tmtest_violation("irrevocable round %ld: saw a total of %ld in the middle of a "
                             "transfer of 7, expected %ld", round, sum, TOTAL - 7);
        __transaction_atomic {
            accounts[from] -= 100;
            accounts[to] += 50;
            if (round % 2 == 0)
                __transaction_cancel; /* undoes the unbalanced writes */
            accounts[to] += 50;
        }
    }
}

static void role(int index)
{
    if (index == 0) {
        serial_thread();
        atomic_store(&done, 1);
    } else {
        hardware_thread(index);
    }
}

static void get_totals(struct libtm_totals *t)
{
    void (*fn)(struct libtm_totals *, size_t) =
        (void (*)(struct libtm_totals *, size_t))dlsym(RTLD_DEFAULT, "libtm_totals_read");
    TMTEST_CHECK(fn, "libtm_totals_read is missing from the loaded runtime");
    memset(t, 0, sizeof *t);
    fn(t, sizeof *t);
}

int main(int argc, char **argv)
{
    tmtest_init(argc, argv,
                "Hardware transactions (RTM) are used with several threads and stay atomic\n"
                "next to serial-irrevocable and cancellable transactions.\n"
                "  --rounds=N serial rounds per pass (2000)  --threads=N hardware threads (2)");
    serial_rounds = tmtest_option(argc, argv, "rounds", serial_rounds);
    hardware_threads = tmtest_option(argc, argv, "threads", hardware_threads);
    tmtest_require_libtm();
    const char *htm_env = getenv("LIBTM_HTM"), *algo_env = getenv("LIBTM_ALGO");
    int rtm = cpu_has_rtm();
    int expect_htm = rtm && !(htm_env && strcmp(htm_env, "0") == 0) && !(algo_env && *algo_env);
    for (int i = 0; i < ACCOUNTS; i++)
        accounts[i] = INITIAL_BALANCE;

    /* Passes until hardware commits show up (the adaptive policy probes them within a
     * fraction of a second); bounded, and every pass checks atomicity. */
    struct libtm_totals totals;
    int passes = 0;
    do {
        atomic_store(&done, 0);
        tmtest_run_threads(1 + (int)hardware_threads, role);
        get_totals(&totals);
        passes++;
    } while (expect_htm && totals.htm_commits == 0 && passes < 20);

    tmtest_check_no_violations("hardware and serial transactions");
    long sum = 0;
    for (int i = 0; i < ACCOUNTS; i++)
        sum += accounts[i];
    TMTEST_CHECK(sum == TOTAL, "after all transfers the total is %ld, expected %ld", sum, TOTAL);
    TMTEST_CHECK(atomic_load(&audits_ok) > 0, "no audit ran");
    TMTEST_CHECK(atomic_load(&commit_actions_run) == commit_actions_registered,
                 "%ld commit actions ran, %ld were registered by committed transactions",
                 atomic_load(&commit_actions_run), commit_actions_registered);
    tmtest_note("%d pass(es): %llu commits, %llu in hardware, %llu hardware aborts, %llu serial",
                passes, (unsigned long long)totals.commits,
                (unsigned long long)totals.htm_commits, (unsigned long long)totals.htm_aborts,
                (unsigned long long)totals.serial);
    if (expect_htm) {
        TMTEST_CHECK(totals.htm_commits > 0, "the CPU has RTM but no transaction committed in "
                     "hardware after %d passes", passes);
        /* The statistics file says so too. */
        char path[64];
        snprintf(path, sizeof path, "/tmp/libtm-htm-test-%d.json", (int)getpid());
        int (*write_stats)(const char *) =
            (int (*)(const char *))dlsym(RTLD_DEFAULT, "libtm_stats_write");
        TMTEST_CHECK(write_stats && write_stats(path) == 0, "libtm_stats_write(%s) failed", path);
        FILE *f = fopen(path, "r");
        TMTEST_CHECK(f, "cannot read %s back", path);
        char text[4096] = "";
        size_t n = fread(text, 1, sizeof text - 1, f);
        text[n] = '\0';
        fclose(f);
        unlink(path);
        TMTEST_CHECK(strstr(text, "\"htm\": true") && !strstr(text, "\"htm_commits\": 0,"),
                     "statistics JSON does not report hardware commits:\n%s", text);
    } else {
        TMTEST_CHECK(totals.htm_commits == 0 && totals.htm_aborts == 0,
                     "%llu hardware commits and %llu aborts although hardware transactions are "
                     "off (no RTM, LIBTM_HTM=0 or LIBTM_ALGO set)",
                     (unsigned long long)totals.htm_commits,
                     (unsigned long long)totals.htm_aborts);
    }
    if (!rtm)
        tmtest_skip("the CPU has no RTM: atomicity checked, hardware path not exercised");
    return 0;
}
