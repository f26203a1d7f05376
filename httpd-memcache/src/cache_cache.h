/* The cache proper (httpd 2.2's cache_cache): a hash table for lookup by key plus a
 * priority queue for eviction, limits on entry count and total bytes, and the removal
 * policies. Entries are opaque; they embed a cache_entry_meta_t that the cache maintains,
 * and transaction_safe callbacks give their key and size at insert and release them.
 * Everything except create/destroy is transaction_safe, so a caller can run it inside
 * __transaction_atomic or under a mutex. */
#ifndef MEMCACHE_CACHE_CACHE_H
#define MEMCACHE_CACHE_CACHE_H

#include "cache_hash.h"
#include "cache_pqueue.h"

typedef enum {
    CACHE_POLICY_LRU,  /* evict the least recently used entry */
    CACHE_POLICY_GDSF  /* GreedyDual-Size with Frequency: evict small benefit hits*K/size */
} cache_policy_t;

/* Bookkeeping the cache keeps inside every entry. The cache reaches it by address
 * (cache_entry_ops_t.meta_offset), and what it needs of the entry afterwards (key, size) is
 * copied here at insert: lookups, hits and removals make no indirect call, which inside a
 * transaction costs the TM runtime a clone-table lookup each. */
typedef struct cache_entry_meta {
    cache_pqueue_node_t node;     /* node.priority: larger = evicted sooner */
    unsigned long long frequency; /* 1 at insert, +1 per hit */
    size_t size;                  /* bytes charged to the cache at insert */
    const cache_key_t *key;       /* the entry's key, from ops->key at insert */
} cache_entry_meta_t;

typedef struct cache_entry_ops {
    size_t meta_offset; /* offsetof(entry type, its cache_entry_meta_t member) */
    /* Called at insert only. */
    const cache_key_t *(*key)(void *entry) LIBTM_SAFE;
    size_t (*size)(void *entry) LIBTM_SAFE;
    /* The cache dropped its reference (eviction or cache_cache_destroy). */
    void (*release)(void *entry) LIBTM_SAFE;
} cache_entry_ops_t;

typedef struct cache_cache cache_cache_t;

typedef enum {
    CACHE_INSERT_OK = 0,
    CACHE_INSERT_TOO_BIG = -1,      /* larger than the whole cache: nothing was evicted */
    CACHE_INSERT_OUT_OF_MEMORY = -2
} cache_insert_result_t;

/* NULL when out of memory. ops must outlive the cache. */
cache_cache_t *cache_cache_create(size_t max_entries, size_t max_bytes, cache_policy_t policy,
                                  const cache_entry_ops_t *ops);
/* Drops every entry (release callback) and frees the structures. */
void cache_cache_destroy(cache_cache_t *cache);

LIBTM_SAFE void *cache_cache_find(cache_cache_t *cache, const cache_key_t *key);
/* Inserts entry (whose key must not be present) with its current key and size, evicting
 * entries by policy until the count and byte limits allow it; each evicted entry is passed
 * to release. */
LIBTM_SAFE cache_insert_result_t cache_cache_insert(cache_cache_t *cache, void *entry);
/* Records a hit on entry: raises its frequency/recency and re-sorts it. */
LIBTM_SAFE void cache_cache_update(cache_cache_t *cache, void *entry);
/* Removes entry if it is the one stored under its key; returns 1 if removed. Does not call
 * release: the caller now owns the cache's reference. */
LIBTM_SAFE int cache_cache_remove(cache_cache_t *cache, void *entry);
/* Removes and returns the next eviction victim (NULL if empty); caller owns the reference. */
LIBTM_SAFE void *cache_cache_pop(cache_cache_t *cache);

LIBTM_SAFE size_t cache_cache_count(const cache_cache_t *cache);
LIBTM_SAFE size_t cache_cache_bytes(const cache_cache_t *cache);
LIBTM_SAFE unsigned long long cache_cache_evictions(const cache_cache_t *cache);

#endif
