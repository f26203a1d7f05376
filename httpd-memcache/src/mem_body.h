/* The body buffers of cached objects. Below MEM_BODY_MAPPED_MIN bytes they come from malloc;
 * from there on straight from the kernel (mmap), one mapping each. Under a cache's churn (large
 * bodies stored by one thread and evicted by another, streamed ones grown by doubling) glibc's
 * heaps fragment: in scripts/memcache-soak their footprint kept growing while the bytes in use
 * stayed flat. A mapped body's memory goes back to the system when it is freed, and a streamed
 * body grows or shrinks without a copy (mremap). The price: pages are whole (on average half a
 * page per body above the threshold), and each such store and eviction is a system call. */
#ifndef MEMCACHE_MEM_BODY_H
#define MEMCACHE_MEM_BODY_H

#include <stddef.h>

#define MEM_BODY_MAPPED_MIN (16 * 1024)

/* A buffer of capacity bytes (at least 1); NULL when out of memory. */
char *mem_body_alloc(size_t capacity);
/* The buffer with new_capacity bytes, its first min(capacity, new_capacity) bytes kept; NULL
 * when out of memory (body is then unchanged). */
char *mem_body_resize(char *body, size_t capacity, size_t new_capacity);
/* Frees a buffer of capacity bytes (NULL does nothing). */
void mem_body_free(char *body, size_t capacity);

#endif
