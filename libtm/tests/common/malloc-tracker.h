/* Counts live heap blocks of a few unusual sizes (TRACKED_SIZE_MIN..MAX), by replacing
 * malloc/calloc/realloc/free in the test program with wrappers around glibc's __libc_*
 * functions. Everything that allocates (the test, libstdc++'s operator new, the TM runtime's
 * transactional malloc and its deferred frees) goes through them. */
#ifndef TMTEST_MALLOC_TRACKER_H
#define TMTEST_MALLOC_TRACKER_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TRACKED_SIZE_MIN 4001
#define TRACKED_SIZE_MAX 4009

/* Number of tracked blocks currently allocated by the calling thread. */
long tracked_live_blocks(void) __attribute__((transaction_pure));
/* Number of tracked blocks currently allocated by any thread, living or exited. */
long tracked_live_blocks_all(void) __attribute__((transaction_pure));
/* 1 if p is a tracked block that is currently allocated. */
int tracked_is_live(const void *p) __attribute__((transaction_pure));

#ifdef __cplusplus
}
#endif

#endif
