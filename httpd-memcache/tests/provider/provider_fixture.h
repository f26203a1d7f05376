/* One mod_mem_cache child process for the provider harness: a main server configured with
 * directives, its cache instance started on a child pool, and the steps mod_cache takes with
 * the provider: CACHE_SAVE's create_entity / store_headers / store_body loop / commit_entity,
 * and the quick handler's open_entity / recall_headers / recall_body. Plus a census of the
 * cached objects alive, to see what reference counting freed and when.
 *
 * Every test binary is built twice: without -fgnu-tm (MEM_SYNC_LOCK_ONLY, lock mode) and with
 * it on libtm, where each test runs once per mode (lock, then tm); fixture_mode says which. */
#ifndef MEMCACHE_PROVIDER_FIXTURE_H
#define MEMCACHE_PROVIDER_FIXTURE_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "fake_httpd.h"
#include "mem_instance.h"
#include "mem_object.h"
#include "mem_provider.h"

#include <apr_buckets.h>

/* The pools are httpd's (event and worker MPMs): the configuration pool is the parent of the
 * child process's pool and, apart from it, of the connections' pools (ptrans) in which the
 * requests live. */
typedef struct fixture {
    apr_pool_t *config_pool;   /* pconf: configuration, cache instances, keys */
    apr_pool_t *child_pool;    /* pchild, given to child_init; NULL after fixture_exit_child */
    apr_pool_t *requests_pool; /* like ptrans: the requests' pools (safe from any thread) */
    server_rec *server;
    mem_instance_t *instance;
} fixture_t;

/* "lock" or "tm": the MCacheSync value the current group of tests runs with. */
extern const char *fixture_mode;

/* Runs the tests once per mode this build has (lock; and tm when built with -fgnu-tm); after a
 * test that failed before fixture_stop, stops its fixture. Returns the number of failed tests. */
int fixture_run_tests(const char *name, const struct CMUnitTest *tests, size_t count);
#define FIXTURE_RUN_TESTS(name, tests) fixture_run_tests(name, tests, sizeof(tests) / sizeof(tests[0]))

/* For a group of tests that need APR but no child process: CMocka group setup and teardown
 * that start and stop APR, and the pool they give the group. */
extern apr_pool_t *group_pool;
int group_setup(void **state);
int group_teardown(void **state);

/* Configures the main server with MCacheSync fixture_mode and then the directives, given as
 * "Name", "argument" pairs ending with NULL; runs the start-up checks; starts the cache as
 * child_init does. Fails the test if a directive or check is refused. */
fixture_t *fixture_start(const char *directive, ...);
/* Ends the requests still running, the child process and the configuration; checks that no
 * object is left alive. */
void fixture_stop(fixture_t *fixture);
/* What a child process does on exit before its last requests are gone: destroys pchild
 * (clean_child_exit); the requests end later, when exit destroys pconf (apr_terminate). */
void fixture_exit_child(fixture_t *fixture);

/* ---- census: objects made by mem_object_create since fixture_start and not freed yet ---- */
long census_alive(void);

/* ---- requests and bodies ---- */
/* A request of the fixture's server (end it with fake_request_end). */
request_rec *new_request(fixture_t *fixture);
/* Body text of a test response: "<name>:" then a repeating pattern, length bytes long, in
 * r's pool (different names give different bytes). */
char *body_for(apr_pool_t *pool, const char *name, size_t length);
/* A brigade of data in heap buckets of at most chunk bytes, then an EOS bucket if eos. */
apr_bucket_brigade *brigade_of(request_rec *r, const char *data, size_t length, size_t chunk, int eos);
/* The data of bb's buckets joined (in pool); *length gets its size, *eos whether an EOS bucket
 * came last. Reads, does not consume. */
char *brigade_text(apr_pool_t *pool, apr_bucket_brigade *bb, apr_size_t *length, int *eos);
/* Whether bb holds exactly data (length bytes) and ends with EOS when eos. */
int brigade_holds(apr_pool_t *pool, apr_bucket_brigade *bb, const char *data, size_t length, int eos);

/* ---- what mod_cache does ---- */
extern const cache_provider *const provider;
/* mod_cache's key for a path on the harness server (lives as long as the fixture). */
const char *key_for(fixture_t *fixture, const char *path);

typedef enum {
    SAVE_DECLINED,  /* create_entity declined: passed through uncached */
    SAVE_FAILED,    /* store_body gave up: the rest passed through uncached */
    SAVE_COMMITTED, /* EOS reached the client and commit_entity ran */
    SAVE_PARTIAL    /* in ran out before EOS (more brigades would follow) */
} save_result_t;

/* A cacheable response being saved: its handle, and what reached the client. */
typedef struct saving {
    request_rec *r;
    cache_handle_t handle;
    apr_bucket_brigade *client; /* everything passed on, in order */
    int in_checked;             /* create_entity and store_headers ran */
    int done;                   /* declined, failed or committed: later brigades pass through */
    int store_body_calls;
} saving_t;

/* Starts saving r's response under key, of length bytes (-1: unknown, a streamed body) with
 * response headers "Name", "value" pairs ending with NULL (added to r->headers_out). */
saving_t *saving_start(request_rec *r, const char *key, apr_off_t length, ...);
/* mod_cache's CACHE_SAVE filter for one brigade of the response (cache_save_store's loop). */
save_result_t saving_pass(saving_t *saving, apr_bucket_brigade *in);
/* A whole response of length bytes from body_for(name) in chunk-byte buckets, known length or
 * streamed; returns the last saving_pass result. */
save_result_t save_response(request_rec *r, const char *key, const char *name, size_t length,
                            int streamed);

/* The quick handler: open_entity and, on a hit, recall_headers and recall_body. Returns OK or
 * DECLINED; on OK, *body gets the body text (in r's pool) and h the handle. */
int lookup(request_rec *r, const char *key, cache_handle_t *h, char **body, apr_size_t *length);
/* lookup in a new request, ended at once; returns whether it hit with exactly the body of
 * body_for(name, length). */
int hit_with(fixture_t *fixture, const char *key, const char *name, size_t length);

/* ---- state of the cache, read in a critical section ---- */
/* The object indexed under key (NULL if none), and its reference count and completeness. */
mem_object_t *indexed_object(fixture_t *fixture, const char *key, int *refcount, int *complete);
mem_instance_snapshot_t snapshot(fixture_t *fixture);

#endif
