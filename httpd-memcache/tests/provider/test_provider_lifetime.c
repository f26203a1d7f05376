/* How long cached objects live: the reference counts of the creator, the cache and each
 * request that hit (subrequests included), dropped by the requests' pool cleanups; objects
 * that leave the index (eviction, remove_url, remove_entity, a replacement) while requests
 * still send them; invalidation and the 304 revalidation that publishes new headers; objects
 * re-indexed when a streamed body completes; and the end of the child process. */
#include "provider_fixture.h"

#include <string.h>

#include <apr_strings.h>

static int refcount_of(fixture_t *f, const char *key)
{
    int refcount = -1;
    if (!indexed_object(f, key, &refcount, NULL))
        return -1;
    return refcount;
}

/* open_entity and recall_body as the quick handler does, keeping the body's brigade (an
 * immortal bucket on the shared buffer) to read it later. */
static apr_bucket_brigade *open_and_recall(request_rec *r, const char *key, cache_handle_t *h)
{
    memset(h, 0, sizeof(*h));
    assert_int_equal(provider->open_entity(h, r, key), OK);
    assert_int_equal(provider->recall_headers(h, r), APR_SUCCESS);
    apr_bucket_brigade *bb = apr_brigade_create(r->pool, r->connection->bucket_alloc);
    assert_int_equal(provider->recall_body(h, r->pool, bb), APR_SUCCESS);
    return bb;
}

static void test_references_follow_the_requests(void **state)
{
    (void)state;
    fixture_t *f = fixture_start(NULL);
    const char *key = key_for(f, "/ref");
    request_rec *writer = new_request(f);
    assert_int_equal(save_response(writer, key, "ref", 3000, 0), SAVE_COMMITTED);
    assert_int_equal(refcount_of(f, key), 2); /* the writer's and the cache's */
    fake_request_end(writer);
    assert_int_equal(refcount_of(f, key), 1);

    cache_handle_t h1, h2;
    request_rec *r1 = new_request(f);
    open_and_recall(r1, key, &h1);
    assert_int_equal(refcount_of(f, key), 2);
    /* A subrequest's hit (mod_include) is held by its main request: the subrequest's pool
     * dies before the main request has sent the body. */
    request_rec *main = new_request(f);
    request_rec *sub = fake_subrequest_create(main);
    open_and_recall(sub, key, &h2);
    assert_int_equal(refcount_of(f, key), 3);
    fake_request_end(sub);
    assert_int_equal(refcount_of(f, key), 3);
    fake_request_end(main);
    assert_int_equal(refcount_of(f, key), 2);
    fake_request_end(r1);
    assert_int_equal(refcount_of(f, key), 1);
    assert_int_equal(census_alive(), 1);
    assert_int_equal(snapshot(f).counts[MEM_COUNT_HITS], 2);
    fixture_stop(f);
}

/* A subrequest that stores a response (mod_include's virtual include of a miss): its
 * reference, too, belongs to the main request. */
static void test_subrequest_stores_for_its_main_request(void **state)
{
    (void)state;
    fixture_t *f = fixture_start(NULL);
    const char *key = key_for(f, "/included");
    request_rec *main = new_request(f);
    request_rec *sub = fake_subrequest_create(main);
    assert_int_equal(save_response(sub, key, "included", 2000, 1), SAVE_COMMITTED);
    fake_request_end(sub);
    assert_int_equal(refcount_of(f, key), 2);
    assert_true(hit_with(f, key, "included", 2000));
    fake_request_end(main);
    assert_int_equal(refcount_of(f, key), 1);
    fixture_stop(f);
}

/* An object evicted while a request still sends it stays whole until that request ends. */
static void test_evicted_object_lives_until_its_last_request_ends(void **state)
{
    (void)state;
    fixture_t *f = fixture_start("MCacheMaxObjectCount", "1", NULL);
    const char *x = key_for(f, "/x"), *y = key_for(f, "/y");
    request_rec *r = new_request(f);
    assert_int_equal(save_response(r, x, "x", 5000, 0), SAVE_COMMITTED);
    fake_request_end(r);
    request_rec *reader = new_request(f);
    cache_handle_t h;
    apr_bucket_brigade *body = open_and_recall(reader, x, &h);

    r = new_request(f);
    assert_int_equal(save_response(r, y, "y", 5000, 1), SAVE_COMMITTED);
    fake_request_end(r);
    assert_null(indexed_object(f, x, NULL, NULL));
    assert_int_equal(snapshot(f).evictions, 1);
    assert_int_equal(census_alive(), 2);
    assert_true(brigade_holds(reader->pool, body, body_for(reader->pool, "x", 5000), 5000, 0));
    fake_request_end(reader);
    assert_int_equal(census_alive(), 1);
    assert_true(hit_with(f, y, "y", 5000));
    fixture_stop(f);
}

/* mod_cache calls every provider's remove_url with one handle, possibly another provider's:
 * the key decides. */
static void test_remove_url_goes_by_the_key(void **state)
{
    (void)state;
    fixture_t *f = fixture_start(NULL);
    const char *key = key_for(f, "/gone");
    request_rec *r = new_request(f);
    assert_int_equal(save_response(r, key, "gone", 2000, 0), SAVE_COMMITTED);
    fake_request_end(r);

    r = new_request(f);
    cache_object_t foreign_object = {.key = key, .vobj = (void *)"another provider's"};
    cache_handle_t foreign = {.cache_obj = &foreign_object};
    assert_int_equal(provider->remove_url(&foreign, r), OK);
    assert_int_equal(fake_log_count("mod_mem_cache: removed http://harness.test:80/gone"), 1);
    assert_null(indexed_object(f, key, NULL, NULL));
    assert_int_equal(census_alive(), 0);
    /* nothing cached under the key, no handle, no object: nothing to do */
    assert_int_equal(provider->remove_url(&foreign, r), OK);
    assert_int_equal(provider->remove_url(NULL, r), OK);
    cache_handle_t empty = {0};
    assert_int_equal(provider->remove_url(&empty, r), OK);
    assert_int_equal(fake_log_count("mod_mem_cache: removed"), 1);
    fake_request_end(r);
    fixture_stop(f);
}

/* A stale entry replaced by a new 200 response: mod_cache calls remove_entity on the stale
 * handle, then create_entity for the same key. A request that hit the old object earlier
 * still sends the old body. */
static void test_remove_entity_makes_way_for_a_new_object(void **state)
{
    (void)state;
    fixture_t *f = fixture_start(NULL);
    const char *key = key_for(f, "/stale");
    request_rec *r = new_request(f);
    assert_int_equal(save_response(r, key, "old", 3000, 0), SAVE_COMMITTED);
    fake_request_end(r);
    request_rec *early = new_request(f);
    cache_handle_t early_handle;
    apr_bucket_brigade *early_body = open_and_recall(early, key, &early_handle);

    request_rec *refresher = new_request(f);
    cache_handle_t stale;
    open_and_recall(refresher, key, &stale);
    assert_int_equal(provider->remove_entity(&stale), OK);
    assert_null(indexed_object(f, key, NULL, NULL));
    assert_int_equal(save_response(refresher, key, "new", 4000, 1), SAVE_COMMITTED);
    fake_request_end(refresher);

    assert_true(hit_with(f, key, "new", 4000));
    assert_true(brigade_holds(early->pool, early_body, body_for(early->pool, "old", 3000), 3000, 0));
    assert_int_equal(census_alive(), 2);
    fake_request_end(early);
    assert_int_equal(census_alive(), 1);
    fixture_stop(f);
}

/* POST invalidates (invalidate_entity on a handle from open_entity); the next GET sees the
 * entry invalidated and revalidates it; the origin's 304 makes mod_cache call store_headers
 * and commit_entity on that same handle: new headers are published, the body stays, and a
 * request that hit earlier keeps the headers it saw. */
static void test_invalidation_then_304_revalidation(void **state)
{
    (void)state;
    fixture_t *f = fixture_start(NULL);
    const char *key = key_for(f, "/page");
    request_rec *r = new_request(f);
    apr_table_set(r->headers_out, "X-Version", "1");
    assert_int_equal(save_response(r, key, "page", 2500, 1), SAVE_COMMITTED);
    fake_request_end(r);
    request_rec *early = new_request(f);
    cache_handle_t early_handle;
    open_and_recall(early, key, &early_handle);
    assert_false(early_handle.cache_obj->info.control.invalidated);

    request_rec *post = new_request(f);
    cache_handle_t post_handle;
    open_and_recall(post, key, &post_handle);
    assert_int_equal(provider->invalidate_entity(&post_handle, post), APR_SUCCESS);
    fake_request_end(post);

    request_rec *get = new_request(f);
    cache_handle_t stale;
    open_and_recall(get, key, &stale);
    assert_true(stale.cache_obj->info.control.invalidated); /* mod_cache will revalidate */
    apr_table_set(get->headers_out, "X-Version", "2");
    cache_info info = stale.cache_obj->info;
    info.control.invalidated = 0;
    info.expire = apr_time_now() + apr_time_from_sec(7200);
    assert_int_equal(provider->store_headers(&stale, get, &info), APR_SUCCESS);
    assert_int_equal(provider->commit_entity(&stale, get), APR_SUCCESS);
    fake_request_end(get);

    request_rec *later = new_request(f);
    cache_handle_t fresh;
    char *body;
    apr_size_t length;
    assert_int_equal(lookup(later, key, &fresh, &body, &length), OK);
    assert_false(fresh.cache_obj->info.control.invalidated);
    assert_int_equal(fresh.cache_obj->info.expire, info.expire);
    assert_string_equal(apr_table_get(fresh.resp_hdrs, "X-Version"), "2");
    assert_int_equal(length, 2500);
    assert_memory_equal(body, body_for(later->pool, "page", 2500), 2500);
    fake_request_end(later);

    assert_int_equal(provider->recall_headers(&early_handle, early), APR_SUCCESS);
    assert_string_equal(apr_table_get(early_handle.resp_hdrs, "X-Version"), "1");
    fake_request_end(early);
    assert_int_equal(census_alive(), 1);
    fixture_stop(f);
}

/* A revalidation whose request ends before commit_entity changes nothing. */
static void test_revalidation_without_commit_changes_nothing(void **state)
{
    (void)state;
    fixture_t *f = fixture_start(NULL);
    const char *key = key_for(f, "/uncommitted");
    request_rec *r = new_request(f);
    apr_table_set(r->headers_out, "X-Version", "1");
    assert_int_equal(save_response(r, key, "uncommitted", 1500, 0), SAVE_COMMITTED);
    fake_request_end(r);

    r = new_request(f);
    cache_handle_t stale;
    open_and_recall(r, key, &stale);
    apr_table_set(r->headers_out, "X-Version", "2");
    assert_int_equal(provider->store_headers(&stale, r, &stale.cache_obj->info), APR_SUCCESS);
    fake_request_end(r);

    r = new_request(f);
    cache_handle_t h;
    open_and_recall(r, key, &h);
    assert_string_equal(apr_table_get(h.resp_hdrs, "X-Version"), "1");
    fake_request_end(r);
    fixture_stop(f);
}

/* While a streamed body is filled, the URL is removed and another request stores it anew:
 * at completion the first object finds its key taken, is not cached, and dies with its
 * request. */
static void test_streamed_object_replaced_while_filling(void **state)
{
    (void)state;
    fixture_t *f = fixture_start(NULL);
    const char *key = key_for(f, "/race");
    request_rec *slow = new_request(f);
    const char *body = body_for(slow->pool, "slow", 6000);
    saving_t *saving = saving_start(slow, key, -1, NULL);
    assert_int_equal(saving_pass(saving, brigade_of(slow, body, 3000, 1000, 0)), SAVE_PARTIAL);

    request_rec *remover = new_request(f);
    cache_object_t object = {.key = key};
    cache_handle_t handle = {.cache_obj = &object};
    assert_int_equal(provider->remove_url(&handle, remover), OK);
    fake_request_end(remover);
    request_rec *fast = new_request(f);
    assert_int_equal(save_response(fast, key, "fast", 2000, 0), SAVE_COMMITTED);
    fake_request_end(fast);

    assert_int_equal(saving_pass(saving, brigade_of(slow, body + 3000, 3000, 1000, 1)), SAVE_COMMITTED);
    assert_true(brigade_holds(slow->pool, saving->client, body, 6000, 1));
    assert_int_equal(fake_log_count("not caching http://harness.test:80/race: it no longer fits "
                                    "in the cache, another request replaced it"), 1);
    assert_true(hit_with(f, key, "fast", 2000));
    assert_int_equal(census_alive(), 2);
    fake_request_end(slow);
    assert_int_equal(census_alive(), 1);
    mem_instance_snapshot_t s = snapshot(f);
    assert_int_equal(s.counts[MEM_COUNT_STORED], 1);
    assert_int_equal(s.counts[MEM_COUNT_NOT_STORED], 1);
    fixture_stop(f);
}

/* A streamed object evicted while it was filled is indexed again when it completes (as 2.2
 * did), taking the cache's reference anew. */
static void test_streamed_object_evicted_while_filling_is_indexed_again(void **state)
{
    (void)state;
    fixture_t *f = fixture_start("MCacheMaxObjectCount", "2", "MCacheRemovalAlgorithm", "LRU", NULL);
    const char *x = key_for(f, "/x"), *y = key_for(f, "/y"), *z = key_for(f, "/z");
    request_rec *slow = new_request(f);
    const char *body = body_for(slow->pool, "x", 3000);
    saving_t *saving = saving_start(slow, x, -1, NULL);
    assert_int_equal(saving_pass(saving, brigade_of(slow, body, 1000, 1000, 0)), SAVE_PARTIAL);
    request_rec *r = new_request(f);
    assert_int_equal(save_response(r, y, "y", 1000, 0), SAVE_COMMITTED);
    assert_int_equal(save_response(new_request(f), z, "z", 1000, 0), SAVE_COMMITTED);
    fake_request_end(r);
    assert_null(indexed_object(f, x, NULL, NULL)); /* least recently used: evicted */

    assert_int_equal(saving_pass(saving, brigade_of(slow, body + 1000, 2000, 1000, 1)), SAVE_COMMITTED);
    int complete;
    int refcount = -1;
    assert_non_null(indexed_object(f, x, &refcount, &complete));
    assert_true(complete);
    assert_int_equal(refcount, 2);
    fake_request_end(slow);
    assert_true(hit_with(f, x, "x", 3000));
    assert_false(hit_with(f, y, "y", 1000)); /* made room for x */
    assert_true(hit_with(f, z, "z", 1000));
    fixture_stop(f);
}

/* The child process exits while requests are still alive (a hit being sent, a store that
 * failed, one half-way): httpd destroys the child's pool first, the requests' pools later
 * (with pconf, their ancestor). Their references are still dropped safely, and the cache,
 * drained with pconf after them, frees every object. */
static void test_child_exit_with_requests_in_flight(void **state)
{
    (void)state;
    fixture_t *f = fixture_start("MCacheMaxStreamingBuffer", "2000", NULL);
    const char *hit = key_for(f, "/hit"), *failed = key_for(f, "/failed"), *half = key_for(f, "/half");
    request_rec *r = new_request(f);
    assert_int_equal(save_response(r, hit, "hit", 3000, 0), SAVE_COMMITTED);
    fake_request_end(r);
    request_rec *sending = new_request(f);
    cache_handle_t h;
    apr_bucket_brigade *body = open_and_recall(sending, hit, &h);
    request_rec *failing = new_request(f);
    assert_int_equal(save_response(failing, failed, "failed", 3000, 1), SAVE_FAILED);
    request_rec *filling = new_request(f);
    saving_t *saving = saving_start(filling, half, 3000, NULL);
    const char *half_body = body_for(filling->pool, "half", 1000);
    assert_int_equal(saving_pass(saving, brigade_of(filling, half_body, 1000, 1000, 0)), SAVE_PARTIAL);

    fixture_exit_child(f);
    assert_true(brigade_holds(sending->pool, body, body_for(sending->pool, "hit", 3000), 3000, 0));
    assert_int_equal(census_alive(), 3);
    fake_request_end(sending);
    fake_request_end(failing);
    fake_request_end(filling);
    assert_int_equal(census_alive(), 1); /* the cached one */
    fixture_stop(f);                      /* checks that draining freed it */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_references_follow_the_requests),
        cmocka_unit_test(test_subrequest_stores_for_its_main_request),
        cmocka_unit_test(test_evicted_object_lives_until_its_last_request_ends),
        cmocka_unit_test(test_remove_url_goes_by_the_key),
        cmocka_unit_test(test_remove_entity_makes_way_for_a_new_object),
        cmocka_unit_test(test_invalidation_then_304_revalidation),
        cmocka_unit_test(test_revalidation_without_commit_changes_nothing),
        cmocka_unit_test(test_streamed_object_replaced_while_filling),
        cmocka_unit_test(test_streamed_object_evicted_while_filling_is_indexed_again),
        cmocka_unit_test(test_child_exit_with_requests_in_flight),
    };
    return FIXTURE_RUN_TESTS("provider: object lifetime", tests);
}
