/* A cache instance: the settings of one cache (the main server's, or a virtual host's that
 * sets MCacheSize, MCacheMaxObjectCount, MCacheRemovalAlgorithm or MCacheSync), its
 * synchronisation, the cache_cache of this child process and its counters. Instances are
 * described in post_config (parent) and get their cache in child_init: as in httpd 2.2 the
 * cache lives in each child process. */
#ifndef MEMCACHE_MEM_INSTANCE_H
#define MEMCACHE_MEM_INSTANCE_H

#include "cache_cache.h"
#include "mem_config.h"
#include "mem_sync.h"

#include <apr_pools.h>

typedef enum {
    MEM_COUNT_HITS,       /* open_entity found a complete object */
    MEM_COUNT_MISSES,     /* open_entity found nothing usable */
    MEM_COUNT_STORED,     /* a response became a complete cached object */
    MEM_COUNT_NOT_STORED, /* a storing attempt gave up (size limits, errors, key taken) */
    MEM_COUNT_KINDS
} mem_count_kind_t;

struct mem_instance {
    const char *name;             /* "the main server" or the virtual host, for messages */
    apr_size_t max_cache_bytes;
    apr_size_t max_object_count;
    cache_policy_t policy;
    mem_sync_t sync;
    cache_cache_t *cache;         /* NULL before child_init or when it could not be made */
    /* Updated with atomic adds outside critical sections, so that counting never makes
     * transactions conflict. */
    apr_uint64_t counts[MEM_COUNT_KINDS];
    struct mem_instance *next;    /* every instance of the configuration, main server first */
};

/* The instances of the configuration in force (set by mem_instances_describe). */
extern mem_instance_t *mem_instances;

/* Gives every server its instance (a new one where it owns a cache, else the main
 * server's), allocated in pool; rebuilds mem_instances. */
void mem_instances_describe(apr_pool_t *pool, server_rec *main_server);
/* Child process (child_init): creates each instance's mutex (lock mode) and cache. Both
 * live in the configuration pool (main_server->process->pconf) and the caches are drained
 * when it is destroyed: the pools of connections and requests descend from it, not from the
 * child's own pool, which a child destroys first when it exits; requests still sending a
 * cached body at that moment drop their references afterwards. Returns NULL or a message
 * naming what failed. */
const char *mem_instances_start(server_rec *main_server);

static inline void mem_instance_count(mem_instance_t *instance, mem_count_kind_t kind)
{
    __atomic_fetch_add(&instance->counts[kind], 1, __ATOMIC_RELAXED);
}

typedef struct mem_instance_snapshot {
    size_t entries;
    size_t bytes;
    unsigned long long evictions;
    apr_uint64_t counts[MEM_COUNT_KINDS];
} mem_instance_snapshot_t;

/* Consistent view of the cache (inside one critical section) plus the counters. Returns 0,
 * or -1 when this process has no cache for the instance. */
int mem_instance_snapshot(mem_instance_t *instance, mem_instance_snapshot_t *out);

#endif
