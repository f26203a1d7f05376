/* What the benchmark programs share: option parsing with clear errors, and running N
 * worker threads for a fixed time or a fixed amount of work. */
#ifndef BENCH_COMMON_H
#define BENCH_COMMON_H

#include <getopt.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define BENCH_EXIT_USAGE 2   /* bad command line */
#define BENCH_EXIT_BROKEN 3  /* the data structure failed verification */

/* Parses text as a whole number in [min, max]; on error prints which option was wrong and
 * what is accepted, and returns false. */
bool bench_parse_count(const char *program, const char *option, const char *text,
                       unsigned long min, unsigned long max, unsigned long *out);
/* Parses a duration in seconds, 0 < value <= 3600. */
bool bench_parse_seconds(const char *program, const char *option, const char *text, double *out);

/* The options every benchmark program takes, besides its own. */
struct bench_run_options {
    unsigned long threads;
    double duration;     /* seconds */
    bool duration_given; /* --duration was on the command line */
    unsigned long seed;
    bool test_verifier;
};
/* Their getopt_long entries (the short codes are taken: t, d, r, V, h). */
#define BENCH_RUN_LONGOPTS                              \
    { "threads", required_argument, NULL, 't' },        \
    { "duration", required_argument, NULL, 'd' },       \
    { "seed", required_argument, NULL, 'r' },           \
    { "test-verifier", no_argument, NULL, 'V' },        \
    { "help", no_argument, NULL, 'h' }

/* 1 thread, 1 second, seed 1. */
void bench_run_options_init(struct bench_run_options *run);
/* Takes getopt_long's answer c for a common option (--help excepted: the program prints its
 * own usage) or reports c as unknown; returns false after printing what was wrong. */
bool bench_parse_run_option(const char *program, int c, const char *arg, char **argv,
                            struct bench_run_options *run);
/* After the options: rejects stray arguments. */
bool bench_no_arguments_left(const char *program, int argc, char **argv);

/* A benchmark program's command line: its name (argv[0] without the directories), its own
 * options, and what --help prints. */
struct bench_cli {
    const char *program;
    const struct option *longopts;  /* its own, then BENCH_RUN_LONGOPTS and the zero entry */
    /* takes getopt_long's code c of one of its own options (c is none of t, d, r, V, h);
     * false after printing what was wrong */
    bool (*own_option)(void *opt, int c, const char *arg, const char *program);
    void (*usage)(FILE *out, const char *program);
    /* NULL: the program runs for --duration; else it does a fixed amount of work, set by
     * these options (named when --duration is refused), and run.duration becomes 0 */
    const char *fixed_work;
};
/* argv[0] without the directories: how the programs name themselves in messages. */
const char *bench_program_name(const char *argv0);
/* Parses argv into opt (the program's own options, defaults set by the caller) and run
 * (bench_run_options_init's defaults, then the common options); --help prints the usage and
 * exits 0. False after printing what was wrong. */
bool bench_parse_command_line(const struct bench_cli *cli, int argc, char **argv, void *opt,
                              struct bench_run_options *run);
/* --test-verifier's last line, "NAME verifier: FAILED" or "NAME verifier: " and `caught`, and the exit
 * status that goes with it (BENCH_EXIT_BROKEN when the verifier missed any damage). */
int bench_verifier_verdict(const char *name, int missed, const char *caught);

/* Each worker runs until *stop becomes true; its argument is args + index * stride. */
typedef void bench_worker_fn(void *arg, const atomic_bool *stop);

/* Starts the threads together, lets them run for duration seconds, stops and joins them;
 * with duration 0 the workers end by themselves (a fixed amount of work) and the time runs
 * until the last one has finished.
 * Returns the measured wall time in seconds, or a negative value if a thread could not start;
 * *cpu_seconds gets the process's CPU time (user + system) over the same span, which tells
 * whether a run on a shared machine got the processor time it asked for. */
double bench_run_threads(unsigned threads, double duration, bench_worker_fn *worker,
                         void *args, size_t stride, double *cpu_seconds);

/* For --test-verifier: does `damage`, runs `verified` (an expression that calls the verifier,
 * which prints its complaint), counts a miss in `missed` if it still passes, then `undo`. */
#define BENCH_EXPECT_CAUGHT(missed, what, verified, damage, undo)             \
    do {                                                                       \
        damage;                                                                \
        printf("damage: %s -> ", what);                                        \
        fflush(stdout);                                                        \
        if (verified) {                                                        \
            printf("NOT CAUGHT\n");                                            \
            (missed)++;                                                        \
        }                                                                      \
        undo;                                                                  \
    } while (0)

#endif
