/* Fixed-size chained hash table from string keys to entries (httpd 2.2's cache_hash).
 * Every operation except create/destroy and cache_key_init is transaction_safe, so it can
 * run inside __transaction_atomic blocks as well as under a mutex. A key's hash and length
 * are computed once, before the critical section (cache_key_init), so that lookups inside
 * a transaction read the key's bytes only to confirm a match. Key strings are owned by the
 * caller and must stay alive, unchanged, while the key is in the table. */
#ifndef MEMCACHE_CACHE_HASH_H
#define MEMCACHE_CACHE_HASH_H

#include <libtm.h>

typedef struct cache_key {
    const char *text;
    size_t length;
    unsigned long hash;
} cache_key_t;

/* Fills key for text (private work: call it outside critical sections). */
void cache_key_init(cache_key_t *key, const char *text);
/* Whether two keys have the same text (both immutable while reachable, as in the table). */
LIBTM_SAFE int cache_key_equal(const cache_key_t *a, const cache_key_t *b);

typedef struct cache_hash cache_hash_t;

/* Creates a table with bucket_count chains (never resized); NULL when out of memory. */
cache_hash_t *cache_hash_create(size_t bucket_count);
/* Frees the table and its chain nodes (not the keys or values). */
void cache_hash_destroy(cache_hash_t *table);

/* Value stored under key, or NULL. */
LIBTM_SAFE void *cache_hash_get(const cache_hash_t *table, const cache_key_t *key);
/* Stores value under key, replacing an existing value. Returns the previous value (NULL if
 * none); *out_of_memory is set to 1 when a new node could not be allocated. */
LIBTM_SAFE void *cache_hash_put(cache_hash_t *table, const cache_key_t *key, void *value, int *out_of_memory);
/* Removes key; returns its value or NULL if absent. */
LIBTM_SAFE void *cache_hash_remove(cache_hash_t *table, const cache_key_t *key);
LIBTM_SAFE size_t cache_hash_count(const cache_hash_t *table);

#endif
