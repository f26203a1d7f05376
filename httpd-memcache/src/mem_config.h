/* The module's per-server configuration (the MCache* directives), merged from the main
 * server into each <VirtualHost>. Two kinds of directives:
 *  - object limits (MCacheMinObjectSize, MCacheMaxObjectSize, MCacheMaxStreamingBuffer) and
 *    MCacheReadSize apply to the requests of the server that sets them;
 *  - cache settings (MCacheSize, MCacheMaxObjectCount, MCacheRemovalAlgorithm, MCacheSync)
 *    define a cache: a virtual host that sets one of them gets a cache of its own (with the
 *    main server's values for the others); the rest share the main server's cache. */
#ifndef MEMCACHE_MEM_CONFIG_H
#define MEMCACHE_MEM_CONFIG_H

#include "cache_cache.h"

#include <httpd.h>
#include <http_config.h>
#include <mod_cache.h>

typedef struct mem_instance mem_instance_t;

/* Which directives a server's own configuration section set (bits of ->set). */
enum {
    MEM_SET_CACHE_SIZE = 1 << 0,
    MEM_SET_OBJECT_COUNT = 1 << 1,
    MEM_SET_POLICY = 1 << 2,
    MEM_SET_SYNC = 1 << 3,
    MEM_SET_MIN_OBJECT = 1 << 4,
    MEM_SET_MAX_OBJECT = 1 << 5,
    MEM_SET_STREAMING = 1 << 6,
    MEM_SET_READ_SIZE = 1 << 7,
};
#define MEM_SET_CACHE_SETTINGS (MEM_SET_CACHE_SIZE | MEM_SET_OBJECT_COUNT | MEM_SET_POLICY | MEM_SET_SYNC)

typedef struct mem_cache_config {
    unsigned set;                    /* MEM_SET_* bits set in this server's own section */
    /* cache settings */
    apr_size_t max_cache_bytes;      /* MCacheSize, given in KBytes */
    apr_size_t max_object_count;     /* MCacheMaxObjectCount */
    cache_policy_t policy;           /* MCacheRemovalAlgorithm */
    int use_tm;                      /* MCacheSync */
    /* object limits */
    apr_size_t min_object_size;      /* MCacheMinObjectSize */
    apr_size_t max_object_size;      /* MCacheMaxObjectSize */
    apr_size_t max_streaming_buffer; /* MCacheMaxStreamingBuffer as written */
    apr_size_t read_size;            /* MCacheReadSize: bytes stored per store_body call */
    /* Set in post_config: the cache this server's requests use. */
    mem_instance_t *instance;
} mem_cache_config_t;

extern module AP_MODULE_DECLARE_DATA mem_cache_module;
extern const command_rec mem_config_directives[];

void *mem_config_create(apr_pool_t *pool, server_rec *server);
void *mem_config_merge(apr_pool_t *pool, void *base, void *add);

static inline mem_cache_config_t *mem_config_of(const server_rec *server)
{
    return ap_get_module_config(server->module_config, &mem_cache_module);
}

/* Whether server defines a cache of its own (the main server always does). */
int mem_config_owns_cache(const server_rec *server, const server_rec *main_server);
/* The cross-directive checks of one server: NULL or the reason, naming the directives and,
 * for a virtual host, where it is defined. */
const char *mem_config_check(apr_pool_t *pool, const server_rec *server);
/* The largest body of unknown length that server buffers: MCacheMaxStreamingBuffer,
 * limited to MCacheMaxObjectSize. *limiting_directive names the directive that sets it. */
apr_size_t mem_config_streaming_limit(const mem_cache_config_t *config,
                                      const char **limiting_directive);
/* The words of MCacheRemovalAlgorithm and MCacheSync for a policy and a sync mode. */
const char *mem_config_policy_name(cache_policy_t policy);
const char *mem_config_sync_name(int use_tm);
/* "the main server" or "<VirtualHost> NAME (FILE:LINE)", for messages. */
const char *mem_config_server_name(apr_pool_t *pool, const server_rec *server);

#endif
