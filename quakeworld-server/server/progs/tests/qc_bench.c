/* qc-bench: QuakeC statements per second on a loop benchmark of the library's test program
 * (tests/qc/bench.qc), outside transactions and with each call inside one
 * __transaction_atomic block (LIBTM_ALGO / LIBTM_HTM choose libtm's algorithm;
 * LD_LIBRARY_PATH=/usr/lib/x86_64-linux-gnu runs it on GCC's libitm instead).
 * Prints one CSV line per mode: mode,function,calls,statements,seconds,statements_per_second,
 * cpu_seconds,statements_per_cpu_second (the thread's CPU time: steadier on a loaded machine). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "qc_test_util.h"

static void usage(FILE *to)
{
    fprintf(to,
            "Usage: qc-bench --progs FILE [--function NAME] [--iterations N] [--repeat N]\n"
            "                [--mode plain|tm|both]\n"
            "Runs the QuakeC function NAME(entity 1, N) (default bench_loop, from the test\n"
            "program tests/qc/bench.qc compiled by fteqcc) --repeat times and prints\n"
            "mode,function,calls,statements,seconds,statements_per_second,cpu_seconds,\n"
            "statements_per_cpu_second per mode (cpu: the thread's CPU time):\n"
            "plain = outside transactions, tm = each call in a __transaction_atomic block.\n"
            "  --progs FILE       the compiled test program (build/obj/.../progs/tests/tests.dat)\n"
            "  --function NAME    bench_loop (floats, vectors, a call, an entity field) or\n"
            "                     bench_private (locals only)\n"
            "  --iterations N     loop iterations per call (default 1000)\n"
            "  --repeat N         calls per mode (default 2000)\n"
            "  -h, --help         this text\n");
}

static double now(clockid_t clock)
{
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static qc_status QC_SAFE call(qc_ctx *ctx, qc_func f, int iterations)
{
    qc_ctx_reset(ctx);
    qc_set_parm_int(ctx, 0, 1);
    qc_set_parm_float(ctx, 1, (float)iterations);
    return qc_call(ctx, f);
}

static __attribute__((noinline)) qc_status call_in_transaction(qc_ctx *ctx, qc_func f,
                                                               int iterations)
{
    qc_status s;
    __transaction_atomic {
        s = call(ctx, f, iterations);
    }
    return s;
}

static void run(qc_ctx *ctx, qc_func f, const char *mode, const char *name, int iterations,
                long repeat, bool tm)
{
    uint64_t before = qc_ctx_statements(ctx);
    double start = now(CLOCK_MONOTONIC), cpu_start = now(CLOCK_THREAD_CPUTIME_ID);
    for (long r = 0; r < repeat; r++) {
        qc_status s = tm ? call_in_transaction(ctx, f, iterations) : call(ctx, f, iterations);
        if (s != QC_OK) {
            fprintf(stderr, "qc-bench: %s failed: %s\n", name, qc_ctx_error(ctx)->message);
            exit(1);
        }
    }
    double secs = now(CLOCK_MONOTONIC) - start, cpu = now(CLOCK_THREAD_CPUTIME_ID) - cpu_start;
    uint64_t statements = qc_ctx_statements(ctx) - before;
    printf("%s,%s,%ld,%llu,%.4f,%.0f,%.4f,%.0f\n", mode, name, repeat,
           (unsigned long long)statements, secs, statements / (secs > 0 ? secs : 1e-9), cpu,
           statements / (cpu > 0 ? cpu : 1e-9));
}

int main(int argc, char **argv)
{
    const char *progs = NULL, *function = "bench_loop", *mode = "both";
    int iterations = 1000;
    long repeat = 2000;
    static const struct option opts[] = {
        { "progs", required_argument, NULL, 'p' }, { "function", required_argument, NULL, 'f' },
        { "iterations", required_argument, NULL, 'i' }, { "repeat", required_argument, NULL, 'r' },
        { "mode", required_argument, NULL, 'm' }, { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 }
    };
    int c;
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        switch (c) {
        case 'p': progs = optarg; break;
        case 'f': function = optarg; break;
        case 'i': iterations = atoi(optarg); break;
        case 'r': repeat = atol(optarg); break;
        case 'm': mode = optarg; break;
        case 'h': usage(stdout); return 0;
        default: usage(stderr); return 2;
        }
    }
    if (!progs || iterations <= 0 || repeat <= 0 ||
        (strcmp(mode, "plain") && strcmp(mode, "tm") && strcmp(mode, "both"))) {
        fprintf(stderr, "qc-bench: --progs FILE is required; --iterations and --repeat take "
                        "positive numbers; --mode is plain, tm or both (see --help)\n");
        return 2;
    }
    char err[512];
    qc_vm *vm = qc_vm_load_file(progs, &(qc_load_options){ .statement_budget = 0xffffffffu },
                                err, sizeof err);
    if (!vm) {
        fprintf(stderr, "qc-bench: %s\n", err);
        return 1;
    }
    qc_func f = qc_find_function(vm, function);
    if (!f) {
        fprintf(stderr, "qc-bench: %s has no function %s\n", progs, function);
        return 1;
    }
    qc_ctx *ctx = qc_ctx_new(vm);
    printf("mode,function,calls,statements,seconds,statements_per_second,cpu_seconds,"
           "statements_per_cpu_second\n");
    if (strcmp(mode, "tm") != 0)
        run(ctx, f, "plain", function, iterations, repeat, false);
    if (strcmp(mode, "plain") != 0)
        run(ctx, f, "tm", function, iterations, repeat, true);
    qc_vm_free(vm);
    return 0;
}
