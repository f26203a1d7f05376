/* libtm: extensions beyond GCC's libitm ABI (symbol versions LIBTM_1.0, LIBTM_1.1, LIBTM_1.2).
 *
 * libtm is a drop-in libitm.so.1: programs compiled with `gcc -fgnu-tm` need nothing from this
 * header. It is for programs that want to read libtm's counters, steer it at run time, or use
 * open nesting (libtm_open, below).
 * Environment variables (read once, when the library loads; libtm(7) has the details):
 *   LIBTM_ALGO=orec|norec|serial   force an algorithm, no hardware transactions (default:
 *                                  adaptive among hardware transactions, orec, norec, serial)
 *   LIBTM_HTM=0|1                  0: never use hardware transactions (Intel RTM); 1: default
 *   LIBTM_CM=backoff|immediate|spin|block|yield|priority|handoff|softprio|slice
 *                                  contention manager (default backoff)
 *   LIBTM_RETRIES=N                restarts before a transaction runs serially (default 16)
 *   LIBTM_TURNS=0|1                0: orec's writers never take turns (default 1: they do while
 *                                  they abort each other often)
 *   LIBTM_STATS=path               write statistics as JSON at exit (%p expands to the pid)
 *   LIBTM_VERBOSE=1                a line on stderr at start (runtime, version, algorithm, why
 *                                  hardware transactions are used or not) and one at exit
 *                                  (commits, aborts, share of commits per mode)
 */
#ifndef LIBTM_H
#define LIBTM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define LIBTM_VERSION "1.2.0"

/* Grows only at its end: libtm_totals_read takes the caller's sizeof, so a program compiled
 * against an older, shorter struct keeps working (the fields it does not know are not written). */
struct libtm_totals {
    uint64_t commits;         /* outermost transactions committed */
    uint64_t aborts;          /* rollbacks of outermost transactions (restarts and cancels) */
    uint64_t conflict_aborts; /* of which caused by conflicts or failed validation */
    uint64_t user_aborts;     /* of which __transaction_cancel */
    uint64_t irrevocable;     /* of which the code made irrevocable (an unsafe call,
                               * _ITM_changeTransactionMode, no instrumented path); runs
                               * that the runtime chose to make serial are not counted */
    uint64_t serial;          /* transactions that ran exclusively (serial or irrevocable) */
    /* since LIBTM_1.1 */
    uint64_t htm_commits;     /* of commits, in a hardware (RTM) transaction */
    uint64_t htm_aborts;      /* hardware attempts that aborted (then retried or ran in software) */
    /* since LIBTM_1.2 */
    uint64_t open_commits;    /* of commits, open transactions' (libtm_open's functions) ... */
    uint64_t compensations;   /* ... and compensations' (every level's aborts are in aborts) */
};

/* Counters of the whole process so far (all threads, living and exited), always available.
 * `size` is sizeof(struct libtm_totals) as the caller knows it (version LIBTM_1.1; the
 * LIBTM_1.0 symbol libtm_get_totals, kept for old binaries, fills the first six fields). */
void libtm_totals_read(struct libtm_totals *totals, size_t size)
    __attribute__((transaction_pure));
#define libtm_get_totals(totals) libtm_totals_read((totals), sizeof *(totals))

/* The algorithm LIBTM_ALGO forces ("orec", "norec", "serial") or "adaptive"; and the mode the
 * adaptive policy runs now ("htm", "orec", "norec" or "serial"; "off" when forced). */
const char *libtm_algorithm(void) __attribute__((transaction_pure));
const char *libtm_adaptive_mode(void) __attribute__((transaction_pure));

/* Whether a transaction the calling thread began now would wait for another thread (the
 * calling thread has run transactions before): one runs alone (serial or irrevocable) now, or, in serial mode, another thread's turn (README: "With
 * several threads, serial mode goes in turns") is under way. A hint, outside transactions: a
 * program with other work may do it first, or leave the atomic work to that thread (version
 * LIBTM_1.3). */
int libtm_serial_elsewhere(void) __attribute__((transaction_pure));

/* Selects the contention manager by name; returns 0, or -1 for an unknown name. */
int libtm_set_contention_manager(const char *name);

/* Writes the per-block statistics now (LIBTM_STATS must be set to collect them); path may
 * contain %p. Returns 0 or -1 with errno set. */
int libtm_stats_write(const char *path);

/* ---- Annotations, and the ABI entries a program calls itself ---------------------------
 * GCC ships no header for the _ITM_* functions that programs call directly; these
 * declarations hold for GCC's libitm as for libtm (a program using only them still runs on
 * either). transaction_pure lets a transaction call them without instrumentation. */
#define LIBTM_SAFE __attribute__((transaction_safe))         /* callable in a transaction */
#define LIBTM_PURE __attribute__((transaction_pure))         /* runs uninstrumented in one */
#define LIBTM_CALLABLE __attribute__((transaction_callable)) /* gets a clone, may be unsafe */

#define LIBTM_NO_TRANSACTION_ID 1ULL /* _ITM_noTransactionId */
/* _ITM_inTransaction's answers (_ITM_howExecuting). */
enum { LIBTM_OUTSIDE = 0, LIBTM_RETRYABLE = 1, LIBTM_IRREVOCABLE = 2 };

/* Runs fn(arg) after the outermost transaction commits (never if it rolls back); the resuming
 * id is always LIBTM_NO_TRANSACTION_ID. */
void _ITM_addUserCommitAction(void (*fn)(void *), uint64_t resuming_id, void *arg) LIBTM_PURE;
/* Runs fn(arg) if the transaction (or the nested one it is in) rolls back. */
void _ITM_addUserUndoAction(void (*fn)(void *), void *arg) LIBTM_PURE;
int _ITM_inTransaction(void) LIBTM_PURE;
uint64_t _ITM_getTransactionId(void) LIBTM_PURE;
const char *_ITM_libraryVersion(void) LIBTM_PURE;

/* ---- Open nesting (version LIBTM_1.2) -----------------------------------------------------
 * libtm_open(fn, arg, compensate, carg), called in a transaction at any nesting depth, runs
 * fn(arg) as an open transaction: a transaction of its own that commits before libtm_open
 * returns, so that other threads see its effects at once and no conflict on them waits for the
 * enclosing transaction. If the enclosing transaction then rolls back (a restart, or a
 * __transaction_cancel of it or of a nested transaction around the call), compensate(carg)
 * runs as a transaction of its own after the rollback restored memory, in reverse order with
 * the other compensations and undo actions; when it commits, compensate never runs (NULL: no
 * compensation). The classic uses: a counter or statistic that every transaction updates, an
 * allocator, a unique-id generator, whose abstract state the open transactions own.
 *
 * fn and compensate must be transaction_safe (GCC checks the pointer type), may read and write
 * only data that only open transactions touch (the enclosing transaction may read what fn
 * wrote once libtm_open returned, and nothing else of it), must not throw, and get their
 * arguments by pointer: carg must outlive the outermost transaction (a variable declared
 * outside the atomic block, or the heap), and only fn may write what it points to. Outside a
 * transaction fn runs as an ordinary transaction; in an irrevocable one (which cannot roll
 * back) compensate is dropped. libtm(7), OPEN NESTING, has the details: isolation, the serial
 * and hardware modes, nesting, conflicts, and the misuse libtm detects.
 *
 * GCC's libitm has no open nesting. A program that must also run there finds libtm_open with
 * dlsym(RTLD_DEFAULT, "libtm_open") (type libtm_open_t: the call needs no clone) and otherwise
 * calls fn inside its transaction, which then undoes fn with everything else. */
#define LIBTM_HAVE_OPEN 1
typedef void (*libtm_safe_fn)(void *) LIBTM_SAFE; /* a function that a transaction may call */
void libtm_open(libtm_safe_fn fn, void *arg, libtm_safe_fn compensate, void *carg) LIBTM_PURE;
typedef void (*libtm_open_t)(libtm_safe_fn, void *, libtm_safe_fn, void *) LIBTM_PURE;

#ifdef __cplusplus
}
#endif

#endif
