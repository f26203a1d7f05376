/* libtm: extensions beyond GCC's libitm ABI (symbol version LIBTM_1.0).
 *
 * libtm is a drop-in libitm.so.1: programs compiled with `gcc -fgnu-tm` need nothing from this
 * header. It is for programs that want to read libtm's counters or steer it at run time.
 * Environment variables (read once, at the first transaction):
 *   LIBTM_ALGO=orec|norec|serial   force an algorithm, no hardware transactions (default:
 *                                  adaptive among hardware transactions, orec and serial mode)
 *   LIBTM_HTM=0|1                  0: never use hardware transactions (Intel RTM); 1: default
 *   LIBTM_CM=backoff|immediate|spin|block|yield|priority   contention manager
 *   LIBTM_RETRIES=N                restarts before a transaction runs serially (default 16)
 *   LIBTM_STATS=path               write statistics as JSON at exit (%p expands to the pid)
 *   LIBTM_VERBOSE=1                one line on stderr at start naming runtime, version, algorithm
 */
#ifndef LIBTM_H
#define LIBTM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define LIBTM_VERSION "1.0.0"

/* Grows only at its end: libtm_totals_read takes the caller's sizeof, so a program compiled
 * against an older, shorter struct keeps working (the fields it does not know are not written). */
struct libtm_totals {
    uint64_t commits;         /* outermost transactions committed */
    uint64_t aborts;          /* rollbacks of outermost transactions (restarts and cancels) */
    uint64_t conflict_aborts; /* of which caused by conflicts or failed validation */
    uint64_t user_aborts;     /* of which __transaction_cancel */
    uint64_t irrevocable;     /* transactions that ran (or ended) serial-irrevocable */
    uint64_t serial;          /* transactions that ran exclusively (serial or irrevocable) */
    /* since LIBTM_1.1 */
    uint64_t htm_commits;     /* of commits, in a hardware (RTM) transaction */
    uint64_t htm_aborts;      /* hardware attempts that aborted (then retried or ran in software) */
};

/* Counters of the whole process so far (all threads, living and exited), always available.
 * `size` is sizeof(struct libtm_totals) as the caller knows it (version LIBTM_1.1; the
 * LIBTM_1.0 symbol libtm_get_totals, kept for old binaries, fills the first six fields). */
void libtm_totals_read(struct libtm_totals *totals, size_t size)
    __attribute__((transaction_pure));
#define libtm_get_totals(totals) libtm_totals_read((totals), sizeof *(totals))

/* Name of the speculative algorithm in use ("orec", "norec", "serial") and of the mode the
 * adaptive policy currently prefers ("htm", "speculative" or "serial"). */
const char *libtm_algorithm(void) __attribute__((transaction_pure));
const char *libtm_adaptive_mode(void) __attribute__((transaction_pure));

/* Selects the contention manager by name; returns 0, or -1 for an unknown name. */
int libtm_set_contention_manager(const char *name);

/* Writes the per-block statistics now (LIBTM_STATS must be set to collect them); path may
 * contain %p. Returns 0 or -1 with errno set. */
int libtm_stats_write(const char *path);

#ifdef __cplusplus
}
#endif

#endif
