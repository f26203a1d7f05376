/* The harness's child process, mod_cache's steps with the provider, and the object census;
 * see provider_fixture.h. */
#include "provider_fixture.h"
#include "mem_config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <apr_strings.h>

const char *fixture_mode = "lock";
const cache_provider *const provider = &mem_cache_provider;

static const char *const modes[] = {
    "lock",
#ifndef MEM_SYNC_LOCK_ONLY
    "tm",
#endif
};

static fixture_t *fixture_running;

static int stop_running_fixture(void **state)
{
    (void)state;
    if (fixture_running)
        fixture_stop(fixture_running);
    return 0;
}

int fixture_run_tests(const char *name, const struct CMUnitTest *tests, size_t count)
{
    static int apr_ready;
    if (!apr_ready) {
        apr_initialize();
        atexit(apr_terminate);
        apr_ready = 1;
    }
    struct CMUnitTest *with_teardown = calloc(count, sizeof(*with_teardown));
    assert_non_null(with_teardown);
    for (size_t i = 0; i < count; i++) {
        with_teardown[i] = tests[i];
        with_teardown[i].teardown_func = stop_running_fixture;
    }
    int failed = 0;
    for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
        fixture_mode = modes[i];
        char group[200];
        snprintf(group, sizeof(group), "%s, MCacheSync %s", name, fixture_mode);
        printf("== %s\n", group);
        fflush(stdout);
        failed += _cmocka_run_group_tests(group, with_teardown, count, NULL, NULL);
    }
    free(with_teardown);
    return failed;
}

apr_pool_t *group_pool;

int group_setup(void **state)
{
    (void)state;
    apr_initialize();
    apr_pool_create(&group_pool, NULL);
    return 0;
}

int group_teardown(void **state)
{
    (void)state;
    apr_pool_destroy(group_pool);
    apr_terminate();
    return 0;
}

/* ---- census ----
 * The test binaries are linked with --wrap for mem_object_create, mem_object_destroy and
 * mem_sync_defer: calls between the module's files reach the __wrap_ functions below, which
 * count and pass on. mem_object_release hands destruction to mem_sync_defer (run after commit
 * in tm mode), so the wrapper substitutes the counting destroy. */
static long objects_created, objects_destroyed, objects_before;

mem_object_t *__real_mem_object_create(const char *key, size_t capacity, const mem_sync_t *sync);
void __real_mem_object_destroy(void *object);
LIBTM_PURE void __real_mem_sync_defer(const mem_sync_t *sync, mem_deferred_fn action, void *argument);

mem_object_t *__wrap_mem_object_create(const char *key, size_t capacity, const mem_sync_t *sync);
mem_object_t *__wrap_mem_object_create(const char *key, size_t capacity, const mem_sync_t *sync)
{
    mem_object_t *object = __real_mem_object_create(key, capacity, sync);
    if (object)
        __atomic_add_fetch(&objects_created, 1, __ATOMIC_RELAXED);
    return object;
}

void __wrap_mem_object_destroy(void *object);
void __wrap_mem_object_destroy(void *object)
{
    __atomic_add_fetch(&objects_destroyed, 1, __ATOMIC_RELAXED);
    __real_mem_object_destroy(object);
}

LIBTM_PURE void __wrap_mem_sync_defer(const mem_sync_t *sync, mem_deferred_fn action, void *argument);
LIBTM_PURE void __wrap_mem_sync_defer(const mem_sync_t *sync, mem_deferred_fn action, void *argument)
{
    if (action == __real_mem_object_destroy)
        action = __wrap_mem_object_destroy;
    __real_mem_sync_defer(sync, action, argument);
}

static long objects_alive(void)
{
    return __atomic_load_n(&objects_created, __ATOMIC_RELAXED) -
           __atomic_load_n(&objects_destroyed, __ATOMIC_RELAXED);
}

long census_alive(void)
{
    return objects_alive() - objects_before;
}

/* ---- the child process ---- */

fixture_t *fixture_start(const char *directive, ...)
{
    fixture_t *fixture = calloc(1, sizeof(*fixture));
    assert_non_null(fixture);
    fixture_running = fixture;
    objects_before = objects_alive(); /* what a failed test before left */
    apr_pool_create(&fixture->config_pool, NULL);
    apr_pool_create(&fixture->requests_pool, fixture->config_pool);
    fixture->server = fake_server_create(fixture->config_pool);
    assert_null(fake_server_set(fixture->server, "MCacheSync", fixture_mode));
    va_list arguments;
    va_start(arguments, directive);
    for (const char *name = directive; name; name = va_arg(arguments, const char *)) {
        const char *argument = va_arg(arguments, const char *);
        const char *error = fake_server_set(fixture->server, name, argument);
        if (error)
            fail_msg("%s %s: %s", name, argument, error);
    }
    va_end(arguments);
    const char *error = mem_config_check(fixture->config_pool, fixture->server);
    if (error)
        fail_msg("start-up check: %s", error);
    mem_instances_describe(fixture->config_pool, fixture->server);
    apr_pool_create(&fixture->child_pool, fixture->config_pool);
    assert_null(mem_instances_start(fixture->server));
    fixture->instance = mem_config_of(fixture->server)->instance;
    assert_non_null(fixture->instance->cache);
    fake_log_clear();
    return fixture;
}

void fixture_stop(fixture_t *fixture)
{
    fixture_running = NULL;
    apr_pool_destroy(fixture->requests_pool);
    if (fixture->child_pool)
        apr_pool_destroy(fixture->child_pool);
    apr_pool_destroy(fixture->config_pool);
    long alive = census_alive();
    mem_instances = NULL;
    free(fixture);
    if (alive != 0)
        fail_msg("%ld cached objects still alive after every request ended and the cache was "
                 "drained", alive);
}

void fixture_exit_child(fixture_t *fixture)
{
    apr_pool_destroy(fixture->child_pool);
    fixture->child_pool = NULL;
}

/* ---- requests and bodies ---- */

request_rec *new_request(fixture_t *fixture)
{
    return fake_request_create(fixture->server, fixture->requests_pool);
}

char *body_for(apr_pool_t *pool, const char *name, size_t length)
{
    char *body = apr_palloc(pool, length + 1);
    size_t name_length = strlen(name), seed = 0;
    for (size_t i = 0; i < name_length; i++)
        seed = seed * 31 + (unsigned char)name[i];
    for (size_t i = 0; i < length; i++) {
        if (i <= name_length)
            body[i] = i < name_length ? name[i] : ':';
        else
            body[i] = i % 64 == 63 ? '\n' : (char)('a' + (seed + i) % 26);
    }
    body[length] = '\0';
    return body;
}

apr_bucket_brigade *brigade_of(request_rec *r, const char *data, size_t length, size_t chunk, int eos)
{
    apr_bucket_alloc_t *alloc = r->connection->bucket_alloc;
    apr_bucket_brigade *bb = apr_brigade_create(r->pool, alloc);
    for (size_t offset = 0; offset < length; offset += chunk) {
        size_t size = length - offset < chunk ? length - offset : chunk;
        APR_BRIGADE_INSERT_TAIL(bb, apr_bucket_heap_create(data + offset, size, NULL, alloc));
    }
    if (eos)
        APR_BRIGADE_INSERT_TAIL(bb, apr_bucket_eos_create(alloc));
    return bb;
}

char *brigade_text(apr_pool_t *pool, apr_bucket_brigade *bb, apr_size_t *length, int *eos)
{
    apr_off_t total = 0;
    *eos = 0;
    for (apr_bucket *b = APR_BRIGADE_FIRST(bb); b != APR_BRIGADE_SENTINEL(bb); b = APR_BUCKET_NEXT(b))
        if (!APR_BUCKET_IS_METADATA(b))
            total += (apr_off_t)b->length;
    char *text = apr_palloc(pool, (apr_size_t)total + 1);
    apr_size_t at = 0;
    for (apr_bucket *b = APR_BRIGADE_FIRST(bb); b != APR_BRIGADE_SENTINEL(bb); b = APR_BUCKET_NEXT(b)) {
        *eos = APR_BUCKET_IS_EOS(b);
        if (APR_BUCKET_IS_METADATA(b))
            continue;
        const char *data;
        apr_size_t size;
        assert_int_equal(apr_bucket_read(b, &data, &size, APR_BLOCK_READ), APR_SUCCESS);
        memcpy(text + at, data, size);
        at += size;
    }
    text[at] = '\0';
    *length = at;
    return text;
}

int brigade_holds(apr_pool_t *pool, apr_bucket_brigade *bb, const char *data, size_t length, int eos)
{
    apr_size_t held;
    int ends_with_eos;
    const char *text = brigade_text(pool, bb, &held, &ends_with_eos);
    return held == length && !memcmp(text, data, length) && ends_with_eos == eos;
}

/* ---- what mod_cache does ---- */

const char *key_for(fixture_t *fixture, const char *path)
{
    return apr_pstrcat(fixture->config_pool, "http://harness.test:80", path, NULL);
}

typedef struct saving_private {
    saving_t public;
    const char *key;
    apr_off_t length;
    save_result_t result;
} saving_private_t;

saving_t *saving_start(request_rec *r, const char *key, apr_off_t length, ...)
{
    saving_private_t *saving = apr_pcalloc(r->pool, sizeof(*saving));
    saving->public.r = r;
    saving->public.client = apr_brigade_create(r->pool, r->connection->bucket_alloc);
    saving->key = key;
    saving->length = length;
    va_list arguments;
    va_start(arguments, length);
    for (const char *name; (name = va_arg(arguments, const char *)) != NULL;)
        apr_table_set(r->headers_out, name, va_arg(arguments, const char *));
    va_end(arguments);
    return &saving->public;
}

static save_result_t finish(saving_private_t *saving, save_result_t result, apr_bucket_brigade *rest)
{
    APR_BRIGADE_CONCAT(saving->public.client, rest);
    saving->public.done = 1;
    return saving->result = result;
}

/* cache_save_filter after its cacheability checks, then cache_save_store. */
save_result_t saving_pass(saving_t *public, apr_bucket_brigade *in)
{
    saving_private_t *saving = (saving_private_t *)public;
    request_rec *r = public->r;
    if (public->done)
        return finish(saving, saving->result, in);
    if (!public->in_checked) {
        public->in_checked = 1;
        if (provider->create_entity(&public->handle, r, saving->key, saving->length, in) != OK)
            return finish(saving, SAVE_DECLINED, in);
        cache_info *info = apr_pcalloc(r->pool, sizeof(*info));
        info->status = r->status;
        info->date = info->response_time = apr_time_now();
        info->request_time = r->request_time;
        info->expire = info->date + apr_time_from_sec(3600);
        if (provider->store_headers(&public->handle, r, info) != APR_SUCCESS)
            return finish(saving, SAVE_FAILED, in);
    }
    apr_bucket_brigade *out = apr_brigade_create(r->pool, r->connection->bucket_alloc);
    while (!APR_BRIGADE_EMPTY(in)) {
        public->store_body_calls++;
        if (provider->store_body(&public->handle, r, in, out) != APR_SUCCESS) {
            APR_BRIGADE_PREPEND(in, out);
            return finish(saving, SAVE_FAILED, in);
        }
        for (apr_bucket *b = APR_BRIGADE_FIRST(out); b != APR_BRIGADE_SENTINEL(out); b = APR_BUCKET_NEXT(b))
            if (APR_BUCKET_IS_EOS(b)) {
                provider->commit_entity(&public->handle, r);
                APR_BRIGADE_CONCAT(public->client, out);
                return finish(saving, SAVE_COMMITTED, in);
            }
        if (APR_BRIGADE_EMPTY(out))
            /* mod_cache stands down rather than spin */
            return finish(saving, SAVE_FAILED, in);
        APR_BRIGADE_CONCAT(public->client, out);
    }
    return SAVE_PARTIAL;
}

save_result_t save_response(request_rec *r, const char *key, const char *name, size_t length,
                            int streamed)
{
    enum { CHUNK = 1000, CHUNKS_PER_BRIGADE = 4 };
    const char *body = body_for(r->pool, name, length);
    saving_t *saving = saving_start(r, key, streamed ? -1 : (apr_off_t)length,
                                    "Content-Type", "text/plain", NULL);
    save_result_t result = SAVE_PARTIAL;
    size_t offset = 0;
    do {
        size_t size = length - offset;
        if (size > CHUNK * CHUNKS_PER_BRIGADE)
            size = CHUNK * CHUNKS_PER_BRIGADE;
        int last = offset + size == length;
        result = saving_pass(saving, brigade_of(r, body + offset, size, CHUNK, last));
        offset += size;
    } while (offset < length);
    assert_true(brigade_holds(r->pool, saving->client, body, length, 1));
    return result;
}

int lookup(request_rec *r, const char *key, cache_handle_t *h, char **body, apr_size_t *length)
{
    memset(h, 0, sizeof(*h));
    int result = provider->open_entity(h, r, key);
    if (result != OK)
        return result;
    assert_int_equal(provider->recall_headers(h, r), APR_SUCCESS);
    apr_bucket_brigade *bb = apr_brigade_create(r->pool, r->connection->bucket_alloc);
    assert_int_equal(provider->recall_body(h, r->pool, bb), APR_SUCCESS);
    int eos;
    *body = brigade_text(r->pool, bb, length, &eos);
    return OK;
}

int hit_with(fixture_t *fixture, const char *key, const char *name, size_t length)
{
    request_rec *r = new_request(fixture);
    cache_handle_t h;
    char *body;
    apr_size_t got;
    int hit = lookup(r, key, &h, &body, &got) == OK && got == length &&
              !memcmp(body, body_for(r->pool, name, length), length);
    fake_request_end(r);
    return hit;
}

/* ---- state of the cache ---- */

mem_object_t *indexed_object(fixture_t *fixture, const char *key, int *refcount, int *complete)
{
    cache_key_t lookup_key;
    cache_key_init(&lookup_key, key);
    mem_object_t *object;
    int count = 0, is_complete = 0;
    cache_cache_t *cache = fixture->instance->cache;
    MEM_CRITICAL(&fixture->instance->sync, object = cache_cache_find(cache, &lookup_key);
                 if (object) { count = object->refcount; is_complete = object->complete; });
    if (refcount)
        *refcount = count;
    if (complete)
        *complete = is_complete;
    return object;
}

mem_instance_snapshot_t snapshot(fixture_t *fixture)
{
    mem_instance_snapshot_t s;
    assert_int_equal(mem_instance_snapshot(fixture->instance, &s), 0);
    return s;
}
