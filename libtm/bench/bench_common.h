/* What the benchmark programs share: their common options and --help (on the option engine,
 * common/cmdline.h), and running N worker threads for a fixed time or a fixed amount of
 * work. */
#ifndef BENCH_COMMON_H
#define BENCH_COMMON_H

#include <limits.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "bench_sync.h"
#include "cmdline.h"

#define BENCH_EXIT_USAGE 2   /* bad command line */
#define BENCH_EXIT_BROKEN 3  /* the data structure failed verification */

/* The options every benchmark program takes, besides its own. */
struct bench_run_options {
    unsigned long threads;
    double duration;     /* seconds */
    bool duration_given; /* --duration was on the command line */
    unsigned long seed;
    bool test_verifier;
};

#if BENCH_SYNC_MAX_THREADS == 1
#define BENCH_THREADS_NOTE ", the only choice here"
#else
#define BENCH_THREADS_NOTE ""
#endif
/* The common options' entries in a program's table (cmdline.h), for its options struct T
 * with the member `struct bench_run_options run`; each program lists them where its --help
 * shows them. */
#define BENCH_OPTION_THREADS(T, what)                                                        \
    { "--threads", "N", what " (default 1" BENCH_THREADS_NOTE ")", CMDLINE_WHOLE,              \
      CMDLINE_FIELD(T, run.threads), .min = 1, .max = 1024, .init = 1 }
#define BENCH_OPTION_DURATION(T)                                                             \
    { "--duration", "S", "seconds to run (default 1)", CMDLINE_REAL, CMDLINE_FIELD(T, run.duration), .lo = 0,          \
      .lo_open = true, .hi = 3600, .init = 1,                                                  \
      .needs = "a number of seconds above 0 and at most 3600" }
/* A fixed-work program's --duration: any value, refused as not applying (not listed). */
#define BENCH_OPTION_NO_DURATION { "--duration", "S", NULL, CMDLINE_TEXT, .type = CMDLINE_NONE }
#define BENCH_OPTION_SEED(T)                                                                 \
    { "--seed", "N", "random seed (default 1)", CMDLINE_WHOLE, CMDLINE_FIELD(T, run.seed),     \
      .min = 0, .max = ULONG_MAX, .init = 1 }
#define BENCH_OPTION_VERIFIER(T, catches)                                                    \
    { "--test-verifier", NULL, "instead of a run, check that the verifier catches " catches,   \
      CMDLINE_FLAG, CMDLINE_FIELD(T, run.test_verifier) }
#define BENCH_OPTION_HELP { "--help", NULL, "this text", CMDLINE_HELP, .aliases = "-h" }
/* What ends every table: --seed, --test-verifier, --help and the end mark. */
#define BENCH_OPTIONS_END(T, catches) \
    BENCH_OPTION_SEED(T), BENCH_OPTION_VERIFIER(T, catches), BENCH_OPTION_HELP, { NULL }

/* A benchmark program's command line: its name (argv[0] without the directories), its
 * options, and the texts of --help around them. */
struct bench_cli {
    const char *program;
    const cmdline_option *options;  /* ends with {NULL} */
    int column;                     /* where an option's text starts in --help */
    const char *about;              /* after "Usage: PROGRAM [OPTIONS]" */
    /* what it prints, up to "then a readable one. Exit status: ..." */
    const char *output;
    /* NULL: the program runs for --duration; else it does a fixed amount of work, set by
     * these options (named when --duration is refused), and run.duration becomes 0 */
    const char *fixed_work;
};
/* argv[0] without the directories: how the programs name themselves in messages. */
const char *bench_program_name(const char *argv0);
/* Parses argv into opt (the table's defaults first; run is opt's member `run`); --help prints
 * the usage and exits 0. False after printing what was wrong. */
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
