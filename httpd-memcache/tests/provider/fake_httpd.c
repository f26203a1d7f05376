/* See fake_httpd.h. The httpd functions defined here are the ones the module's provider
 * sources call (the linker names any other one as undefined). */
#include "fake_httpd.h"
#include "mem_config.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <apr_buckets.h>
#include <apr_strings.h>
#include <http_log.h>
#include <mod_cache.h>

/* The module record: the harness leaves out mod_mem_cache.c (hooks, provider registration). */
module AP_MODULE_DECLARE_DATA mem_cache_module = {
    STANDARD20_MODULE_STUFF,
    NULL,
    NULL,
    mem_config_create,
    mem_config_merge,
    mem_config_directives,
    NULL,
    AP_MODULE_FLAG_NONE
};

server_rec *fake_server_create(apr_pool_t *pool)
{
    mem_cache_module.module_index = 0; /* the only module: slot 0 of the config vector */
    process_rec *process = apr_pcalloc(pool, sizeof(*process));
    process->pool = process->pconf = pool;
    process->short_name = "harness";
    server_rec *server = apr_pcalloc(pool, sizeof(*server));
    server->process = process;
    server->server_hostname = "harness.test";
    server->defn_name = "harness.conf";
    server->log.level = APLOG_DEBUG;
    server->module_config = apr_pcalloc(pool, sizeof(void *));
    ap_set_module_config(server->module_config, &mem_cache_module,
                         mem_config_create(pool, server));
    return server;
}

const char *fake_server_set(server_rec *server, const char *directive, const char *argument)
{
    for (const command_rec *command = mem_config_directives; command->name; command++) {
        if (strcasecmp(command->name, directive))
            continue;
        if (command->args_how != TAKE1)
            return apr_psprintf(server->process->pconf, "%s: the harness passes one argument "
                                "only", command->name);
        cmd_parms parms;
        memset(&parms, 0, sizeof(parms));
        parms.info = command->cmd_data;
        parms.cmd = command;
        parms.server = server;
        parms.pool = parms.temp_pool = server->process->pconf;
        return command->func.take1(&parms, NULL, argument);
    }
    return apr_psprintf(server->process->pconf, "Invalid command '%s'", directive);
}

request_rec *fake_request_create(server_rec *server, apr_pool_t *parent)
{
    apr_pool_t *pool;
    apr_pool_create(&pool, parent);
    conn_rec *connection = apr_pcalloc(pool, sizeof(*connection));
    connection->pool = pool;
    connection->base_server = server;
    connection->bucket_alloc = apr_bucket_alloc_create(pool);
    request_rec *r = apr_pcalloc(pool, sizeof(*r));
    r->pool = pool;
    r->connection = connection;
    r->server = server;
    r->method = "GET";
    r->method_number = M_GET;
    r->status = HTTP_OK;
    r->request_time = apr_time_now();
    r->headers_in = apr_table_make(pool, 8);
    r->headers_out = apr_table_make(pool, 8);
    r->err_headers_out = apr_table_make(pool, 4);
    return r;
}

request_rec *fake_subrequest_create(request_rec *main)
{
    apr_pool_t *pool;
    apr_pool_create(&pool, main->pool);
    request_rec *r = apr_pcalloc(pool, sizeof(*r));
    *r = *main;
    r->pool = pool;
    r->main = main;
    r->headers_in = apr_table_copy(pool, main->headers_in);
    r->headers_out = apr_table_make(pool, 8);
    r->err_headers_out = apr_table_make(pool, 4);
    return r;
}

void fake_request_end(request_rec *r)
{
    apr_pool_destroy(r->pool);
}

/* mod_cache's helpers give the headers worth storing; the provider stores what it gets, so
 * copies serve (the real ones also drop hop-by-hop headers and CacheIgnoreHeaders). */
apr_table_t *ap_cache_cacheable_headers_in(request_rec *r)
{
    return apr_table_copy(r->pool, r->headers_in);
}

apr_table_t *ap_cache_cacheable_headers_out(request_rec *r)
{
    return apr_table_overlay(r->pool, r->headers_out, r->err_headers_out);
}

/* ---- the error log ---- */

static pthread_mutex_t log_mutex = PTHREAD_MUTEX_INITIALIZER;
static char **log_lines;
static size_t log_count, log_capacity;

void ap_log_rerror_(const char *file, int line, int module_index, int level, apr_status_t status,
                    const request_rec *r, const char *format, ...)
{
    (void)file, (void)line, (void)module_index, (void)level, (void)status, (void)r;
    va_list arguments;
    va_start(arguments, format);
    char *text = NULL;
    if (vasprintf(&text, format, arguments) < 0)
        text = NULL;
    va_end(arguments);
    if (!text)
        return;
    pthread_mutex_lock(&log_mutex);
    if (log_count == log_capacity) {
        size_t capacity = log_capacity ? 2 * log_capacity : 64;
        char **lines = realloc(log_lines, capacity * sizeof(*lines));
        if (!lines) {
            pthread_mutex_unlock(&log_mutex);
            free(text);
            return;
        }
        log_lines = lines;
        log_capacity = capacity;
    }
    log_lines[log_count++] = text;
    pthread_mutex_unlock(&log_mutex);
}

void fake_log_clear(void)
{
    pthread_mutex_lock(&log_mutex);
    for (size_t i = 0; i < log_count; i++)
        free(log_lines[i]);
    log_count = 0;
    pthread_mutex_unlock(&log_mutex);
}

int fake_log_count(const char *text)
{
    int found = 0;
    pthread_mutex_lock(&log_mutex);
    for (size_t i = 0; i < log_count; i++)
        found += strstr(log_lines[i], text) != NULL;
    pthread_mutex_unlock(&log_mutex);
    return found;
}

void fake_log_print(void)
{
    pthread_mutex_lock(&log_mutex);
    for (size_t i = 0; i < log_count; i++)
        printf("    log: %s\n", log_lines[i]);
    pthread_mutex_unlock(&log_mutex);
}
