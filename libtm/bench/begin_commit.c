/* begin-commit: the smallest critical section, for counting what synchronisation alone costs
 * (callgrind-begin-commit runs it under valgrind --tool=callgrind). Each of --threads threads
 * increments one shared counter --ops times, in one of three ways:
 *   tm     __transaction_atomic { counter++; }  (libitm.so.1: libtm, or GCC's libitm)
 *   mutex  pthread_mutex_lock; counter++; pthread_mutex_unlock
 *   plain  counter++ alone (threads run one after the other): what the rest costs
 * Each way is one function of its own (begin_commit_op_tm, ..._mutex, ..._plain), which the
 * script finds in callgrind's output. The counter is checked at the end. */
#include "bench_common.h"

#include <pthread.h>
#include <stdlib.h>

static long counter;
static pthread_mutex_t counter_lock = PTHREAD_MUTEX_INITIALIZER;

__attribute__((noinline)) void begin_commit_op_tm(void);
__attribute__((noinline)) void begin_commit_op_tm(void)
{
    __transaction_atomic { counter++; }
}

__attribute__((noinline)) void begin_commit_op_mutex(void);
__attribute__((noinline)) void begin_commit_op_mutex(void)
{
    pthread_mutex_lock(&counter_lock);
    counter++;
    pthread_mutex_unlock(&counter_lock);
}

__attribute__((noinline)) void begin_commit_op_plain(void);
__attribute__((noinline)) void begin_commit_op_plain(void)
{
    __asm__ volatile("" ::: "memory");
    counter++;
}

static void (*op)(void);
static unsigned long ops;

enum sync_way { SYNC_TM, SYNC_MUTEX, SYNC_PLAIN };
static const cmdline_choice sync_names[] = {
    { "tm", SYNC_TM, "in a transaction" },
    { "mutex", SYNC_MUTEX, "under a mutex" },
    { "plain", SYNC_PLAIN, "plainly" },
    { NULL, 0, NULL },
};

struct begin_commit_options {
    int sync;
    unsigned long threads, ops;
};

#define FIELD(f) CMDLINE_FIELD(struct begin_commit_options, f)
static const cmdline_option options[] = {
    { "--sync", "WAY", "tm, mutex or plain (required)", CMDLINE_CHOICE, FIELD(sync),
      .choices = sync_names, .init = -1 },
    { "--threads", "N", "threads (default 1, at most 64)", CMDLINE_WHOLE, FIELD(threads),
      .min = 1, .max = 64, .init = 1 },
    { "--ops", "N", "increments per thread (default 1000000)", CMDLINE_WHOLE, FIELD(ops),
      .min = 1, .max = 1ull << 32, .init = 1000000 },
    BENCH_OPTION_HELP,
    { NULL },
};

static void usage_head(FILE *out, const cmdline_program *p)
{
    fprintf(out,
            "Usage: %s --sync tm|mutex|plain [--threads N] [--ops N]\n"
            "Each of N threads increments one counter --ops times: in a transaction (tm),\n"
            "under a mutex, or plainly (threads one after the other). Prints the counter;\n"
            "exit status 0 when it is right, %d on bad usage, %d when it is wrong.\n\n",
            p->name, BENCH_EXIT_USAGE, BENCH_EXIT_BROKEN);
}

static pthread_barrier_t start;

/* Every thread has made its first operation (its first transaction registers it with the
 * runtime) before any goes on: the runs measure N threads, not one alone at first. */
static void *worker(void *arg)
{
    (void)arg;
    op();
    if (op != begin_commit_op_plain)
        pthread_barrier_wait(&start);
    for (unsigned long i = 1; i < ops; i++)
        op();
    return NULL;
}

int main(int argc, char **argv)
{
    const cmdline_program cli = {
        .name = cmdline_basename(argv[0]), .options = options, .column = 20, .gnu = true,
        .usage_head = usage_head,
    };
    const char *program = cli.name;
    struct begin_commit_options opt;
    switch (cmdline_parse(&cli, argc, argv, &opt)) {
    case CMDLINE_DONE: return 0;
    case CMDLINE_BAD: return BENCH_EXIT_USAGE;
    case CMDLINE_OK: break;
    }
    if (opt.sync < 0) {
        fprintf(stderr, "%s: --sync must be tm, mutex or plain (see %s --help)\n", program,
                program);
        return BENCH_EXIT_USAGE;
    }
    void (*const by_way[])(void) = {
        [SYNC_TM] = begin_commit_op_tm,
        [SYNC_MUTEX] = begin_commit_op_mutex,
        [SYNC_PLAIN] = begin_commit_op_plain,
    };
    op = by_way[opt.sync];
    ops = opt.ops;
    unsigned long threads = opt.threads;
    pthread_t t[64];
    bool one_by_one = op == begin_commit_op_plain;
    pthread_barrier_init(&start, NULL, (unsigned)threads);
    for (unsigned long i = 0; i < threads; i++) {
        if (pthread_create(&t[i], NULL, worker, NULL) != 0) {
            fprintf(stderr, "%s: cannot start thread %lu\n", program, i + 1);
            return 1;
        }
        if (one_by_one)
            pthread_join(t[i], NULL);
    }
    for (unsigned long i = 0; !one_by_one && i < threads; i++)
        pthread_join(t[i], NULL);
    unsigned long want = threads * ops;
    printf("counter %ld (want %lu)\n", counter, want);
    return (unsigned long)counter == want ? 0 : BENCH_EXIT_BROKEN;
}
