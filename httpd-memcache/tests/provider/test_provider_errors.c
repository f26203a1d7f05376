/* Bad input to the provider: objects outside the size limits, bodies of unknown length
 * beyond MCacheMaxStreamingBuffer, bodies that disagree with their Content-Length, aborted
 * connections, unreadable buckets, stores that stop half-way. Each gets a clear result (a
 * decline or an error, and a debug line naming the limit or the reason), nothing of the
 * response is lost on its way to the client, and nothing half-stored stays in the cache. */
#include "provider_fixture.h"

#include <string.h>

#include <apr_strings.h>

/* What mod_cache passes to the client after a failed store_body: out, then what is left of in. */
static int client_got_everything(request_rec *r, saving_t *saving, const char *body, size_t length)
{
    return brigade_holds(r->pool, saving->client, body, length, 1);
}

static void test_known_length_over_the_object_limit_is_declined(void **state)
{
    (void)state;
    fixture_t *f = fixture_start(NULL); /* MCacheMaxObjectSize 10000 */
    request_rec *r = new_request(f);
    const char *key = key_for(f, "/static/huge.txt");
    assert_int_equal(save_response(r, key, "huge", 20000, 0), SAVE_DECLINED);
    assert_int_equal(fake_log_count("not caching http://harness.test:80/static/huge.txt: 20000 bytes "
                                    "is outside MCacheMinObjectSize..MCacheMaxObjectSize (1..10000)"), 1);
    assert_int_equal(census_alive(), 0);
    fake_request_end(r);
    mem_instance_snapshot_t s = snapshot(f);
    assert_int_equal(s.entries, 0);
    assert_int_equal(s.counts[MEM_COUNT_NOT_STORED], 1);
    fixture_stop(f);
}

static void test_known_length_under_the_minimum_is_declined(void **state)
{
    (void)state;
    fixture_t *f = fixture_start("MCacheMinObjectSize", "100", NULL);
    request_rec *r = new_request(f);
    assert_int_equal(save_response(r, key_for(f, "/tiny"), "tiny", 50, 0), SAVE_DECLINED);
    assert_int_equal(fake_log_count("50 bytes is outside MCacheMinObjectSize..MCacheMaxObjectSize "
                                    "(100..10000)"), 1);
    fake_request_end(r);
    assert_int_equal(snapshot(f).entries, 0);
    fixture_stop(f);
}

/* A body of unknown length passing the streaming buffer: store_body gives up at the bucket
 * that crosses the limit, leaving it and the rest in the input; the object leaves the index
 * at once, so the next request may store the URL, and is freed when its request ends. */
static void test_streaming_beyond_the_buffer_gives_up_and_loses_nothing(void **state)
{
    (void)state;
    fixture_t *f = fixture_start("MCacheMaxStreamingBuffer", "5000", NULL);
    request_rec *r = new_request(f);
    const char *key = key_for(f, "/cgi-bin/page?mid");
    const char *body = body_for(r->pool, "mid", 8000);
    saving_t *saving = saving_start(r, key, -1, NULL);
    assert_int_equal(saving_pass(saving, brigade_of(r, body, 4000, 1000, 0)), SAVE_PARTIAL);
    assert_int_equal(saving_pass(saving, brigade_of(r, body + 4000, 4000, 1000, 1)), SAVE_FAILED);
    assert_true(client_got_everything(r, saving, body, 8000));
    assert_int_equal(fake_log_count("not caching http://harness.test:80/cgi-bin/page?mid: body of "
                                    "unknown length passed 5000 bytes, the MCacheMaxStreamingBuffer "
                                    "limit"), 1);
    assert_null(indexed_object(f, key, NULL, NULL));
    assert_int_equal(census_alive(), 1); /* the request still holds it */

    request_rec *next = new_request(f);
    assert_int_equal(save_response(next, key, "mid", 4000, 1), SAVE_COMMITTED);
    fake_request_end(next);
    fake_request_end(r);
    assert_int_equal(census_alive(), 1);
    assert_true(hit_with(f, key, "mid", 4000));
    mem_instance_snapshot_t s = snapshot(f);
    assert_int_equal(s.counts[MEM_COUNT_NOT_STORED], 1);
    assert_int_equal(s.counts[MEM_COUNT_STORED], 1);
    fixture_stop(f);
}

/* With a streaming buffer larger than MCacheMaxObjectSize, the message names the smaller. */
static void test_streaming_limit_names_the_object_size_when_smaller(void **state)
{
    (void)state;
    fixture_t *f = fixture_start(NULL); /* buffer 100000, objects 10000 */
    request_rec *r = new_request(f);
    assert_int_equal(save_response(r, key_for(f, "/cgi-bin/page?big"), "big", 30000, 1), SAVE_FAILED);
    assert_int_equal(fake_log_count("body of unknown length passed 10000 bytes, the "
                                    "MCacheMaxObjectSize limit"), 1);
    fake_request_end(r);
    assert_int_equal(census_alive(), 0);
    fixture_stop(f);
}

static void test_no_streaming_buffer_declines_unknown_lengths(void **state)
{
    (void)state;
    fixture_t *f = fixture_start("MCacheMaxStreamingBuffer", "0", NULL);
    request_rec *r = new_request(f);
    assert_int_equal(save_response(r, key_for(f, "/cgi"), "cgi", 100, 1), SAVE_DECLINED);
    assert_int_equal(fake_log_count("its length is unknown and MCacheMaxStreamingBuffer is 0"), 1);
    assert_int_equal(census_alive(), 0);
    fake_request_end(r);
    fixture_stop(f);
}

static void test_body_longer_than_its_content_length(void **state)
{
    (void)state;
    fixture_t *f = fixture_start(NULL);
    request_rec *r = new_request(f);
    const char *key = key_for(f, "/liar");
    const char *body = body_for(r->pool, "liar", 150);
    saving_t *saving = saving_start(r, key, 100, NULL);
    assert_int_equal(saving_pass(saving, brigade_of(r, body, 150, 60, 1)), SAVE_FAILED);
    assert_true(client_got_everything(r, saving, body, 150));
    assert_int_equal(fake_log_count("not caching http://harness.test:80/liar: body longer than its "
                                    "Content-Length"), 1);
    assert_null(indexed_object(f, key, NULL, NULL));
    fake_request_end(r);
    assert_int_equal(census_alive(), 0);
    fixture_stop(f);
}

/* The check comes at EOS, which is already on its way to the client: mod_cache then does not
 * call commit_entity, and the object must not stay behind. */
static void test_body_shorter_than_its_content_length(void **state)
{
    (void)state;
    fixture_t *f = fixture_start(NULL);
    request_rec *r = new_request(f);
    const char *key = key_for(f, "/short");
    const char *body = body_for(r->pool, "short", 60);
    saving_t *saving = saving_start(r, key, 100, NULL);
    assert_int_equal(saving_pass(saving, brigade_of(r, body, 60, 1000, 1)), SAVE_FAILED);
    assert_true(client_got_everything(r, saving, body, 60));
    assert_int_equal(fake_log_count("body shorter than its Content-Length"), 1);
    assert_null(indexed_object(f, key, NULL, NULL));
    assert_false(hit_with(f, key, "short", 60));
    fake_request_end(r);
    assert_int_equal(census_alive(), 0);
    fixture_stop(f);
}

static void test_aborted_connection_is_not_cached(void **state)
{
    (void)state;
    fixture_t *f = fixture_start(NULL);
    request_rec *r = new_request(f);
    const char *key = key_for(f, "/aborted");
    const char *body = body_for(r->pool, "aborted", 3000);
    saving_t *saving = saving_start(r, key, 3000, NULL);
    assert_int_equal(saving_pass(saving, brigade_of(r, body, 2000, 1000, 0)), SAVE_PARTIAL);
    r->connection->aborted = 1;
    assert_int_equal(saving_pass(saving, brigade_of(r, body + 2000, 1000, 1000, 1)), SAVE_FAILED);
    assert_true(client_got_everything(r, saving, body, 3000));
    assert_int_equal(fake_log_count("client connection aborted"), 1);
    assert_false(hit_with(f, key, "aborted", 3000));
    fake_request_end(r);
    assert_int_equal(census_alive(), 0);
    fixture_stop(f);
}

static void test_streamed_body_under_the_minimum(void **state)
{
    (void)state;
    fixture_t *f = fixture_start("MCacheMinObjectSize", "100", NULL);
    request_rec *r = new_request(f);
    const char *key = key_for(f, "/cgi-bin/page?small");
    assert_int_equal(save_response(r, key, "small", 50, 1), SAVE_FAILED);
    assert_int_equal(fake_log_count("50 bytes is outside MCacheMinObjectSize..MCacheMaxObjectSize "
                                    "(100..10000)"), 1);
    assert_null(indexed_object(f, key, NULL, NULL));
    fake_request_end(r);
    assert_int_equal(census_alive(), 0);
    fixture_stop(f);
}

/* A bucket whose read fails (a broken pipe from a CGI, say). */
static apr_status_t failing_read(apr_bucket *b, const char **data, apr_size_t *length,
                                 apr_read_type_e block)
{
    (void)b, (void)block;
    *data = NULL;
    *length = 0;
    return APR_EPIPE;
}

static const apr_bucket_type_t failing_bucket_type = {
    "FAILING", 5, APR_BUCKET_DATA, apr_bucket_destroy_noop, failing_read,
    apr_bucket_setaside_notimpl, apr_bucket_split_notimpl, apr_bucket_copy_notimpl,
};

static void test_unreadable_bucket_gives_up_and_keeps_the_bucket(void **state)
{
    (void)state;
    fixture_t *f = fixture_start(NULL);
    request_rec *r = new_request(f);
    const char *key = key_for(f, "/cgi-bin/broken");
    const char *body = body_for(r->pool, "broken", 1000);
    apr_bucket_brigade *in = brigade_of(r, body, 1000, 500, 0);
    apr_bucket *failing = apr_bucket_alloc(sizeof(*failing), r->connection->bucket_alloc);
    APR_BUCKET_INIT(failing);
    failing->type = &failing_bucket_type;
    failing->length = (apr_size_t)-1;
    failing->start = -1;
    failing->data = NULL;
    failing->free = apr_bucket_free;
    failing->list = r->connection->bucket_alloc;
    APR_BRIGADE_INSERT_TAIL(in, failing);
    saving_t *saving = saving_start(r, key, -1, NULL);
    assert_int_equal(saving_pass(saving, in), SAVE_FAILED);
    assert_int_equal(fake_log_count("reading the response failed"), 1);
    /* the client gets the data read so far, then the failing bucket itself */
    apr_bucket *last = APR_BRIGADE_LAST(saving->client);
    assert_ptr_equal(last, failing);
    APR_BUCKET_REMOVE(last);
    apr_bucket_free(last);
    assert_true(brigade_holds(r->pool, saving->client, body, 1000, 0));
    assert_null(indexed_object(f, key, NULL, NULL));
    fake_request_end(r);
    assert_int_equal(census_alive(), 0);
    fixture_stop(f);
}

/* After a failure, store_body consumes nothing more and commit_entity stores nothing. */
static void test_calls_after_a_failure_change_nothing(void **state)
{
    (void)state;
    fixture_t *f = fixture_start("MCacheMaxStreamingBuffer", "1000", NULL);
    request_rec *r = new_request(f);
    const char *key = key_for(f, "/again");
    const char *body = body_for(r->pool, "again", 3000);
    saving_t *saving = saving_start(r, key, -1, NULL);
    assert_int_equal(saving_pass(saving, brigade_of(r, body, 3000, 500, 0)), SAVE_FAILED);
    apr_bucket_brigade *in = brigade_of(r, body, 500, 500, 1);
    apr_bucket_brigade *out = apr_brigade_create(r->pool, r->connection->bucket_alloc);
    assert_int_not_equal(provider->store_body(&saving->handle, r, in, out), APR_SUCCESS);
    assert_true(APR_BRIGADE_EMPTY(out));
    assert_true(brigade_holds(r->pool, in, body, 500, 1));
    assert_int_equal(provider->commit_entity(&saving->handle, r), APR_SUCCESS);
    assert_null(indexed_object(f, key, NULL, NULL));
    assert_false(hit_with(f, key, "again", 500));
    fake_request_end(r);
    mem_instance_snapshot_t s = snapshot(f);
    assert_int_equal(s.counts[MEM_COUNT_STORED], 0);
    assert_int_equal(s.counts[MEM_COUNT_NOT_STORED], 1);
    fixture_stop(f);
}

/* The request ends before its body did (the client went away, the handler failed): the
 * half-filled object leaves the index and is freed; the URL can be stored again. */
static void test_store_stopped_half_way_is_dropped(void **state)
{
    (void)state;
    fixture_t *f = fixture_start(NULL);
    request_rec *r = new_request(f);
    const char *key = key_for(f, "/half");
    const char *body = body_for(r->pool, "half", 4000);
    saving_t *saving = saving_start(r, key, -1, NULL);
    assert_int_equal(saving_pass(saving, brigade_of(r, body, 2000, 1000, 0)), SAVE_PARTIAL);
    assert_non_null(indexed_object(f, key, NULL, NULL));
    fake_request_end(r);
    assert_null(indexed_object(f, key, NULL, NULL));
    assert_int_equal(census_alive(), 0);
    assert_int_equal(snapshot(f).entries, 0);

    r = new_request(f);
    assert_int_equal(save_response(r, key, "half", 4000, 1), SAVE_COMMITTED);
    fake_request_end(r);
    assert_true(hit_with(f, key, "half", 4000));
    fixture_stop(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_known_length_over_the_object_limit_is_declined),
        cmocka_unit_test(test_known_length_under_the_minimum_is_declined),
        cmocka_unit_test(test_streaming_beyond_the_buffer_gives_up_and_loses_nothing),
        cmocka_unit_test(test_streaming_limit_names_the_object_size_when_smaller),
        cmocka_unit_test(test_no_streaming_buffer_declines_unknown_lengths),
        cmocka_unit_test(test_body_longer_than_its_content_length),
        cmocka_unit_test(test_body_shorter_than_its_content_length),
        cmocka_unit_test(test_aborted_connection_is_not_cached),
        cmocka_unit_test(test_streamed_body_under_the_minimum),
        cmocka_unit_test(test_unreadable_bucket_gives_up_and_keeps_the_bucket),
        cmocka_unit_test(test_calls_after_a_failure_change_nothing),
        cmocka_unit_test(test_store_stopped_half_way_is_dropped),
    };
    return FIXTURE_RUN_TESTS("provider: bad input", tests);
}
