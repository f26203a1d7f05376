/* mod_mem_cache for httpd 2.4: registers the mod_cache storage provider "mem" (httpd 2.2's
 * in-memory cache design), its directives, its start-up checks and log line, its child
 * start-up and its mod_status section. The provider's callbacks live in mem_provider.c. */
#include "mem_config.h"
#include "mem_log.h"
#include "mem_instance.h"
#include "mem_provider.h"
#include "mem_runtime.h"
#include "mem_status.h"

#include <stdlib.h>

#include <ap_provider.h>
#include <http_core.h>
#include <http_log.h>
#include <apr_strings.h>

APLOG_USE_MODULE(mem_cache);

/* The cross-directive checks of every server, and what tm mode needs from the runtime.
 * Returns NULL or the reason start-up must stop. */
static const char *check_configuration(apr_pool_t *pool, server_rec *main_server,
                                       const char **runtime_note)
{
    int any_tm = 0;
    *runtime_note = NULL;
    for (server_rec *server = main_server; server; server = server->next) {
        const char *error = mem_config_check(pool, server);
        if (error)
            return error;
        any_tm |= mem_config_of(server)->use_tm;
    }
    mem_runtime_t runtime;
    mem_runtime_identify(&runtime);
    if (any_tm && !runtime.is_libtm)
        return mem_runtime_require_safe_method(pool, main_server->process->pool, runtime_note);
    return NULL;
}

/* apache2 -t stops before post_config, so the checks also run here. */
static void test_config(apr_pool_t *pool, server_rec *server)
{
    const char *note;
    const char *error = check_configuration(pool, server, &note);
    if (error) {
        ap_log_error(APLOG_MARK, APLOG_EMERG, 0, server, MCLOGNO(00001) "mod_mem_cache: %s", error);
        exit(1);
    }
}

/* One line per cache: its size, the sync mode and the TM runtime really loaded. A tm cache
 * on a runtime that is not libtm is a warning (no statistics; GCC's needs a fixed method). */
static void log_start_up(server_rec *server, apr_pool_t *pool, const char *runtime_note)
{
    mem_runtime_t runtime;
    mem_runtime_identify(&runtime);
    for (mem_instance_t *instance = mem_instances; instance; instance = instance->next) {
        const char *cache = apr_psprintf(pool, "cache of %s: %" APR_SIZE_T_FMT " KBytes, %"
                                         APR_SIZE_T_FMT " objects, %s", instance->name,
                                         instance->max_cache_bytes / 1024,
                                         instance->max_object_count,
                                         mem_config_policy_name(instance->policy));
        if (!instance->sync.use_tm)
            ap_log_error(APLOG_MARK, APLOG_NOTICE, 0, server,
                         MCLOGNO(00002) "mod_mem_cache: %s, MCacheSync lock "
                         "(TM runtime loaded but unused: %s)", cache, runtime.path);
        else if (runtime.is_libtm)
            ap_log_error(APLOG_MARK, APLOG_NOTICE, 0, server,
                         MCLOGNO(00003) "mod_mem_cache: %s, MCacheSync tm "
                         "on libtm (%s)", cache, runtime.path);
        else
            ap_log_error(APLOG_MARK, APLOG_WARNING, 0, server,
                         MCLOGNO(00004) "mod_mem_cache: %s, MCacheSync tm "
                         "on %s, which is not libtm: no transaction statistics; %s", cache,
                         runtime.path, runtime_note ? runtime_note : "");
    }
}

static int post_config(apr_pool_t *pool, apr_pool_t *plog, apr_pool_t *ptemp, server_rec *server)
{
    (void)plog;
    const char *note;
    const char *error = check_configuration(ptemp, server, &note);
    if (error) {
        ap_log_error(APLOG_MARK, APLOG_EMERG, 0, server, MCLOGNO(00005) "mod_mem_cache: %s", error);
        return HTTP_INTERNAL_SERVER_ERROR;
    }
    mem_instances_describe(pool, server);
    /* httpd reads its configuration twice at start-up; log once, on the real pass. */
    if (ap_state_query(AP_SQ_MAIN_STATE) != AP_SQ_MS_CREATE_PRE_CONFIG)
        log_start_up(server, ptemp, note);
    return OK;
}

static void child_init(apr_pool_t *pool, server_rec *server)
{
    (void)pool; /* the caches outlive it: see mem_instances_start */
    const char *error = mem_instances_start(server);
    if (error)
        ap_log_error(APLOG_MARK, APLOG_ERR, 0, server, MCLOGNO(00006) "mod_mem_cache: %s", error);
}

static void register_hooks(apr_pool_t *pool)
{
    ap_hook_test_config(test_config, NULL, NULL, APR_HOOK_MIDDLE);
    ap_hook_post_config(post_config, NULL, NULL, APR_HOOK_MIDDLE);
    ap_hook_child_init(child_init, NULL, NULL, APR_HOOK_MIDDLE);
    ap_register_provider(pool, CACHE_PROVIDER_GROUP, "mem", "0", &mem_cache_provider);
    mem_status_register();
}

module AP_MODULE_DECLARE_DATA mem_cache_module = {
    STANDARD20_MODULE_STUFF,
    NULL,                  /* per-directory config creator */
    NULL,                  /* dir config merger */
    mem_config_create,     /* server config creator */
    mem_config_merge,      /* server config merger */
    mem_config_directives,
    register_hooks,
    AP_MODULE_FLAG_NONE
};
