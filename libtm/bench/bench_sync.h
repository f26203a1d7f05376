/* How one benchmark operation is made atomic. The same source is compiled three ways:
 *   BENCH_SYNC_TM     each operation is one __transaction_atomic block (libtm or GCC's libitm);
 *   BENCH_SYNC_MUTEX  one global pthread mutex around each operation;
 *   BENCH_SYNC_SEQ    no synchronisation at all (single thread: the uninstrumented baseline).
 * Usage:  ATOMIC_BEGIN  result = op(...);  ATOMIC_END
 * Never leave the block with return/break/goto: the mutex build would keep the lock. */
#ifndef BENCH_SYNC_H
#define BENCH_SYNC_H

#include <pthread.h>

/* Marks code that runs inside transactions. Without -fgnu-tm GCC ignores it silently. */
#define TM_SAFE __attribute__((transaction_safe))

#if defined(BENCH_SYNC_TM)
#  define BENCH_SYNC_NAME "tm"
#  define BENCH_SYNC_MAX_THREADS 1024u
#  define ATOMIC_BEGIN __transaction_atomic {
#  define ATOMIC_END }
#elif defined(BENCH_SYNC_MUTEX)
#  define BENCH_SYNC_NAME "mutex"
#  define BENCH_SYNC_MAX_THREADS 1024u
extern pthread_mutex_t bench_global_lock;
#  define ATOMIC_BEGIN { pthread_mutex_lock(&bench_global_lock);
#  define ATOMIC_END pthread_mutex_unlock(&bench_global_lock); }
#elif defined(BENCH_SYNC_SEQ)
#  define BENCH_SYNC_NAME "seq"
#  define BENCH_SYNC_MAX_THREADS 1u
#  define ATOMIC_BEGIN {
#  define ATOMIC_END }
#else
#  error "compile with one of -DBENCH_SYNC_TM, -DBENCH_SYNC_MUTEX, -DBENCH_SYNC_SEQ"
#endif

#endif
