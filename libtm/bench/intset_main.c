/* intset benchmark: threads run random lookups, inserts and removes on one shared integer set;
 * every operation is one atomic block. Afterwards the set is verified. */
#if defined(BENCH_SYNC_TM)
#include <dlfcn.h>
#include <libtm.h>
#endif
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_common.h"
#include "bench_rng.h"
#include "bench_sync.h"
#include "intset.h"
#include "size_counter.h"

struct intset_options {
    enum intset_kind kind;
    unsigned long size;      /* 0 = the structure's default */
    unsigned long update;    /* percent of operations that insert or remove */
    enum size_counter_mode size_counter;
    struct bench_run_options run;
};

/* One per thread, on its own cache lines so that counting does not cause false sharing. */
struct intset_worker {
    struct intset *set;
    struct size_counter *counter; /* NULL without --size-counter */
    long range;
    unsigned update;
    uint64_t rng;
    unsigned long ops, inserted, removed, found;
} __attribute__((aligned(128)));

/* --structure and --size-counter: names of intset.c's and size_counter.c's own lists. */
static bool take_structure(const cmdline_option *o, const char *value, void *target)
{
    (void)o;
    return intset_kind_from_name(value, &((struct intset_options *)target)->kind);
}

static bool take_size_counter(const cmdline_option *o, const char *value, void *target)
{
    (void)o;
    return size_counter_mode_from_name(value, &((struct intset_options *)target)->size_counter);
}

#define FIELD(f) CMDLINE_FIELD(struct intset_options, f)
static const cmdline_option options[] = {
    { "--structure", "NAME", "rbtree (default), skiplist, list or hashset", CMDLINE_CALL,
      .call = take_structure, .needs = "one of rbtree, skiplist, list or hashset" },
    { "--size", "N", "initial elements; keys are drawn from 0..2N-1 so the size stays\n"
      "stable (default 4096, list 256)", CMDLINE_WHOLE, FIELD(size), .min = 1, .max = 1ul << 24 },
    { "--update", "PCT", "percent of operations that update, half inserts, half removes\n"
      "(0..100, default 20)", CMDLINE_WHOLE, FIELD(update), .min = 0, .max = 100, .init = 20 },
    { "--size-counter", "M", "inserts and removes also keep one shared count of the elements\n"
      "(an insert takes it first, as an allocator takes a slot, and gives\n"
      "it back if the key was there): the conflict hot spot of a size\n"
      "field, updated flat (in the operation's transaction), closed (in a\n"
      "nested one that may cancel) or open (libtm_open: committed at\n"
      "once, compensated if the operation rolls back; libtm only);\n"
      "default none", CMDLINE_CALL, .call = take_size_counter,
      .needs = "one of none, flat, closed or open" },
    BENCH_OPTION_THREADS(struct intset_options, "worker threads"),
    BENCH_OPTION_DURATION(struct intset_options),
    BENCH_OPTIONS_END(struct intset_options, "damaged sets"),
};

static bool parse_options(int argc, char **argv, const char *program, struct intset_options *opt)
{
    const struct bench_cli cli = {
        program, options, 20,
        "Integer-set microbenchmark (" BENCH_SYNC_NAME " build): threads look up, insert and "
        "remove random keys in\n"
        "one shared set; each operation is one atomic block. The set is verified afterwards.\n",
        "Prints one parseable line:\n"
        "  structure=.. threads=.. update=.. size=.. ops=.. seconds=.. ops_per_s=.. sync=.. cpu_s=..\n"
        "(with --size-counter also size_counter=.. and, on libtm, aborts=.., every rollback of\n"
        "every level) ",
        NULL,
    };
    *opt = (struct intset_options){ .kind = INTSET_RBTREE };
    if (!bench_parse_command_line(&cli, argc, argv, opt, &opt->run))
        return false;
    if (opt->size == 0)
        opt->size = intset_default_size(opt->kind);
    return true;
}

/* Inserts distinct random keys until the set holds size elements. */
static struct intset *populate(const struct intset_options *opt, long range)
{
    struct intset *set = intset_create(opt->kind, opt->size);
    if (!set)
        return NULL;
    uint64_t rng = rng_seed(opt->run.seed, UINT32_MAX);
    for (unsigned long held = 0; held < opt->size;) {
        long key = (long)rng_below(&rng, (uint64_t)range);
        held += intset_insert(set, key, intset_random_height(set, &rng));
    }
    return set;
}

static void intset_worker_run(void *arg, const atomic_bool *stop)
{
    struct intset_worker *w = arg;
    struct intset *set = w->set;
    struct size_counter *counter = w->counter;
    while (!atomic_load_explicit(stop, memory_order_relaxed)) {
        long key = (long)rng_below(&w->rng, (uint64_t)w->range);
        /* dice in 0..199: below 2*update is an update, odd ones insert, even ones remove. */
        unsigned dice = (unsigned)rng_below(&w->rng, 200);
        bool done;
        if (dice < 2 * w->update && (dice & 1)) {
            int height = intset_random_height(set, &w->rng);
            ATOMIC_BEGIN
                /* The count is taken first, as an allocator takes a slot before it fills it,
                 * and given back when the key was already there. */
                if (counter)
                    size_counter_add(counter, 1);
                done = intset_insert(set, key, height);
                if (!done && counter)
                    size_counter_add(counter, -1);
            ATOMIC_END
            w->inserted += done;
        } else if (dice < 2 * w->update) {
            ATOMIC_BEGIN
                done = intset_remove(set, key);
                if (done && counter)
                    size_counter_add(counter, -1);
            ATOMIC_END
            w->removed += done;
        } else {
            ATOMIC_BEGIN
                done = intset_contains(set, key);
            ATOMIC_END
            w->found += done;
        }
        w->ops++;
    }
}

/* With --size-counter: the mode, and on libtm how many rollbacks happened (libtm_totals_read,
 * found with dlsym: every level's, open transactions' and compensations' too). */
static void print_counter_fields(enum size_counter_mode mode)
{
    printf(" size_counter=%s", size_counter_mode_name(mode));
#if defined(BENCH_SYNC_TM)
    void (*read_totals)(struct libtm_totals *, size_t) =
        (void (*)(struct libtm_totals *, size_t))dlsym(RTLD_DEFAULT, "libtm_totals_read");
    if (read_totals) {
        struct libtm_totals totals = { 0 };
        read_totals(&totals, sizeof totals);
        printf(" aborts=%llu", (unsigned long long)totals.aborts);
    }
#endif
}

/* Each damage must be caught, and undoing it must make the set valid again. */
static int test_verifier(const struct intset_options *opt, const char *program)
{
    const char *name = intset_kind_name(opt->kind);
    struct intset *set = populate(opt, 2 * (long)opt->size);
    if (!set) {
        fprintf(stderr, "%s: out of memory building a %s of %lu elements\n", program, name, opt->size);
        return 1;
    }
    int failures = 0;
    if (!intset_verify(set, opt->size, stderr)) {
        fprintf(stderr, "FAIL: a freshly built %s does not verify\n", name);
        failures++;
    }
    printf("expected complaint: ");
    if (intset_verify(set, opt->size + 1, stdout)) {
        fprintf(stderr, "FAIL: a %s of %lu elements passed as %lu\n", name, opt->size, opt->size + 1);
        failures++;
    }
    struct { const char *what; bool (*damage)(struct intset *); } damages[] = {
        { "keys out of order", intset_damage_order },
        { "wrong node colour", intset_damage_color },
    };
    for (size_t i = 0; i < sizeof damages / sizeof damages[0]; i++) {
        if (!damages[i].damage(set)) {
            printf("%s: %s does not apply\n", name, damages[i].what);
            continue;
        }
        printf("expected complaint (%s): ", damages[i].what);
        if (intset_verify(set, opt->size, stdout)) {
            fprintf(stderr, "FAIL: %s with %s passed verification\n", name, damages[i].what);
            failures++;
        }
        damages[i].damage(set);
        if (!intset_verify(set, opt->size, stderr)) {
            fprintf(stderr, "FAIL: %s does not verify after undoing %s\n", name, damages[i].what);
            failures++;
        }
    }
    intset_destroy(set);
    return bench_verifier_verdict(name, failures, "catches every damage");
}

int main(int argc, char **argv)
{
    const char *program = bench_program_name(argv[0]);
    struct intset_options opt;
    if (!parse_options(argc, argv, program, &opt))
        return BENCH_EXIT_USAGE;
    if (opt.run.test_verifier)
        return test_verifier(&opt, program);

    const char *name = intset_kind_name(opt.kind);
    long range = 2 * (long)opt.size;
    struct intset *set = populate(&opt, range);
    struct intset_worker *workers = aligned_alloc(128, opt.run.threads * sizeof *workers);
    if (!set || !workers) {
        fprintf(stderr, "%s: out of memory building a %s of %lu elements\n", program, name, opt.size);
        return 1;
    }
    static struct size_counter counter;
    bool counted = opt.size_counter != SIZE_COUNTER_NONE;
    if (!size_counter_init(&counter, opt.size_counter, (long)opt.size)) {
        fprintf(stderr, "%s: --size-counter open needs libtm's libtm_open (libtm.h); the loaded "
                        "runtime has none (GCC's libitm?): use flat or closed there\n", program);
        return BENCH_EXIT_USAGE;
    }
    for (unsigned long i = 0; i < opt.run.threads; i++)
        workers[i] = (struct intset_worker){ set, counted ? &counter : NULL, range, (unsigned)opt.update,
                                             rng_seed(opt.run.seed, i), 0, 0, 0, 0 };

    double cpu_seconds = 0;
    double seconds = bench_run_threads((unsigned)opt.run.threads, opt.run.duration, intset_worker_run,
                                       workers, sizeof *workers, &cpu_seconds);
    if (seconds < 0) {
        fprintf(stderr, "%s: could not start %lu threads\n", program, opt.run.threads);
        return 1;
    }

    unsigned long ops = 0, inserted = 0, removed = 0;
    for (unsigned long i = 0; i < opt.run.threads; i++) {
        ops += workers[i].ops;
        inserted += workers[i].inserted;
        removed += workers[i].removed;
    }
    size_t expected = opt.size + inserted - removed;
    double rate = ops / seconds;
    printf("structure=%s threads=%lu update=%lu size=%lu ops=%lu seconds=%.3f ops_per_s=%.0f sync=%s cpu_s=%.3f",
           name, opt.run.threads, opt.update, opt.size, ops, seconds, rate, BENCH_SYNC_NAME, cpu_seconds);
    if (counted)
        print_counter_fields(opt.size_counter);
    printf("\n");
    fflush(stdout);
    bool valid = intset_verify(set, expected, stderr);
    if (counted && counter.value != (long)expected) {
        fprintf(stderr, "%s: the %s size counter holds %ld, but the set has %zu elements\n",
                name, size_counter_mode_name(opt.size_counter), counter.value, expected);
        valid = false;
    }
    printf("%s (%s build): %lu thread(s), %lu%% updates, %lu initial elements: %.3f M ops/s "
           "over %.2f s; %lu inserts, %lu removes; %s\n",
           name, BENCH_SYNC_NAME, opt.run.threads, opt.update, opt.size, rate / 1e6, seconds,
           inserted, removed, valid ? "verified" : "VERIFICATION FAILED");
    intset_destroy(set);
    free(workers);
    return valid ? 0 : BENCH_EXIT_BROKEN;
}
