/* The provider's storing path, as mod_cache drives it: a response of known length or
 * streamed (CGI output) is created, filled over several store_body calls, committed, and then
 * served to other requests; objects being filled stay invisible; the cache charges a streamed
 * object its real size once complete. */
#include "provider_fixture.h"

#include <string.h>

#include <apr_strings.h>

static void test_known_length_miss_then_hit(void **state)
{
    (void)state;
    fixture_t *f = fixture_start(NULL);
    request_rec *r = new_request(f);
    const char *key = key_for(f, "/static/a.txt");
    apr_table_set(r->headers_in, "Accept-Language", "fr");
    saving_t *saving = saving_start(r, key, 3000, "Content-Type", "text/plain", "ETag", "\"v1\"", NULL);
    const char *body = body_for(r->pool, "a", 3000);
    assert_int_equal(saving_pass(saving, brigade_of(r, body, 3000, 1000, 1)), SAVE_COMMITTED);
    assert_true(brigade_holds(r->pool, saving->client, body, 3000, 1));
    fake_request_end(r);

    request_rec *reader = new_request(f);
    cache_handle_t h;
    char *got;
    apr_size_t length;
    assert_int_equal(lookup(reader, key, &h, &got, &length), OK);
    assert_int_equal(length, 3000);
    assert_memory_equal(got, body_for(reader->pool, "a", 3000), 3000);
    assert_string_equal(apr_table_get(h.resp_hdrs, "Content-Type"), "text/plain");
    assert_string_equal(apr_table_get(h.resp_hdrs, "ETag"), "\"v1\"");
    assert_string_equal(apr_table_get(h.req_hdrs, "Accept-Language"), "fr");
    assert_int_equal(h.cache_obj->info.status, HTTP_OK);
    assert_true(h.cache_obj->info.expire > h.cache_obj->info.date);
    assert_string_equal(h.cache_obj->key, key);
    fake_request_end(reader);

    mem_instance_snapshot_t s = snapshot(f);
    assert_int_equal(s.entries, 1);
    assert_int_equal(s.bytes, 3000);
    assert_int_equal(s.counts[MEM_COUNT_STORED], 1);
    assert_int_equal(s.counts[MEM_COUNT_HITS], 1);
    assert_int_equal(s.counts[MEM_COUNT_MISSES], 0);
    assert_int_equal(fake_log_count("mod_mem_cache: stored http://harness.test:80/static/a.txt "
                                    "(3000 bytes)"), 1);
    fixture_stop(f);
}

static void test_lookup_of_an_unknown_key_misses(void **state)
{
    (void)state;
    fixture_t *f = fixture_start(NULL);
    request_rec *r = new_request(f);
    cache_handle_t h;
    char *body;
    apr_size_t length;
    assert_int_equal(lookup(r, key_for(f, "/nothing"), &h, &body, &length), DECLINED);
    assert_null(h.cache_obj);
    fake_request_end(r);
    assert_int_equal(snapshot(f).counts[MEM_COUNT_MISSES], 1);
    assert_int_equal(census_alive(), 0);
    fixture_stop(f);
}

/* A CGI body: unknown length, arriving in many brigades, larger than the first buffer
 * (16 KB), so the buffer grows; the cache charges nothing until it completes. */
static void test_streamed_body_grows_and_is_charged_at_completion(void **state)
{
    (void)state;
    fixture_t *f = fixture_start("MCacheSize", "1000", "MCacheMaxObjectSize", "100000", NULL);
    request_rec *writer = new_request(f);
    const char *key = key_for(f, "/cgi-bin/page?big");
    const char *body = body_for(writer->pool, "big", 40000);
    saving_t *saving = saving_start(writer, key, -1, "Content-Type", "text/html", NULL);
    for (size_t offset = 0; offset < 36000; offset += 4000)
        assert_int_equal(saving_pass(saving, brigade_of(writer, body + offset, 4000, 1000, 0)),
                         SAVE_PARTIAL);

    int refcount, complete;
    assert_non_null(indexed_object(f, key, &refcount, &complete));
    assert_false(complete);
    assert_int_equal(refcount, 2); /* the writer's and the cache's */
    assert_int_equal(snapshot(f).bytes, 0);
    assert_false(hit_with(f, key, "big", 40000)); /* incomplete: a miss */

    assert_int_equal(saving_pass(saving, brigade_of(writer, body + 36000, 4000, 1000, 1)), SAVE_COMMITTED);
    assert_true(brigade_holds(writer->pool, saving->client, body, 40000, 1));
    mem_instance_snapshot_t s = snapshot(f);
    assert_int_equal(s.bytes, 40000);
    assert_int_equal(s.entries, 1);
    assert_true(hit_with(f, key, "big", 40000));
    fake_request_end(writer);
    assert_true(hit_with(f, key, "big", 40000));
    fixture_stop(f);
}

/* At completion a streamed object is indexed again with its real size, which can evict
 * others to make room. */
static void test_streamed_completion_evicts_to_fit(void **state)
{
    (void)state;
    fixture_t *f = fixture_start("MCacheSize", "10", "MCacheRemovalAlgorithm", "LRU", NULL);
    request_rec *r = new_request(f);
    const char *a = key_for(f, "/a"), *b = key_for(f, "/b"), *c = key_for(f, "/c");
    assert_int_equal(save_response(r, a, "a", 4000, 0), SAVE_COMMITTED);
    fake_request_end(r);
    r = new_request(f);
    assert_int_equal(save_response(r, b, "b", 4000, 0), SAVE_COMMITTED);
    fake_request_end(r);
    assert_int_equal(snapshot(f).bytes, 8000);
    r = new_request(f);
    assert_int_equal(save_response(r, c, "c", 6000, 1), SAVE_COMMITTED);
    fake_request_end(r);

    mem_instance_snapshot_t s = snapshot(f);
    assert_int_equal(s.bytes, 10000); /* b + c within 10 KBytes */
    assert_int_equal(s.evictions, 1);
    assert_false(hit_with(f, a, "a", 4000)); /* least recently used */
    assert_true(hit_with(f, b, "b", 4000));
    assert_true(hit_with(f, c, "c", 6000));
    assert_int_equal(census_alive(), 2);
    fixture_stop(f);
}

/* One request stores a URL at a time: while it fills the object, lookups miss and other
 * misses pass through without replacing it (their object is freed at once). */
static void test_object_being_filled_is_invisible_and_keeps_its_key(void **state)
{
    (void)state;
    fixture_t *f = fixture_start(NULL);
    request_rec *writer = new_request(f);
    const char *key = key_for(f, "/cgi-bin/page?herd");
    const char *body = body_for(writer->pool, "herd", 5000);
    saving_t *saving = saving_start(writer, key, 5000, NULL);
    assert_int_equal(saving_pass(saving, brigade_of(writer, body, 2000, 1000, 0)), SAVE_PARTIAL);

    request_rec *other = new_request(f);
    cache_handle_t h;
    char *got;
    apr_size_t length;
    assert_int_equal(lookup(other, key, &h, &got, &length), DECLINED);
    saving_t *second = saving_start(other, key, 5000, NULL);
    assert_int_equal(saving_pass(second, brigade_of(other, body, 5000, 1000, 1)), SAVE_DECLINED);
    assert_true(brigade_holds(other->pool, second->client, body, 5000, 1));
    assert_int_equal(fake_log_count("another request is storing it"), 1);
    assert_int_equal(census_alive(), 1); /* the second object never became visible: freed */
    fake_request_end(other);

    assert_int_equal(saving_pass(saving, brigade_of(writer, body + 2000, 3000, 1000, 1)), SAVE_COMMITTED);
    fake_request_end(writer);
    assert_true(hit_with(f, key, "herd", 5000));
    mem_instance_snapshot_t s = snapshot(f);
    assert_int_equal(s.counts[MEM_COUNT_STORED], 1);
    assert_int_equal(s.counts[MEM_COUNT_NOT_STORED], 1);
    fixture_stop(f);
}

/* A FLUSH goes to the client at once; a long brigade is taken MCacheReadSize bytes per call
 * (whole buckets), so that data reaches the client while the rest is stored. */
static void test_store_body_hands_on_flushes_and_long_brigades(void **state)
{
    (void)state;
    fixture_t *f = fixture_start("MCacheSize", "2000", "MCacheMaxObjectSize", "600000",
                                 "MCacheReadSize", "262144", NULL);
    request_rec *r = new_request(f);
    const char *key = key_for(f, "/flush");
    const char *body = body_for(r->pool, "flush", 2000);
    apr_bucket_brigade *in = brigade_of(r, body, 1000, 1000, 0);
    APR_BRIGADE_INSERT_TAIL(in, apr_bucket_flush_create(r->connection->bucket_alloc));
    apr_bucket_brigade *rest = brigade_of(r, body + 1000, 1000, 1000, 1);
    APR_BRIGADE_CONCAT(in, rest); /* (a macro: its arguments are evaluated more than once) */
    saving_t *saving = saving_start(r, key, 2000, NULL);
    assert_int_equal(saving_pass(saving, in), SAVE_COMMITTED);
    assert_int_equal(saving->store_body_calls, 2);
    assert_true(APR_BUCKET_IS_FLUSH(APR_BUCKET_NEXT(APR_BRIGADE_FIRST(saving->client))));
    assert_true(brigade_holds(r->pool, saving->client, body, 2000, 1));
    fake_request_end(r);
    assert_true(hit_with(f, key, "flush", 2000));

    r = new_request(f);
    const char *long_key = key_for(f, "/long");
    const char *long_body = body_for(r->pool, "long", 550000);
    saving = saving_start(r, long_key, 550000, NULL);
    assert_int_equal(saving_pass(saving, brigade_of(r, long_body, 550000, 65536, 1)), SAVE_COMMITTED);
    assert_int_equal(saving->store_body_calls, 3); /* 256 KB, 256 KB, the rest */
    assert_true(brigade_holds(r->pool, saving->client, long_body, 550000, 1));
    fake_request_end(r);
    assert_true(hit_with(f, long_key, "long", 550000));
    fixture_stop(f);

    /* The default, 64 KB: four 16 KB buckets per call. */
    f = fixture_start("MCacheSize", "2000", "MCacheMaxObjectSize", "600000", NULL);
    r = new_request(f);
    long_body = body_for(r->pool, "long", 550000);
    saving = saving_start(r, long_key, 550000, NULL);
    assert_int_equal(saving_pass(saving, brigade_of(r, long_body, 550000, 16384, 1)), SAVE_COMMITTED);
    assert_int_equal(saving->store_body_calls, 9); /* 34 buckets: 8 calls of 4, the rest */
    assert_true(brigade_holds(r->pool, saving->client, long_body, 550000, 1));
    fake_request_end(r);
    assert_true(hit_with(f, long_key, "long", 550000));
    fixture_stop(f);
}

/* mod_cache gives a body of known length in a first brigade that already holds EOS. */
static void test_whole_response_in_one_brigade(void **state)
{
    (void)state;
    fixture_t *f = fixture_start(NULL);
    request_rec *r = new_request(f);
    const char *key = key_for(f, "/one");
    assert_int_equal(save_response(r, key, "one", 1, 0), SAVE_COMMITTED);
    fake_request_end(r);
    assert_true(hit_with(f, key, "one", 1));
    fixture_stop(f);
}

/* With MCacheMinObjectSize 0 an empty body is an object too: a hit sends no data. */
static void test_empty_body(void **state)
{
    (void)state;
    fixture_t *f = fixture_start("MCacheMinObjectSize", "0", NULL);
    request_rec *r = new_request(f);
    const char *key = key_for(f, "/empty");
    saving_t *saving = saving_start(r, key, 0, NULL);
    assert_int_equal(saving_pass(saving, brigade_of(r, "", 0, 1000, 1)), SAVE_COMMITTED);
    fake_request_end(r);
    assert_true(hit_with(f, key, "", 0));
    assert_int_equal(snapshot(f).counts[MEM_COUNT_STORED], 1);
    fixture_stop(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_known_length_miss_then_hit),
        cmocka_unit_test(test_lookup_of_an_unknown_key_misses),
        cmocka_unit_test(test_streamed_body_grows_and_is_charged_at_completion),
        cmocka_unit_test(test_streamed_completion_evicts_to_fit),
        cmocka_unit_test(test_object_being_filled_is_invisible_and_keeps_its_key),
        cmocka_unit_test(test_store_body_hands_on_flushes_and_long_brigades),
        cmocka_unit_test(test_whole_response_in_one_brigade),
        cmocka_unit_test(test_empty_body),
    };
    return FIXTURE_RUN_TESTS("provider: storing", tests);
}
