/* travel benchmark: client threads make reservations, delete customers and update the offer
 * tables of a travel agency; every transaction is one atomic block. Runs for a time or for a
 * fixed number of transactions (time to completion); afterwards the tables are verified. */
#include <getopt.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_common.h"
#include "bench_rng.h"
#include "bench_sync.h"
#include "travel.h"

struct travel_options {
    unsigned long relations;
    unsigned long queries;     /* offers queried per table by a reservation */
    unsigned long query_range; /* percent of the ids that queries and customers come from */
    unsigned long user;        /* percent of transactions that are reservations */
    unsigned long transactions; /* 0 = run for run.duration, else run.duration = 0 */
    struct bench_run_options run;
};

/* One per thread, on its own cache lines so that counting does not cause false sharing. */
struct travel_worker {
    struct travel *travel;
    long range;
    unsigned queries, user;
    unsigned long quota; /* transactions to run (ULONG_MAX when running for a time) */
    uint64_t rng;
    unsigned long ops, reservations, deletions, updates;
    struct travel_totals sum;
} __attribute__((aligned(128)));

static void usage(FILE *out, const char *program)
{
    fprintf(out,
        "Usage: %s [OPTIONS]\n"
        "Travel-reservation benchmark (%s build): tables of cars, flights and rooms (id ->\n"
        "capacity, bookings, price) and of customers (id -> bookings), each a red-black tree.\n"
        "Client threads run three kinds of transaction, each one atomic block:\n"
        "  reservation      query --queries-per-tx random offers of every table, book the\n"
        "                   dearest free one of each for a random customer (read-mostly)\n"
        "  delete customer  cancel all of a random customer's bookings, remove the customer\n"
        "  update tables    --queries-per-tx times add or withdraw capacity of a random offer\n"
        "The tables are verified afterwards.\n"
        "\n"
        "  --relations N       offers per table and initial customers (16..4194304, default 16384)\n"
        "  --queries-per-tx N  offers queried per table by a reservation, and offers changed by\n"
        "                      a table update (1..100, default 6; --queries is the same)\n"
        "  --query-range PCT   ids come from the lowest PCT %% of the relations (1..100, default\n"
        "                      60); smaller means more contention\n"
        "  --user PCT          percent of transactions that are reservations (0..100, default\n"
        "                      90); the rest are half customer deletions, half table updates\n"
        "  --threads N         client threads (default 1%s)\n"
        "  --duration S        seconds to run (default 1)\n"
        "  --transactions N    instead of a duration, run N transactions in all (split over the\n"
        "                      threads) and report the time to completion\n"
        "  --seed N            random seed (default 1)\n"
        "  --test-verifier     instead of a run, check that the verifier catches damaged tables\n"
        "  --help              this text\n"
        "\n"
        "Prints one parseable line (update = 100 - user: the share of deletions and updates):\n"
        "  structure=travel threads=.. update=.. size=.. ops=.. seconds=.. ops_per_s=.. sync=..\n"
        "  cpu_s=.. queries=.. query_range=..\n"
        "then a readable one. Exit status: 0 verified, %d bad usage, %d verification failed.\n"
        "The tm build runs on libtm; LD_LIBRARY_PATH=/usr/lib/x86_64-linux-gnu runs it on GCC's\n"
        "libitm instead.\n",
        program, BENCH_SYNC_NAME, BENCH_SYNC_MAX_THREADS == 1 ? ", the only choice here" : "",
        BENCH_EXIT_USAGE, BENCH_EXIT_BROKEN);
}

static bool own_option(void *options, int c, const char *arg, const char *program)
{
    struct travel_options *opt = options;
    switch (c) {
    case 'n': return bench_parse_count(program, "--relations", arg, 16, 1ul << 22, &opt->relations);
    case 'q': return bench_parse_count(program, "--queries-per-tx", arg, 1, 100, &opt->queries);
    case 'g': return bench_parse_count(program, "--query-range", arg, 1, 100, &opt->query_range);
    case 'u': return bench_parse_count(program, "--user", arg, 0, 100, &opt->user);
    default: return bench_parse_count(program, "--transactions", arg, 1, 1ul << 40, &opt->transactions);
    }
}

static bool parse_options(int argc, char **argv, const char *program, struct travel_options *opt)
{
    static const struct option longopts[] = {
        { "relations", required_argument, NULL, 'n' },
        { "queries-per-tx", required_argument, NULL, 'q' },
        { "queries", required_argument, NULL, 'q' },
        { "query-range", required_argument, NULL, 'g' },
        { "user", required_argument, NULL, 'u' },
        { "transactions", required_argument, NULL, 'x' },
        BENCH_RUN_LONGOPTS,
        { NULL, 0, NULL, 0 },
    };
    const struct bench_cli cli = { program, longopts, own_option, usage, NULL };
    *opt = (struct travel_options){ .relations = 16384, .queries = 6, .query_range = 60, .user = 90 };
    if (!bench_parse_command_line(&cli, argc, argv, opt, &opt->run))
        return false;
    if (opt->run.duration_given && opt->transactions) {
        fprintf(stderr, "%s: --duration and --transactions exclude each other: run for a time or "
                "for a number of transactions\n", program);
        return false;
    }
    if (opt->transactions)
        opt->run.duration = 0;
    return true;
}

static void travel_worker_run(void *arg, const atomic_bool *stop)
{
    struct travel_worker *w = arg;
    struct travel *travel = w->travel;
    /* Copied to locals: the atomic blocks would read the worker's fields through barriers. */
    long range = w->range;
    unsigned queries = w->queries, user = w->user;
    while (w->ops < w->quota && !atomic_load_explicit(stop, memory_order_relaxed)) {
        /* dice in 0..199: below 2*user a reservation; of the rest, odd ones delete a customer,
         * even ones update the tables. */
        unsigned dice = (unsigned)rng_below(&w->rng, 200);
        long customer = 1 + (long)rng_below(&w->rng, (uint64_t)w->range);
        uint64_t seed = rng_next(&w->rng);
        struct travel_change change;
        if (dice < 2 * user) {
            ATOMIC_BEGIN
                change = travel_reserve(travel, customer, seed, queries, range);
            ATOMIC_END
            w->reservations++;
        } else if (dice & 1) {
            ATOMIC_BEGIN
                change = travel_delete_customer(travel, customer);
            ATOMIC_END
            w->deletions++;
        } else {
            ATOMIC_BEGIN
                change = travel_update_offers(travel, seed, queries, range);
            ATOMIC_END
            w->updates++;
        }
        travel_totals_add(&w->sum, change);
        w->ops++;
    }
}

int main(int argc, char **argv)
{
    const char *program = bench_program_name(argv[0]);
    struct travel_options opt;
    if (!parse_options(argc, argv, program, &opt))
        return BENCH_EXIT_USAGE;
    long range = ((long)opt.relations * (long)opt.query_range + 50) / 100;
    if (range < 1)
        range = 1;
    if (opt.run.test_verifier) {
        int failures = travel_test_verifier(opt.relations < 4096 ? (long)opt.relations : 4096,
                                            (unsigned)opt.queries, opt.run.seed, stdout);
        return bench_verifier_verdict("travel", failures, "catches every damage");
    }

    struct travel *travel = travel_create((long)opt.relations, opt.run.seed);
    struct travel_worker *workers = aligned_alloc(128, opt.run.threads * sizeof *workers);
    if (!travel || !workers) {
        fprintf(stderr, "%s: out of memory building tables of %lu relations\n", program, opt.relations);
        return 1;
    }
    for (unsigned long i = 0; i < opt.run.threads; i++) {
        unsigned long quota = !opt.transactions ? ULONG_MAX
                              : opt.transactions / opt.run.threads + (i < opt.transactions % opt.run.threads);
        workers[i] = (struct travel_worker){
            .travel = travel, .range = range, .queries = (unsigned)opt.queries,
            .user = (unsigned)opt.user, .quota = quota, .rng = rng_seed(opt.run.seed, i),
        };
    }

    double cpu_seconds = 0;
    double seconds = bench_run_threads((unsigned)opt.run.threads, opt.run.duration, travel_worker_run,
                                       workers, sizeof *workers, &cpu_seconds);
    if (seconds < 0) {
        fprintf(stderr, "%s: could not start %lu threads\n", program, opt.run.threads);
        return 1;
    }

    unsigned long ops = 0, reservations = 0, deletions = 0, updates = 0;
    struct travel_totals sum = { 0 };
    for (unsigned long i = 0; i < opt.run.threads; i++) {
        ops += workers[i].ops;
        reservations += workers[i].reservations;
        deletions += workers[i].deletions;
        updates += workers[i].updates;
        travel_totals_merge(&sum, &workers[i].sum);
    }
    double rate = ops / seconds;
    printf("structure=travel threads=%lu update=%lu size=%lu ops=%lu seconds=%.3f ops_per_s=%.0f "
           "sync=%s cpu_s=%.3f queries=%lu query_range=%lu\n",
           opt.run.threads, 100 - opt.user, opt.relations, ops, seconds, rate, BENCH_SYNC_NAME,
           cpu_seconds, opt.queries, opt.query_range);
    fflush(stdout);

    struct travel_expect expect = {
        .customers = (long)opt.relations + sum.customers,
        .bookings = sum.bookings,
        .money = sum.money,
    };
    for (int k = 0; k < TRAVEL_KINDS; k++)
        expect.offers[k] = (long)opt.relations + sum.offers[k];
    bool valid = travel_verify(travel, &expect, stderr);
    printf("travel (%s build): %lu thread(s), %lu relations, %lu queries per table, %lu %% range: "
           "%.1f k transactions/s, %lu in %.2f s (%lu reservations, %lu customer deletions, "
           "%lu table updates; %ld bookings held, %ld offers, %ld customers); %s\n",
           BENCH_SYNC_NAME, opt.run.threads, opt.relations, opt.queries, opt.query_range, rate / 1e3,
           ops, seconds, reservations, deletions, updates, sum.bookings,
           expect.offers[TRAVEL_CAR] + expect.offers[TRAVEL_FLIGHT] + expect.offers[TRAVEL_ROOM],
           expect.customers,
           valid ? "verified" : "VERIFICATION FAILED");
    travel_destroy(travel);
    free(workers);
    return valid ? 0 : BENCH_EXIT_BROKEN;
}
