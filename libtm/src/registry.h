/* The registry of descriptors (registry.c): every descriptor ever created, in a list that
 * other threads walk without a lock (serial lock, privatization, statistics, the adaptive
 * policy), and how many threads are registered now. */
#ifndef LIBTM_REGISTRY_H
#define LIBTM_REGISTRY_H

#include "tx.h"

struct tm_tx *tm_all_descriptors(void);
/* A free descriptor (one a thread left, logs and all) or a new one, marked in use. */
struct tm_tx *tm_registry_take(void);
void tm_registry_lock(void);   /* around fork, so that no thread is half registered */
void tm_registry_unlock(void);
/* In a forked child: only `self` (or nobody) is still running; the rest are free again. */
void tm_registry_after_fork(struct tm_tx *self);
/* Bumped in a forked child: a thread that the child creates may inherit the control block of
 * a parent's thread (glibc reuses its memory) with that thread's descriptor in the TM word. */
extern unsigned tm_fork_generation __attribute__((visibility("hidden")));
extern _Atomic unsigned tm_threads __attribute__((visibility("hidden"))); /* registered */
static inline unsigned tm_thread_count(void)
{
    return atomic_load_explicit(&tm_threads, memory_order_relaxed);
}

#endif
