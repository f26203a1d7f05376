/* Binary max-heap of nodes embedded in the entries (httpd 2.2's cache_pqueue). Each node
 * holds its entry's priority and remembers its heap slot, so removal and priority changes
 * sift from the right place in O(log n). The queue reads and writes the nodes directly: no
 * callbacks, because inside a transaction every indirect call costs the TM runtime a
 * clone-table lookup. The head (largest priority) is the eviction victim. All operations
 * but create/destroy are transaction_safe. */
#ifndef MEMCACHE_CACHE_PQUEUE_H
#define MEMCACHE_CACHE_PQUEUE_H

#include <libtm.h>

typedef long long cache_pqueue_priority_t;

typedef struct cache_pqueue_node {
    cache_pqueue_priority_t priority; /* set before insert; changed with change_priority */
    size_t position;                  /* heap slot, 0 when not queued */
} cache_pqueue_node_t;

typedef struct cache_pqueue cache_pqueue_t;

/* initial_capacity > 0; NULL when out of memory. */
cache_pqueue_t *cache_pqueue_create(size_t initial_capacity);
void cache_pqueue_destroy(cache_pqueue_t *queue);

LIBTM_SAFE size_t cache_pqueue_size(const cache_pqueue_t *queue);
/* Adds node with its priority; returns 0, or -1 when the array could not grow. */
LIBTM_SAFE int cache_pqueue_insert(cache_pqueue_t *queue, cache_pqueue_node_t *node);
/* Removes node; nothing happens if it is not in the queue. */
LIBTM_SAFE void cache_pqueue_remove(cache_pqueue_t *queue, cache_pqueue_node_t *node);
/* Gives a queued node a new priority and re-sorts it. */
LIBTM_SAFE void cache_pqueue_change_priority(cache_pqueue_t *queue, cache_pqueue_node_t *node,
                                          cache_pqueue_priority_t priority);
/* Head (largest priority) or NULL; pop also removes it. */
LIBTM_SAFE cache_pqueue_node_t *cache_pqueue_peek(const cache_pqueue_t *queue);
LIBTM_SAFE cache_pqueue_node_t *cache_pqueue_pop(cache_pqueue_t *queue);

#endif
