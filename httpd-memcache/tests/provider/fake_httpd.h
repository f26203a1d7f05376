/* What the provider harness puts where a running httpd would be: the module record, a main
 * server configured through the module's own directive table (as httpd reads a config file),
 * connections and requests (main and sub) on real APR pools and bucket allocators, mod_cache's
 * cacheable-header helpers, and an error log that the tests read. */
#ifndef MEMCACHE_FAKE_HTTPD_H
#define MEMCACHE_FAKE_HTTPD_H

#include <httpd.h>
#include <http_config.h>

/* A main server with the module's default configuration (mem_config_create), allocated in
 * pool; logs at debug level, like "LogLevel mem_cache:debug". */
server_rec *fake_server_create(apr_pool_t *pool);
/* Runs one directive through mem_config_directives, as httpd does for a line of the main
 * server's configuration. Returns NULL or the directive's error message. */
const char *fake_server_set(server_rec *server, const char *directive, const char *argument);

/* A connection of its own and a GET request on it, both in a new pool under parent (any
 * thread may do this: the harness's pools share APR's global allocator, which has a mutex).
 * Ending the request destroys that pool: its cleanups run, as when httpd finishes it. */
request_rec *fake_request_create(server_rec *server, apr_pool_t *parent);
/* A subrequest of main (mod_include's virtual includes), in a subpool of main's pool. */
request_rec *fake_subrequest_create(request_rec *main);
void fake_request_end(request_rec *r);

/* The error log: messages of ap_log_rerror since the last fake_log_clear (any thread). */
void fake_log_clear(void);
/* How many recorded messages contain text. */
int fake_log_count(const char *text);
/* Prints the recorded messages (for a failing test's output). */
void fake_log_print(void);

#endif
