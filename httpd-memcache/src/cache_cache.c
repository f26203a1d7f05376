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

/* The queue callbacks have no context argument, so the meta accessor they use is the one of
 * the (single) entry type: set by cache_cache_create. All caches in a process share it. */
static cache_entry_meta_t *(*queue_meta)(void *entry) TM_SAFE;

TM_SAFE static cache_pqueue_priority_t queue_get_priority(void *entry)
{
    return queue_meta(entry)->priority;
}

TM_SAFE static size_t queue_get_position(void *entry)
{
    return queue_meta(entry)->position;
}

TM_SAFE static void queue_set_position(void *entry, size_t position)
{
    queue_meta(entry)->position = position;
}

cache_cache_t *cache_cache_create(size_t max_entries, size_t max_bytes, cache_policy_t policy,
                                  const cache_entry_ops_t *ops)
{
    cache_cache_t *cache = calloc(1, sizeof(*cache));
    if (!cache)
        return NULL;
    queue_meta = ops->meta;
    cache->max_entries = max_entries ? max_entries : 1;
    cache->max_bytes = max_bytes;
    cache->policy = policy;
    cache->ops = ops;
    cache->table = cache_hash_create(cache->max_entries);
    cache->queue = cache_pqueue_create(cache->max_entries, queue_get_priority, queue_get_position,
                                       queue_set_position);
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

/* Priority of entry under the cache's policy; larger means evicted sooner. */
TM_SAFE static cache_pqueue_priority_t policy_priority(cache_cache_t *cache, void *entry)
{
    cache_entry_meta_t *meta = cache->ops->meta(entry);
    if (cache->policy == CACHE_POLICY_LRU)
        return -(cache_pqueue_priority_t)(++cache->use_tick);
    size_t size = cache->ops->size(entry);
    if (size == 0)
        size = 1;
    cache_pqueue_priority_t benefit =
        (cache_pqueue_priority_t)meta->frequency * GDSF_SCALE / (cache_pqueue_priority_t)size;
    return cache->clock - benefit;
}

TM_SAFE void *cache_cache_find(cache_cache_t *cache, const cache_key_t *key)
{
    return cache_hash_get(cache->table, key);
}

/* Takes the victim out of both structures, ages the clock and returns it. */
TM_SAFE static void *evict_one(cache_cache_t *cache)
{
    void *victim = cache_pqueue_pop(cache->queue);
    if (!victim)
        return NULL;
    cache_pqueue_priority_t priority = cache->ops->meta(victim)->priority;
    if (priority < cache->clock)
        cache->clock = priority;
    cache_hash_remove(cache->table, cache->ops->key(victim));
    cache->bytes -= cache->ops->size(victim);
    cache->evictions++;
    return victim;
}

TM_SAFE cache_insert_result_t cache_cache_insert(cache_cache_t *cache, void *entry)
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
    cache_entry_meta_t *meta = cache->ops->meta(entry);
    meta->frequency = 1;
    meta->position = 0;
    meta->priority = policy_priority(cache, entry);
    if (cache_pqueue_insert(cache->queue, entry) != 0)
        return CACHE_INSERT_OUT_OF_MEMORY;
    int out_of_memory;
    cache_hash_put(cache->table, cache->ops->key(entry), entry, &out_of_memory);
    if (out_of_memory) {
        cache_pqueue_remove(cache->queue, entry);
        return CACHE_INSERT_OUT_OF_MEMORY;
    }
    cache->bytes += size;
    return CACHE_INSERT_OK;
}

TM_SAFE void cache_cache_update(cache_cache_t *cache, void *entry)
{
    cache_entry_meta_t *meta = cache->ops->meta(entry);
    cache_pqueue_priority_t old_priority = meta->priority;
    meta->frequency++;
    meta->priority = policy_priority(cache, entry);
    cache_pqueue_change_priority(cache->queue, old_priority, entry);
}

TM_SAFE int cache_cache_remove(cache_cache_t *cache, void *entry)
{
    const cache_key_t *key = cache->ops->key(entry);
    if (cache_hash_get(cache->table, key) != entry)
        return 0;
    cache_hash_remove(cache->table, key);
    cache_pqueue_remove(cache->queue, entry);
    cache->bytes -= cache->ops->size(entry);
    return 1;
}

TM_SAFE void *cache_cache_pop(cache_cache_t *cache)
{
    void *victim = cache_pqueue_pop(cache->queue);
    if (!victim)
        return NULL;
    cache_hash_remove(cache->table, cache->ops->key(victim));
    cache->bytes -= cache->ops->size(victim);
    return victim;
}

TM_SAFE size_t cache_cache_count(const cache_cache_t *cache)
{
    return cache_pqueue_size(cache->queue);
}

TM_SAFE size_t cache_cache_bytes(const cache_cache_t *cache)
{
    return cache->bytes;
}

TM_SAFE unsigned long long cache_cache_evictions(const cache_cache_t *cache)
{
    return cache->evictions;
}
