/* Binary max-heap of entries ordered by a priority read through a callback (httpd 2.2's
 * cache_pqueue). Each entry remembers its heap slot through get/set-position callbacks, so
 * removal and priority changes sift from the right place in O(log n). The head (largest
 * priority) is the eviction victim. All operations but create/destroy are transaction_safe. */
#ifndef MEMCACHE_CACHE_PQUEUE_H
#define MEMCACHE_CACHE_PQUEUE_H

#include "tm_safe.h"

typedef long long cache_pqueue_priority_t;
typedef cache_pqueue_priority_t (*cache_pqueue_get_priority_fn)(void *entry) TM_SAFE;
typedef size_t (*cache_pqueue_get_position_fn)(void *entry) TM_SAFE;
typedef void (*cache_pqueue_set_position_fn)(void *entry, size_t position) TM_SAFE;

typedef struct cache_pqueue cache_pqueue_t;

/* initial_capacity > 0; NULL when out of memory. */
cache_pqueue_t *cache_pqueue_create(size_t initial_capacity,
                                    cache_pqueue_get_priority_fn get_priority,
                                    cache_pqueue_get_position_fn get_position,
                                    cache_pqueue_set_position_fn set_position);
void cache_pqueue_destroy(cache_pqueue_t *queue);

TM_SAFE size_t cache_pqueue_size(const cache_pqueue_t *queue);
/* Adds entry; returns 0, or -1 when the array could not grow. */
TM_SAFE int cache_pqueue_insert(cache_pqueue_t *queue, void *entry);
/* Removes entry (which must be in the queue). */
TM_SAFE void cache_pqueue_remove(cache_pqueue_t *queue, void *entry);
/* Re-sorts entry after its priority changed from old_priority to whatever get_priority says now. */
TM_SAFE void cache_pqueue_change_priority(cache_pqueue_t *queue, cache_pqueue_priority_t old_priority,
                                          void *entry);
/* Head (largest priority) or NULL; pop also removes it. */
TM_SAFE void *cache_pqueue_peek(const cache_pqueue_t *queue);
TM_SAFE void *cache_pqueue_pop(cache_pqueue_t *queue);

#endif
