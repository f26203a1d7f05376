/* mod_mem_cache for httpd 2.4: registers the mod_cache storage provider "mem" (httpd 2.2's
 * in-memory cache design), its directives and its start-up/child hooks. The provider's
 * callbacks live in mem_provider.c. */
#include "mem_config.h"
#include "mem_object.h"
#include "mem_sync.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <ap_provider.h>
#include <http_log.h>
#include <apr_strings.h>

APLOG_USE_MODULE(mem_cache);


mem_cache_config_t *mem_config;
cache_cache_t *mem_cache;

/* 2.2's defaults. */
#define DEFAULT_CACHE_KBYTES 100
#define DEFAULT_MAX_OBJECT_COUNT 1009
#define DEFAULT_MIN_OBJECT_SIZE 1
#define DEFAULT_MAX_OBJECT_SIZE 10000
#define DEFAULT_MAX_STREAMING_BUFFER 100000

static void *create_server_config(apr_pool_t *pool, server_rec *server)
{
    (void)server;
    mem_cache_config_t *config = apr_pcalloc(pool, sizeof(*config));
    config->max_cache_bytes = (apr_size_t)DEFAULT_CACHE_KBYTES * 1024;
    config->max_object_count = DEFAULT_MAX_OBJECT_COUNT;
    config->min_object_size = DEFAULT_MIN_OBJECT_SIZE;
    config->max_object_size = DEFAULT_MAX_OBJECT_SIZE;
    config->max_streaming_buffer = DEFAULT_MAX_STREAMING_BUFFER;
    config->policy = CACHE_POLICY_GDSF;
    config->use_tm = 0;
    return config;
}

static mem_cache_config_t *server_config(cmd_parms *cmd)
{
    return ap_get_module_config(cmd->server->module_config, &mem_cache_module);
}

/* Parses a positive decimal number for directive cmd; NULL on success, else the reason. */
static const char *parse_size(cmd_parms *cmd, const char *text, apr_size_t minimum, apr_size_t *out)
{
    char *end;
    apr_int64_t value;
    errno = 0;
    value = apr_strtoi64(text, &end, 10);
    if (end == text || *end != '\0' || errno == ERANGE || value < 0)
        return apr_psprintf(cmd->pool, "%s: '%s' is not a non-negative whole number",
                            cmd->cmd->name, text);
    if ((apr_size_t)value < minimum)
        return apr_psprintf(cmd->pool, "%s: '%s' is too small (minimum %" APR_SIZE_T_FMT ")",
                            cmd->cmd->name, text, minimum);
    if ((apr_uint64_t)value > (apr_uint64_t)1 << 40)
        return apr_psprintf(cmd->pool, "%s: '%s' is too large", cmd->cmd->name, text);
    *out = (apr_size_t)value;
    return NULL;
}

static const char *set_cache_size(cmd_parms *cmd, void *unused, const char *arg)
{
    (void)unused;
    apr_size_t kbytes;
    const char *error = parse_size(cmd, arg, 1, &kbytes);
    if (!error)
        server_config(cmd)->max_cache_bytes = kbytes * 1024;
    return error;
}

static const char *set_max_object_count(cmd_parms *cmd, void *unused, const char *arg)
{
    (void)unused;
    return parse_size(cmd, arg, 1, &server_config(cmd)->max_object_count);
}

static const char *set_min_object_size(cmd_parms *cmd, void *unused, const char *arg)
{
    (void)unused;
    return parse_size(cmd, arg, 0, &server_config(cmd)->min_object_size);
}

static const char *set_max_object_size(cmd_parms *cmd, void *unused, const char *arg)
{
    (void)unused;
    return parse_size(cmd, arg, 1, &server_config(cmd)->max_object_size);
}

static const char *set_max_streaming_buffer(cmd_parms *cmd, void *unused, const char *arg)
{
    (void)unused;
    return parse_size(cmd, arg, 0, &server_config(cmd)->max_streaming_buffer);
}

/* Unlike 2.2 (which tested strcasecmp backwards), the word selects the algorithm it names. */
static const char *set_removal_algorithm(cmd_parms *cmd, void *unused, const char *arg)
{
    (void)unused;
    if (!strcasecmp(arg, "LRU"))
        server_config(cmd)->policy = CACHE_POLICY_LRU;
    else if (!strcasecmp(arg, "GDSF"))
        server_config(cmd)->policy = CACHE_POLICY_GDSF;
    else
        return apr_psprintf(cmd->pool, "MCacheRemovalAlgorithm: '%s' is not LRU or GDSF", arg);
    return NULL;
}

static const char *set_sync(cmd_parms *cmd, void *unused, const char *arg)
{
    (void)unused;
    if (!strcasecmp(arg, "lock"))
        server_config(cmd)->use_tm = 0;
    else if (!strcasecmp(arg, "tm"))
        server_config(cmd)->use_tm = 1;
    else
        return apr_psprintf(cmd->pool, "MCacheSync: '%s' is not lock or tm", arg);
    return NULL;
}

/* Checks that need all directives; returns NULL or the reason (naming the directives). */
static const char *check_limits(apr_pool_t *pool, mem_cache_config_t *config)
{
    if (config->min_object_size > config->max_object_size)
        return apr_psprintf(pool, "MCacheMinObjectSize (%" APR_SIZE_T_FMT ") is larger than "
                            "MCacheMaxObjectSize (%" APR_SIZE_T_FMT ")",
                            config->min_object_size, config->max_object_size);
    if (config->max_object_size > config->max_cache_bytes)
        return apr_psprintf(pool, "MCacheMaxObjectSize (%" APR_SIZE_T_FMT " bytes) is larger than "
                            "MCacheSize (%" APR_SIZE_T_FMT " KBytes): raise MCacheSize or lower "
                            "MCacheMaxObjectSize", config->max_object_size,
                            config->max_cache_bytes / 1024);
    return NULL;
}

/* apache2 -t stops before post_config, so the cross-directive checks also run here. */
static void test_config(apr_pool_t *pool, server_rec *server)
{
    mem_cache_config_t *config = ap_get_module_config(server->module_config, &mem_cache_module);
    const char *error = check_limits(pool, config);
    if (error) {
        ap_log_error(APLOG_MARK, APLOG_EMERG, 0, server, "mod_mem_cache: %s", error);
        exit(1);
    }
}

static int post_config(apr_pool_t *pool, apr_pool_t *plog, apr_pool_t *ptemp, server_rec *server)
{
    (void)plog;
    (void)ptemp;
    mem_cache_config_t *config = ap_get_module_config(server->module_config, &mem_cache_module);
    const char *error = check_limits(pool, config);
    if (error) {
        ap_log_error(APLOG_MARK, APLOG_EMERG, 0, server, "mod_mem_cache: %s", error);
        return HTTP_INTERNAL_SERVER_ERROR;
    }
    /* 2.2 clamps the streaming buffer to the largest object silently. */
    if (config->max_streaming_buffer > config->max_object_size)
        config->max_streaming_buffer = config->max_object_size;
    mem_config = config;
    mem_sync.use_tm = config->use_tm;
    return OK;
}

/* Empties the cache at child exit; entries still referenced by requests are left alone. */
static apr_status_t drain_cache(void *unused)
{
    (void)unused;
    if (!mem_cache)
        return APR_SUCCESS;
    mem_object_t *object;
    do {
        MEM_CRITICAL(object = cache_cache_pop(mem_cache); if (object) mem_object_release(object));
    } while (object);
    cache_cache_destroy(mem_cache);
    mem_cache = NULL;
    return APR_SUCCESS;
}

/* One cache per child process, as in 2.2 (run one threaded child to share it). */
static void child_init(apr_pool_t *pool, server_rec *server)
{
    if (!mem_config)
        return;
    if (!mem_config->use_tm &&
        apr_thread_mutex_create(&mem_sync.lock, APR_THREAD_MUTEX_DEFAULT, pool) != APR_SUCCESS) {
        ap_log_error(APLOG_MARK, APLOG_ERR, 0, server,
                     "mod_mem_cache: cannot create the cache mutex; caching disabled");
        return;
    }
    mem_cache = cache_cache_create(mem_config->max_object_count, mem_config->max_cache_bytes,
                                   mem_config->policy, &mem_object_cache_ops);
    if (!mem_cache) {
        ap_log_error(APLOG_MARK, APLOG_ERR, 0, server,
                     "mod_mem_cache: out of memory creating the cache; caching disabled");
        return;
    }
    apr_pool_cleanup_register(pool, NULL, drain_cache, apr_pool_cleanup_null);
}

static void register_hooks(apr_pool_t *pool)
{
    ap_hook_test_config(test_config, NULL, NULL, APR_HOOK_MIDDLE);
    ap_hook_post_config(post_config, NULL, NULL, APR_HOOK_MIDDLE);
    ap_hook_child_init(child_init, NULL, NULL, APR_HOOK_MIDDLE);
    ap_register_provider(pool, CACHE_PROVIDER_GROUP, "mem", "0", &mem_cache_provider);
}

static const command_rec directives[] = {
    AP_INIT_TAKE1("MCacheSize", set_cache_size, NULL, RSRC_CONF,
                  "Maximum memory used by the cache, in KBytes (default 100)"),
    AP_INIT_TAKE1("MCacheMaxObjectCount", set_max_object_count, NULL, RSRC_CONF,
                  "Maximum number of cached objects (default 1009)"),
    AP_INIT_TAKE1("MCacheMinObjectSize", set_min_object_size, NULL, RSRC_CONF,
                  "Smallest body cached, in bytes (default 1)"),
    AP_INIT_TAKE1("MCacheMaxObjectSize", set_max_object_size, NULL, RSRC_CONF,
                  "Largest body cached, in bytes (default 10000)"),
    AP_INIT_TAKE1("MCacheMaxStreamingBuffer", set_max_streaming_buffer, NULL, RSRC_CONF,
                  "Largest body of unknown length buffered for caching, in bytes (default 100000, "
                  "at most MCacheMaxObjectSize)"),
    AP_INIT_TAKE1("MCacheRemovalAlgorithm", set_removal_algorithm, NULL, RSRC_CONF,
                  "Eviction policy: LRU or GDSF (default GDSF)"),
    AP_INIT_TAKE1("MCacheSync", set_sync, NULL, RSRC_CONF,
                  "Synchronisation of the cache: lock (one mutex) or tm (transactions)"),
    {NULL}
};

module AP_MODULE_DECLARE_DATA mem_cache_module = {
    STANDARD20_MODULE_STUFF,
    NULL,                 /* per-directory config creator */
    NULL,                 /* dir config merger */
    create_server_config, /* server config creator */
    NULL,                 /* server config merger */
    directives,
    register_hooks,
    AP_MODULE_FLAG_NONE
};
