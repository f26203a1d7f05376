/* What the intset and bank programs share: option parsing with clear errors, and running N
 * worker threads for a fixed time. */
#ifndef BENCH_COMMON_H
#define BENCH_COMMON_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

#define BENCH_EXIT_USAGE 2   /* bad command line */
#define BENCH_EXIT_BROKEN 3  /* the data structure failed verification */

/* Parses text as a whole number in [min, max]; on error prints which option was wrong and
 * what is accepted, and returns false. */
bool bench_parse_count(const char *program, const char *option, const char *text,
                       unsigned long min, unsigned long max, unsigned long *out);
/* Parses a duration in seconds, 0 < value <= 3600. */
bool bench_parse_seconds(const char *program, const char *option, const char *text, double *out);

/* Rejects thread counts the build cannot run (the seq build is single-threaded). */
bool bench_threads_supported(const char *program, unsigned long threads);

/* Each worker runs until *stop becomes true; its argument is args + index * stride. */
typedef void bench_worker_fn(void *arg, const atomic_bool *stop);

/* Starts the threads together, lets them run for duration seconds, stops and joins them.
 * Returns the measured wall time in seconds, or a negative value if a thread could not start;
 * *cpu_seconds gets the process's CPU time (user + system) over the same span, which tells
 * whether a run on a shared machine got the processor time it asked for. */
double bench_run_threads(unsigned threads, double duration, bench_worker_fn *worker,
                         void *args, size_t stride, double *cpu_seconds);

#endif
