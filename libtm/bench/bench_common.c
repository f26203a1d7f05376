/* Option parsing and the timed thread runner shared by the benchmark programs. */
#include "bench_common.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
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

bool bench_parse_count(const char *program, const char *option, const char *text,
                       unsigned long min, unsigned long max, unsigned long *out)
{
    char *end;
    errno = 0;
    unsigned long long value = strtoull(text, &end, 10);
    if (text[0] == '\0' || text[0] == '-' || *end != '\0' || errno || value < min || value > max) {
        fprintf(stderr, "%s: %s '%s' is not a whole number from %lu to %lu\n",
                program, option, text, min, max);
        return false;
    }
    *out = (unsigned long)value;
    return true;
}

bool bench_parse_seconds(const char *program, const char *option, const char *text, double *out)
{
    char *end;
    errno = 0;
    double value = strtod(text, &end);
    if (text[0] == '\0' || *end != '\0' || errno || !(value > 0) || value > 3600) {
        fprintf(stderr, "%s: %s '%s' is not a number of seconds above 0 and at most 3600\n",
                program, option, text);
        return false;
    }
    *out = value;
    return true;
}

/* Rejects thread counts the build cannot run (the seq build is single-threaded). */
static bool threads_supported(const char *program, unsigned long threads)
{
    if (threads <= BENCH_SYNC_MAX_THREADS)
        return true;
    fprintf(stderr, "%s: this is the %s build, which runs at most %u thread(s); use --threads %u "
            "or the -tm / -mutex build\n", program, BENCH_SYNC_NAME, BENCH_SYNC_MAX_THREADS,
            BENCH_SYNC_MAX_THREADS);
    return false;
}

void bench_run_options_init(struct bench_run_options *run)
{
    *run = (struct bench_run_options){ .threads = 1, .duration = 1.0, .seed = 1 };
}

bool bench_parse_run_option(const char *program, int c, const char *arg, char **argv,
                            struct bench_run_options *run)
{
    switch (c) {
    case 't':
        return bench_parse_count(program, "--threads", arg, 1, 1024, &run->threads)
               && threads_supported(program, run->threads);
    case 'd':
        run->duration_given = true;
        return bench_parse_seconds(program, "--duration", arg, &run->duration);
    case 'r':
        return bench_parse_count(program, "--seed", arg, 0, ULONG_MAX, &run->seed);
    case 'V':
        run->test_verifier = true;
        return true;
    default:
        fprintf(stderr, "%s: unknown or incomplete option '%s'; see --help\n", program, argv[optind - 1]);
        return false;
    }
}

bool bench_no_arguments_left(const char *program, int argc, char **argv)
{
    if (optind < argc) {
        fprintf(stderr, "%s: unexpected argument '%s'; see --help\n", program, argv[optind]);
        return false;
    }
    return true;
}

const char *bench_program_name(const char *argv0)
{
    const char *slash = strrchr(argv0, '/');
    return slash ? slash + 1 : argv0;
}

bool bench_parse_command_line(const struct bench_cli *cli, int argc, char **argv, void *opt,
                              struct bench_run_options *run)
{
    bench_run_options_init(run);
    int c;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "h", cli->longopts, NULL)) != -1) {
        bool ok;
        if (c == 'h') {
            cli->usage(stdout, cli->program);
            exit(0);
        } else if (c == 'd' && cli->fixed_work) {
            fprintf(stderr, "%s: --duration does not apply: the benchmark does a fixed amount of "
                    "work (%s) and reports the time it took\n", cli->program, cli->fixed_work);
            ok = false;
        } else if (c > 0 && strchr("tdrV?:", c)) {
            ok = bench_parse_run_option(cli->program, c, optarg, argv, run);
        } else {
            ok = cli->own_option(opt, c, optarg, cli->program);
        }
        if (!ok)
            return false;
    }
    if (!bench_no_arguments_left(cli->program, argc, argv))
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
