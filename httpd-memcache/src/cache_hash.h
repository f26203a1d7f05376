/* Fixed-size chained hash table from string keys to entries (httpd 2.2's cache_hash).
 * Every operation except create/destroy is transaction_safe, so it can run inside
 * __transaction_atomic blocks as well as under a mutex. Key strings are owned by the
 * caller and must stay alive while the key is in the table. */
#ifndef MEMCACHE_CACHE_HASH_H
#define MEMCACHE_CACHE_HASH_H

#include "tm_safe.h"

typedef struct cache_hash cache_hash_t;

/* Creates a table with bucket_count chains (never resized); NULL when out of memory. */
cache_hash_t *cache_hash_create(size_t bucket_count);
/* Frees the table and its chain nodes (not the keys or values). */
void cache_hash_destroy(cache_hash_t *table);

/* Value stored under key, or NULL. */
TM_SAFE void *cache_hash_get(const cache_hash_t *table, const char *key);
/* Stores value under key, replacing an existing value. Returns the previous value (NULL if
 * none); *out_of_memory is set to 1 when a new node could not be allocated. */
TM_SAFE void *cache_hash_put(cache_hash_t *table, const char *key, void *value, int *out_of_memory);
/* Removes key; returns its value or NULL if absent. */
TM_SAFE void *cache_hash_remove(cache_hash_t *table, const char *key);
TM_SAFE size_t cache_hash_count(const cache_hash_t *table);

#endif
