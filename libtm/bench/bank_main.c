/* bank benchmark: threads transfer random amounts between random accounts, and now and then
 * sum all accounts in a read-only transaction; every sum must equal the initial total. */
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bank.h"
#include "bench_common.h"
#include "bench_rng.h"
#include "bench_sync.h"

#define INITIAL_BALANCE 1000

struct bank_options {
    unsigned long accounts;
    unsigned long total_every; /* one total-balance transaction per this many operations; 0 = none */
    struct bench_run_options run;
};

struct bank_worker {
    struct bank *bank;
    long expected_total;
    unsigned long total_every;
    uint64_t rng;
    unsigned long ops, totals, wrong_totals;
} __attribute__((aligned(128)));

#define FIELD(f) CMDLINE_FIELD(struct bank_options, f)
static const cmdline_option options[] = {
    { "--accounts", "N", "number of accounts (2..16777216, default 1024; --size is the same)",
      CMDLINE_WHOLE, FIELD(accounts), .aliases = "--size", .min = 2, .max = 1ul << 24,
      .init = 1024 },
    { "--total-every", "N", "one total-balance transaction per N operations of a thread\n"
      "(default 100; 0 = transfers only)", CMDLINE_WHOLE, FIELD(total_every), .min = 0,
      .max = 1ul << 30, .init = 100 },
    BENCH_OPTION_THREADS(struct bank_options, "worker threads"),
    BENCH_OPTION_DURATION(struct bank_options),
    BENCH_OPTIONS_END(struct bank_options, "a wrong total"),
};

static bool parse_options(int argc, char **argv, const char *program, struct bank_options *opt)
{
    const struct bench_cli cli = {
        program, options, 20,
        "Bank microbenchmark (" BENCH_SYNC_NAME " build): threads transfer random amounts "
        "between random accounts;\n"
        "periodically a read-only atomic block sums every account. Each operation is one atomic\n"
        "block. Every sum, and the final one, must equal the initial total.\n",
        "Prints one parseable line (update = percent of operations that are transfers):\n"
        "  structure=bank threads=.. update=.. size=.. ops=.. seconds=.. ops_per_s=.. sync=.. cpu_s=..\n",
        NULL,
    };
    return bench_parse_command_line(&cli, argc, argv, opt, &opt->run);
}

static void bank_worker_run(void *arg, const atomic_bool *stop)
{
    struct bank_worker *w = arg;
    struct bank *bank = w->bank;
    size_t accounts = bank->accounts;
    while (!atomic_load_explicit(stop, memory_order_relaxed)) {
        w->ops++;
        if (w->total_every && w->ops % w->total_every == 0) {
            long total;
            ATOMIC_BEGIN
                total = bank_total(bank);
            ATOMIC_END
            w->totals++;
            w->wrong_totals += total != w->expected_total;
            continue;
        }
        size_t from = (size_t)rng_below(&w->rng, accounts);
        size_t to = (size_t)rng_below(&w->rng, accounts - 1);
        to += to >= from; /* a different account, uniformly */
        long amount = 1 + (long)rng_below(&w->rng, 50);
        ATOMIC_BEGIN
            bank_transfer(bank, from, to, amount);
        ATOMIC_END
    }
}

static int test_verifier(const struct bank_options *opt, const char *program)
{
    struct bank *bank = bank_create(opt->accounts, INITIAL_BALANCE);
    if (!bank) {
        fprintf(stderr, "%s: out of memory creating %lu accounts\n", program, opt->accounts);
        return 1;
    }
    long expected = (long)opt->accounts * INITIAL_BALANCE;
    int failures = 0;
    bank_transfer(bank, 0, 1, 123);
    if (!bank_verify(bank, expected, stderr)) {
        fprintf(stderr, "FAIL: a transfer changed the total\n");
        failures++;
    }
    bank->balance[opt->accounts - 1] += 1; /* money from nowhere */
    printf("expected complaint: ");
    if (bank_verify(bank, expected, stdout)) {
        fprintf(stderr, "FAIL: a wrong total passed verification\n");
        failures++;
    }
    bank_destroy(bank);
    return bench_verifier_verdict("bank", failures, "catches a wrong total");
}

int main(int argc, char **argv)
{
    const char *program = bench_program_name(argv[0]);
    struct bank_options opt;
    if (!parse_options(argc, argv, program, &opt))
        return BENCH_EXIT_USAGE;
    if (opt.run.test_verifier)
        return test_verifier(&opt, program);

    struct bank *bank = bank_create(opt.accounts, INITIAL_BALANCE);
    struct bank_worker *workers = aligned_alloc(128, opt.run.threads * sizeof *workers);
    if (!bank || !workers) {
        fprintf(stderr, "%s: out of memory creating %lu accounts\n", program, opt.accounts);
        return 1;
    }
    long expected = (long)opt.accounts * INITIAL_BALANCE;
    for (unsigned long i = 0; i < opt.run.threads; i++)
        workers[i] = (struct bank_worker){ bank, expected, opt.total_every, rng_seed(opt.run.seed, i), 0, 0, 0 };

    double cpu_seconds = 0;
    double seconds = bench_run_threads((unsigned)opt.run.threads, opt.run.duration, bank_worker_run,
                                       workers, sizeof *workers, &cpu_seconds);
    if (seconds < 0) {
        fprintf(stderr, "%s: could not start %lu threads\n", program, opt.run.threads);
        return 1;
    }

    unsigned long ops = 0, totals = 0, wrong = 0;
    for (unsigned long i = 0; i < opt.run.threads; i++) {
        ops += workers[i].ops;
        totals += workers[i].totals;
        wrong += workers[i].wrong_totals;
    }
    unsigned long every = opt.total_every;
    unsigned long update = every ? (100 * (every - 1) + every / 2) / every : 100;
    double rate = ops / seconds;
    printf("structure=bank threads=%lu update=%lu size=%lu ops=%lu seconds=%.3f ops_per_s=%.0f sync=%s cpu_s=%.3f\n",
           opt.run.threads, update, opt.accounts, ops, seconds, rate, BENCH_SYNC_NAME, cpu_seconds);
    fflush(stdout);
    bool valid = bank_verify(bank, expected, stderr);
    if (wrong) {
        fprintf(stderr, "bank: %lu of %lu total-balance transactions saw a wrong total\n", wrong, totals);
        valid = false;
    }
    printf("bank (%s build): %lu thread(s), %lu accounts: %.3f M ops/s over %.2f s; "
           "%lu total-balance transactions; %s\n",
           BENCH_SYNC_NAME, opt.run.threads, opt.accounts, rate / 1e6, seconds, totals,
           valid ? "verified" : "VERIFICATION FAILED");
    bank_destroy(bank);
    free(workers);
    return valid ? 0 : BENCH_EXIT_BROKEN;
}
