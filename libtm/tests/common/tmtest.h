/* Shared helpers of the libtm behaviour tests: failure reports, skips, transaction_pure probes
 * that record what a transaction saw, thread start/join, and which runtime is loaded. */
#ifndef TMTEST_H
#define TMTEST_H

#ifndef __cplusplus
#include <stdatomic.h>
#endif
#include <stddef.h>
#include <stdint.h>

#include "itm_decls.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TMTEST_PURE __attribute__((transaction_pure))

/* Handles --help (prints usage, exits 0) and remembers the program name for messages. */
void tmtest_init(int argc, char **argv, const char *usage);

/* Prints "FAIL <program>: <file>:<line>: <message>" on stderr and exits 1. */
void tmtest_fail_at(const char *file, int line, const char *fmt, ...)
    __attribute__((noreturn, format(printf, 3, 4))) TMTEST_PURE;
#define TMTEST_FAIL(...) tmtest_fail_at(__FILE__, __LINE__, __VA_ARGS__)
#define TMTEST_CHECK(cond, ...) \
    do { if (!(cond)) tmtest_fail_at(__FILE__, __LINE__, __VA_ARGS__); } while (0)

/* Prints the reason as the last line and exits 77 (the harness reports a skip). */
void tmtest_skip(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));

/* Progress line on stdout (goes to the test log). */
void tmtest_note(const char *fmt, ...) __attribute__((format(printf, 1, 2))) TMTEST_PURE;

/* Violations seen from inside transactions: counted and the first message kept. Safe to call
 * from any thread inside or outside a transaction (it is transaction_pure: never rolled back). */
void tmtest_violation(const char *fmt, ...) __attribute__((format(printf, 1, 2))) TMTEST_PURE;
/* Fails the test if any violation was recorded, naming the first one and the count. */
void tmtest_check_no_violations(const char *what);

/* 1 when the loaded runtime is GCC's libitm ("GNU libitm ..."), 0 for libtm. */
int tmtest_runtime_is_gcc(void);
/* Exits 77 unless the program runs on libtm (libtm-only behaviour). */
void tmtest_require_libtm(void);

/* Starts n threads running fn(index) and joins them all. */
void tmtest_run_threads(int n, void (*fn)(int index));

/* Runs check(who) on one thread while a second thread keeps committing small unrelated
 * transactions until the check is done; returns how many the second thread committed. */
long tmtest_beside_busy_thread(void (*check)(const char *who));

/* Bounded politeness: lets other threads run without depending on how long that takes. */
void tmtest_yield(int times) TMTEST_PURE;

/* Small deterministic per-thread random numbers (xorshift). */
static inline uint64_t tmtest_rand(uint64_t *state)
{
    uint64_t x = *state;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return *state = x;
}

/* Makes the compiler forget what it knows about memory: GCC drops transactions that contain no
 * transactional memory access, for instance when it can constant-fold the only read. */
#define TMTEST_FORGET_MEMORY() __asm__ __volatile__("" ::: "memory")

/* Reads an integer option "--name=value" from argv, or returns the default. */
long tmtest_option(int argc, char **argv, const char *name, long default_value);

#ifdef __cplusplus
}
#endif

#endif
