/* travel benchmark: client threads make reservations, delete customers and update the offer
 * tables of a travel agency; every transaction is one atomic block. Runs for a time or for a
 * fixed number of transactions (time to completion); afterwards the tables are verified. */
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

#define FIELD(f) CMDLINE_FIELD(struct travel_options, f)
static const cmdline_option options[] = {
    { "--relations", "N", "offers per table and initial customers (16..4194304, default 16384)",
      CMDLINE_WHOLE, FIELD(relations), .min = 16, .max = 1ul << 22, .init = 16384 },
    { "--queries-per-tx", "N", "offers queried per table by a reservation, and offers changed by\n"
      "a table update (1..100, default 6; --queries is the same)", CMDLINE_WHOLE, FIELD(queries),
      .aliases = "--queries", .min = 1, .max = 100, .init = 6 },
    { "--query-range", "PCT", "ids come from the lowest PCT % of the relations (1..100, default\n"
      "60); smaller means more contention", CMDLINE_WHOLE, FIELD(query_range), .min = 1,
      .max = 100, .init = 60 },
    { "--user", "PCT", "percent of transactions that are reservations (0..100, default\n"
      "90); the rest are half customer deletions, half table updates", CMDLINE_WHOLE,
      FIELD(user), .min = 0, .max = 100, .init = 90 },
    BENCH_OPTION_THREADS(struct travel_options, "client threads"),
    BENCH_OPTION_DURATION(struct travel_options),
    { "--transactions", "N", "instead of a duration, run N transactions in all (split over the\n"
      "threads) and report the time to completion", CMDLINE_WHOLE, FIELD(transactions),
      .min = 1, .max = 1ul << 40 },
    BENCH_OPTIONS_END(struct travel_options, "damaged tables"),
};

static bool parse_options(int argc, char **argv, const char *program, struct travel_options *opt)
{
    const struct bench_cli cli = {
        program, options, 22,
        "Travel-reservation benchmark (" BENCH_SYNC_NAME " build): tables of cars, flights and "
        "rooms (id ->\n"
        "capacity, bookings, price) and of customers (id -> bookings), each a red-black tree.\n"
        "Client threads run three kinds of transaction, each one atomic block:\n"
        "  reservation      query --queries-per-tx random offers of every table, book the\n"
        "                   dearest free one of each for a random customer (read-mostly)\n"
        "  delete customer  cancel all of a random customer's bookings, remove the customer\n"
        "  update tables    --queries-per-tx times add or withdraw capacity of a random offer\n"
        "The tables are verified afterwards.\n",
        "Prints one parseable line (update = 100 - user: the share of deletions and updates):\n"
        "  structure=travel threads=.. update=.. size=.. ops=.. seconds=.. ops_per_s=.. sync=..\n"
        "  cpu_s=.. queries=.. query_range=..\n",
        NULL,
    };
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
