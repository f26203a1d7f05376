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
#include <string.h>

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

static const struct {
    const char *name;
    void (*op)(void);
} syncs[] = {
    { "tm", begin_commit_op_tm },
    { "mutex", begin_commit_op_mutex },
    { "plain", begin_commit_op_plain },
};

static void (*op)(void);
static unsigned long ops = 1000000;

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

static void usage(FILE *out, const char *program)
{
    fprintf(out,
            "Usage: %s --sync tm|mutex|plain [--threads N] [--ops N]\n"
            "Each of N threads (default 1, at most 64) increments one counter --ops times\n"
            "(default 1000000): in a transaction (tm), under a mutex, or plainly (threads one\n"
            "after the other). Prints the counter; exit status 0 when it is right, %d on bad\n"
            "usage, %d when it is wrong.\n",
            program, BENCH_EXIT_USAGE, BENCH_EXIT_BROKEN);
}

int main(int argc, char **argv)
{
    const char *program = argv[0];
    unsigned long threads = 1;
    const char *sync = NULL;
    static const struct option longopts[] = {
        { "sync", required_argument, NULL, 's' },
        { "threads", required_argument, NULL, 't' },
        { "ops", required_argument, NULL, 'n' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    int c;
    while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
        switch (c) {
        case 's': sync = optarg; break;
        case 't':
            if (!bench_parse_count(program, "--threads", optarg, 1, 64, &threads))
                return BENCH_EXIT_USAGE;
            break;
        case 'n':
            if (!bench_parse_count(program, "--ops", optarg, 1, 1ul << 32, &ops))
                return BENCH_EXIT_USAGE;
            break;
        case 'h': usage(stdout, program); return 0;
        default: usage(stderr, program); return BENCH_EXIT_USAGE;
        }
    }
    if (optind < argc) {
        fprintf(stderr, "%s: unexpected argument '%s'\n", program, argv[optind]);
        return BENCH_EXIT_USAGE;
    }
    for (size_t i = 0; sync && i < sizeof syncs / sizeof syncs[0]; i++)
        if (strcmp(sync, syncs[i].name) == 0)
            op = syncs[i].op;
    if (!op) {
        fprintf(stderr, "%s: --sync must be tm, mutex or plain (got %s)\n", program,
                sync ? sync : "none");
        return BENCH_EXIT_USAGE;
    }
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
