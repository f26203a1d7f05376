/* The common command line and the timed thread runner shared by the benchmark programs. */
#include "bench_common.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "bench_sync.h"

#if defined(BENCH_SYNC_MUTEX)
pthread_mutex_t bench_global_lock = PTHREAD_MUTEX_INITIALIZER;
#endif

const char *bench_program_name(const char *argv0)
{
    return cmdline_basename(argv0);
}

struct parse_state {
    const struct bench_cli *cli;
    struct bench_run_options *run;
};

static void usage_head(FILE *out, const cmdline_program *p)
{
    const struct parse_state *state = p->user;
    fprintf(out, "Usage: %s [OPTIONS]\n%s\n", p->name, state->cli->about);
}

static void usage_tail(FILE *out, const cmdline_program *p)
{
    const struct parse_state *state = p->user;
    fprintf(out, "\n%sthen a readable one. Exit status: 0 verified, %d bad usage, %d verification "
            "failed.\n"
            "The tm build runs on libtm; LD_LIBRARY_PATH=/usr/lib/x86_64-linux-gnu runs it on GCC's\n"
            "libitm instead.\n", state->cli->output, BENCH_EXIT_USAGE, BENCH_EXIT_BROKEN);
}

/* --threads within what the build runs (the seq build is single-threaded); --duration given,
 * and refused where the work is fixed. */
static bool check_run_option(const cmdline_program *p, const cmdline_option *o,
                             const char *value, void *target)
{
    (void)value;
    (void)target;
    const struct parse_state *state = p->user;
    if (!strcmp(o->name, "--threads") && state->run->threads > BENCH_SYNC_MAX_THREADS) {
        fprintf(stderr, "%s: this is the %s build, which runs at most %u thread(s); use --threads "
                "%u or the -tm / -mutex build\n", p->name, BENCH_SYNC_NAME,
                BENCH_SYNC_MAX_THREADS, BENCH_SYNC_MAX_THREADS);
        return false;
    }
    if (!strcmp(o->name, "--duration")) {
        state->run->duration_given = true;
        if (state->cli->fixed_work) {
            fprintf(stderr, "%s: --duration does not apply: the benchmark does a fixed amount of "
                    "work (%s) and reports the time it took\n", p->name, state->cli->fixed_work);
            return false;
        }
    }
    return true;
}

bool bench_parse_command_line(const struct bench_cli *cli, int argc, char **argv, void *opt,
                              struct bench_run_options *run)
{
    struct parse_state state = { cli, run };
    const cmdline_program program = {
        .name = cli->program, .options = cli->options, .column = cli->column, .gnu = true,
        .usage_head = usage_head, .usage_tail = usage_tail, .applied = check_run_option,
        .user = &state,
    };
    *run = (struct bench_run_options){ 0 };
    cmdline_result r = cmdline_parse(&program, argc, argv, opt);
    if (r == CMDLINE_DONE)
        exit(0);
    if (r == CMDLINE_BAD)
        return false;
    if (cli->fixed_work)
        run->duration = 0;
    return true;
}

int bench_verifier_verdict(const char *name, int missed, const char *caught)
{
    printf("%s verifier: %s\n", name, missed ? "FAILED" : caught);
    return missed ? BENCH_EXIT_BROKEN : 0;
}

struct thread_start {
    bench_worker_fn *worker;
    void *arg;
    pthread_barrier_t *barrier;
    const atomic_bool *stop;
};

static void *thread_main(void *p)
{
    struct thread_start *start = p;
    pthread_barrier_wait(start->barrier);
    start->worker(start->arg, start->stop);
    return NULL;
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void sleep_seconds(double seconds)
{
    struct timespec until;
    clock_gettime(CLOCK_MONOTONIC, &until);
    double whole = (double)(long)seconds;
    until.tv_sec += (time_t)whole;
    until.tv_nsec += (long)((seconds - whole) * 1e9);
    if (until.tv_nsec >= 1000000000L) {
        until.tv_sec++;
        until.tv_nsec -= 1000000000L;
    }
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &until, NULL) == EINTR)
        ;
}

static double process_cpu_seconds(void)
{
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    return (double)usage.ru_utime.tv_sec + (double)usage.ru_utime.tv_usec * 1e-6
         + (double)usage.ru_stime.tv_sec + (double)usage.ru_stime.tv_usec * 1e-6;
}

double bench_run_threads(unsigned threads, double duration, bench_worker_fn *worker,
                         void *args, size_t stride, double *cpu_seconds)
{
    pthread_t *ids = calloc(threads, sizeof *ids);
    struct thread_start *starts = calloc(threads, sizeof *starts);
    pthread_barrier_t barrier;
    atomic_bool stop = false;
    double elapsed = -1;
    unsigned started = 0;

    if (!ids || !starts || pthread_barrier_init(&barrier, NULL, threads + 1) != 0) {
        free(ids);
        free(starts);
        return -1;
    }
    for (; started < threads; started++) {
        starts[started] = (struct thread_start){ worker, (char *)args + started * stride, &barrier, &stop };
        int rc = pthread_create(&ids[started], NULL, thread_main, &starts[started]);
        if (rc != 0) {
            fprintf(stderr, "cannot start thread %u of %u: %s\n", started + 1, threads, strerror(rc));
            break;
        }
    }
    if (started == threads) {
        pthread_barrier_wait(&barrier);
        double begin = now_seconds(), cpu_begin = process_cpu_seconds();
        if (duration > 0) {
            sleep_seconds(duration);
            atomic_store(&stop, true);
        }
        for (unsigned i = 0; i < threads; i++)
            pthread_join(ids[i], NULL);
        elapsed = now_seconds() - begin;
        *cpu_seconds = process_cpu_seconds() - cpu_begin;
    } else {
        /* The barrier can never fill: there is no clean way out for the started threads. */
        exit(1);
    }
    pthread_barrier_destroy(&barrier);
    free(ids);
    free(starts);
    return elapsed;
}
