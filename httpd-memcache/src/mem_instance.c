/* Cache instances: one per cache of the configuration, described in post_config, started
 * (mutex and cache) in each child, drained with the configuration pool; their snapshot for
 * the status page; see mem_instance.h. */
#include "mem_instance.h"
#include "mem_object.h"

#include <apr_strings.h>

mem_instance_t *mem_instances;

static mem_instance_t *describe(apr_pool_t *pool, server_rec *server)
{
    const mem_cache_config_t *config = mem_config_of(server);
    mem_instance_t *instance = apr_pcalloc(pool, sizeof(*instance));
    instance->name = mem_config_server_name(pool, server);
    instance->max_cache_bytes = config->max_cache_bytes;
    instance->max_object_count = config->max_object_count;
    instance->policy = config->policy;
    instance->sync.use_tm = config->use_tm;
    return instance;
}

void mem_instances_describe(apr_pool_t *pool, server_rec *main_server)
{
    mem_instance_t *main_instance = describe(pool, main_server);
    mem_instance_t **tail = &main_instance->next;
    mem_config_of(main_server)->instance = main_instance;
    for (server_rec *server = main_server->next; server; server = server->next) {
        mem_cache_config_t *config = mem_config_of(server);
        if (mem_config_owns_cache(server, main_server)) {
            config->instance = describe(pool, server);
            *tail = config->instance;
            tail = &config->instance->next;
        } else {
            config->instance = main_instance;
        }
    }
    mem_instances = main_instance;
}

/* Empties the cache when the configuration pool goes, after its requests: the cache's
 * references are dropped, and an object still referenced elsewhere is freed by its last. */
static apr_status_t drain(void *opaque)
{
    mem_instance_t *instance = opaque;
    cache_cache_t *cache = instance->cache;
    if (!cache)
        return APR_SUCCESS;
    mem_object_t *object;
    do {
        MEM_CRITICAL(&instance->sync, object = cache_cache_pop(cache); if (object) mem_object_release(object));
    } while (object);
    instance->cache = NULL;
    cache_cache_destroy(cache);
    return APR_SUCCESS;
}

const char *mem_instances_start(server_rec *main_server)
{
    apr_pool_t *pool = main_server->process->pconf;
    for (mem_instance_t *instance = mem_instances; instance; instance = instance->next) {
        if (!instance->sync.use_tm &&
            apr_thread_mutex_create(&instance->sync.lock, APR_THREAD_MUTEX_DEFAULT, pool) != APR_SUCCESS)
            return apr_psprintf(pool, "cannot create the cache mutex of %s; its caching is off",
                                instance->name);
        instance->cache = cache_cache_create(instance->max_object_count, instance->max_cache_bytes,
                                             instance->policy, &mem_object_cache_ops);
        if (!instance->cache)
            return apr_psprintf(pool, "out of memory creating the cache of %s; its caching is off",
                                instance->name);
        apr_pool_cleanup_register(pool, instance, drain, apr_pool_cleanup_null);
    }
    return NULL;
}

int mem_instance_snapshot(mem_instance_t *instance, mem_instance_snapshot_t *out)
{
    cache_cache_t *cache = instance->cache;
    if (!cache)
        return -1;
    size_t entries, bytes;
    unsigned long long evictions;
    MEM_CRITICAL(&instance->sync, entries = cache_cache_count(cache); bytes = cache_cache_bytes(cache);
                 evictions = cache_cache_evictions(cache));
    out->entries = entries;
    out->bytes = bytes;
    out->evictions = evictions;
    for (int kind = 0; kind < MEM_COUNT_KINDS; kind++)
        out->counts[kind] = __atomic_load_n(&instance->counts[kind], __ATOMIC_RELAXED);
    return 0;
}
