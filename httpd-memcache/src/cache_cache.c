/* Hash table + priority queue + policies; see cache_cache.h. */
#include "cache_cache.h"

#include <stdlib.h>

/* GDSF benefit is frequency * GDSF_SCALE / size; the scale keeps integer precision for
 * objects up to megabytes (2.2 used 1000, which rounds every object above 1 KB to 0). */
#define GDSF_SCALE (1LL << 20)

struct cache_cache {
    size_t max_entries;
    size_t max_bytes;
    size_t bytes;
    unsigned long long evictions;
    /* GDSF's aging clock: lowered to each victim's priority, so newcomers start at the
     * current floor. LRU uses use_tick instead. */
    cache_pqueue_priority_t clock;
    unsigned long long use_tick;
    cache_policy_t policy;
    const cache_entry_ops_t *ops;
    cache_hash_t *table;
    cache_pqueue_t *queue;
};

LIBTM_SAFE static cache_entry_meta_t *meta_of(const cache_cache_t *cache, void *entry)
{
    return (cache_entry_meta_t *)((char *)entry + cache->ops->meta_offset);
}

/* The entry around a queue node (the node is the first member of the meta). */
LIBTM_SAFE static void *entry_of(const cache_cache_t *cache, cache_pqueue_node_t *node)
{
    return node ? (char *)node - cache->ops->meta_offset : NULL;
}

cache_cache_t *cache_cache_create(size_t max_entries, size_t max_bytes, cache_policy_t policy,
                                  const cache_entry_ops_t *ops)
{
    cache_cache_t *cache = calloc(1, sizeof(*cache));
    if (!cache)
        return NULL;
    cache->max_entries = max_entries ? max_entries : 1;
    cache->max_bytes = max_bytes;
    cache->policy = policy;
    cache->ops = ops;
    cache->table = cache_hash_create(cache->max_entries);
    cache->queue = cache_pqueue_create(cache->max_entries);
    if (!cache->table || !cache->queue) {
        cache_hash_destroy(cache->table);
        cache_pqueue_destroy(cache->queue);
        free(cache);
        return NULL;
    }
    return cache;
}

void cache_cache_destroy(cache_cache_t *cache)
{
    if (!cache)
        return;
    void *entry;
    while ((entry = cache_cache_pop(cache)) != NULL)
        cache->ops->release(entry);
    cache_hash_destroy(cache->table);
    cache_pqueue_destroy(cache->queue);
    free(cache);
}

/* Priority of an entry under the cache's policy; larger means evicted sooner. */
LIBTM_SAFE static cache_pqueue_priority_t policy_priority(cache_cache_t *cache, const cache_entry_meta_t *meta)
{
    if (cache->policy == CACHE_POLICY_LRU)
        return -(cache_pqueue_priority_t)(++cache->use_tick);
    size_t size = meta->size ? meta->size : 1;
    cache_pqueue_priority_t benefit =
        (cache_pqueue_priority_t)meta->frequency * GDSF_SCALE / (cache_pqueue_priority_t)size;
    return cache->clock - benefit;
}

LIBTM_SAFE void *cache_cache_find(cache_cache_t *cache, const cache_key_t *key)
{
    return cache_hash_get(cache->table, key);
}

/* Takes the victim out of both structures, ages the clock and returns it. */
LIBTM_SAFE static void *evict_one(cache_cache_t *cache)
{
    cache_pqueue_node_t *node = cache_pqueue_pop(cache->queue);
    if (!node)
        return NULL;
    cache_entry_meta_t *meta = (cache_entry_meta_t *)node;
    if (node->priority < cache->clock)
        cache->clock = node->priority;
    cache_hash_remove(cache->table, meta->key);
    cache->bytes -= meta->size;
    cache->evictions++;
    return entry_of(cache, node);
}

LIBTM_SAFE cache_insert_result_t cache_cache_insert(cache_cache_t *cache, void *entry)
{
    size_t size = cache->ops->size(entry);
    if (size > cache->max_bytes)
        return CACHE_INSERT_TOO_BIG;
    while (cache_pqueue_size(cache->queue) >= cache->max_entries ||
           cache->bytes + size > cache->max_bytes) {
        void *victim = evict_one(cache);
        if (!victim)
            break;
        cache->ops->release(victim);
    }
    cache_entry_meta_t *meta = meta_of(cache, entry);
    meta->key = cache->ops->key(entry);
    meta->size = size;
    meta->frequency = 1;
    meta->node.position = 0;
    meta->node.priority = policy_priority(cache, meta);
    if (cache_pqueue_insert(cache->queue, &meta->node) != 0)
        return CACHE_INSERT_OUT_OF_MEMORY;
    int out_of_memory;
    cache_hash_put(cache->table, meta->key, entry, &out_of_memory);
    if (out_of_memory) {
        cache_pqueue_remove(cache->queue, &meta->node);
        return CACHE_INSERT_OUT_OF_MEMORY;
    }
    cache->bytes += size;
    return CACHE_INSERT_OK;
}

LIBTM_SAFE void cache_cache_update(cache_cache_t *cache, void *entry)
{
    cache_entry_meta_t *meta = meta_of(cache, entry);
    meta->frequency++;
    cache_pqueue_change_priority(cache->queue, &meta->node, policy_priority(cache, meta));
}

LIBTM_SAFE int cache_cache_remove(cache_cache_t *cache, void *entry)
{
    cache_entry_meta_t *meta = meta_of(cache, entry);
    if (meta->node.position == 0 || cache_hash_get(cache->table, meta->key) != entry)
        return 0; /* never inserted, or no longer the one indexed under its key */
    cache_hash_remove(cache->table, meta->key);
    cache_pqueue_remove(cache->queue, &meta->node);
    cache->bytes -= meta->size;
    return 1;
}

LIBTM_SAFE void *cache_cache_pop(cache_cache_t *cache)
{
    cache_pqueue_node_t *node = cache_pqueue_pop(cache->queue);
    if (!node)
        return NULL;
    cache_entry_meta_t *meta = (cache_entry_meta_t *)node;
    cache_hash_remove(cache->table, meta->key);
    cache->bytes -= meta->size;
    return entry_of(cache, node);
}

LIBTM_SAFE size_t cache_cache_count(const cache_cache_t *cache)
{
    return cache_pqueue_size(cache->queue);
}

LIBTM_SAFE size_t cache_cache_bytes(const cache_cache_t *cache)
{
    return cache->bytes;
}

LIBTM_SAFE unsigned long long cache_cache_evictions(const cache_cache_t *cache)
{
    return cache->evictions;
}
