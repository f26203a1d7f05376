/* Responses that vary: each variant is stored under a key of its own beside the URL's vary
 * list (mod_cache_disk's scheme), within the cache's limits; a lookup finds the list, then the
 * variant its request selects. A missing list or variant is a miss, never another variant's
 * body: lists that change, lists and variants evicted or removed, Vary: *. */
#include "provider_fixture.h"

#include <string.h>

#include <apr_strings.h>

/* A request whose Accept-Language is language (NULL: none). */
static request_rec *request_in(fixture_t *f, const char *language)
{
    request_rec *r = new_request(f);
    if (language)
        apr_table_set(r->headers_in, "Accept-Language", language);
    return r;
}

/* Stores the response to a request in language: body_for(name, length), with a Vary header
 * (NULL: none), in two brigades, streamed or of known length. */
static save_result_t store_in(fixture_t *f, const char *key, const char *language, const char *vary,
                              const char *name, size_t length, int streamed)
{
    request_rec *r = request_in(f, language);
    const char *body = body_for(r->pool, name, length);
    saving_t *saving = saving_start(r, key, streamed ? -1 : (apr_off_t)length, "Content-Type",
                                    "text/plain", vary ? "Vary" : NULL, vary, NULL);
    save_result_t result = saving_pass(saving, brigade_of(r, body, length / 2, 1000, 0));
    save_result_t last = saving_pass(saving, brigade_of(r, body + length / 2, length - length / 2, 1000, 1));
    if (result == SAVE_PARTIAL)
        result = last;
    assert_true(brigade_holds(r->pool, saving->client, body, length, 1));
    fake_request_end(r);
    return result;
}

/* Whether a request in language hits with exactly body_for(name, length); *key_out gets the
 * handle's key (in f's pool) when it hits. */
static int hits_in(fixture_t *f, const char *key, const char *language, const char *name, size_t length,
                   const char **key_out)
{
    request_rec *r = request_in(f, language);
    cache_handle_t h;
    char *body;
    apr_size_t got;
    int hit = lookup(r, key, &h, &body, &got) == OK;
    if (hit) {
        hit = got == length && !memcmp(body, body_for(r->pool, name, length), length);
        if (key_out)
            *key_out = apr_pstrdup(f->config_pool, h.cache_obj->key);
    }
    fake_request_end(r);
    return hit;
}

static const char *variant_key(fixture_t *f, const char *key, const char *variant)
{
    return apr_pstrcat(f->config_pool, key, " {Vary ", variant, "}", NULL);
}

/* The case: en, fr, en, fr reach the origin twice, as with mod_cache_disk. */
static void test_every_variant_is_stored_and_served(void **state)
{
    (void)state;
    fixture_t *f = fixture_start(NULL);
    const char *key = key_for(f, "/page");
    assert_int_equal(store_in(f, key, "en", "Accept-Language", "english", 3000, 0), SAVE_COMMITTED);
    assert_false(hits_in(f, key, "fr", "english", 3000, NULL));
    assert_int_equal(store_in(f, key, "fr", "accept-language", "french", 2000, 1), SAVE_COMMITTED);
    const char *en_key, *fr_key;
    assert_true(hits_in(f, key, "en", "english", 3000, &en_key));
    assert_true(hits_in(f, key, "fr", "french", 2000, &fr_key));
    /* A variant's handle carries its own key; a request without the header is a variant too. */
    assert_string_equal(en_key, variant_key(f, key, "accept-language=2:en"));
    assert_string_equal(fr_key, variant_key(f, key, "accept-language=2:fr"));
    assert_false(hits_in(f, key, NULL, "english", 3000, NULL));
    assert_false(hits_in(f, key, "en-GB", "english", 3000, NULL));
    assert_int_equal(fake_log_count("another request is storing it"), 0);
    assert_int_equal(fake_log_count("stored http://harness.test:80/page {Vary accept-language=2:fr} (2000 bytes)"), 1);

    /* One list and two variants, each charged (the list its names' bytes). */
    mem_instance_snapshot_t s = snapshot(f);
    assert_int_equal(s.entries, 3);
    assert_int_equal(s.bytes, 3000 + 2000 + strlen("accept-language"));
    assert_int_equal(s.counts[MEM_COUNT_STORED], 2);
    assert_int_equal(s.counts[MEM_COUNT_HITS], 2);
    assert_int_equal(s.counts[MEM_COUNT_MISSES], 3);
    fixture_stop(f);
}

/* Vary: A, b and Vary: B + Vary: a are one list; values are compared as mod_cache compares
 * them (several headers joined), and the key stays unambiguous whatever the values hold. */
static void test_lists_are_normalised_and_keys_unambiguous(void **state)
{
    (void)state;
    fixture_t *f = fixture_start(NULL);
    const char *key = key_for(f, "/multi");
    request_rec *r = request_in(f, "en");
    apr_table_add(r->headers_in, "Accept-Language", "de");
    apr_table_set(r->headers_in, "X-Test", "1 x-test=1:2");
    const char *body = body_for(r->pool, "multi", 1000);
    saving_t *saving = saving_start(r, key, 1000, "Vary", "X-Test,  accept-language", NULL);
    apr_table_add(r->err_headers_out, "Vary", "Accept-Language");
    assert_int_equal(saving_pass(saving, brigade_of(r, body, 1000, 1000, 1)), SAVE_COMMITTED);
    fake_request_end(r);

    r = request_in(f, "en");
    apr_table_add(r->headers_in, "Accept-Language", "de");
    apr_table_set(r->headers_in, "X-Test", "1 x-test=1:2");
    cache_handle_t h;
    char *got;
    apr_size_t length;
    assert_int_equal(lookup(r, key, &h, &got, &length), OK);
    assert_string_equal(h.cache_obj->key,
                        variant_key(f, key, "accept-language=5:en,de x-test=12:1 x-test=1:2"));
    fake_request_end(r);
    assert_false(hits_in(f, key, "en", "multi", 1000, NULL)); /* one value of the two */
    fixture_stop(f);
}

/* Vary: * matches no later request: never stored, wherever the header is. */
static void test_vary_star_is_never_cached(void **state)
{
    (void)state;
    fixture_t *f = fixture_start(NULL);
    const char *key = key_for(f, "/star");
    assert_int_equal(store_in(f, key, "en", "Accept-Language, *", "star", 500, 0), SAVE_DECLINED);
    request_rec *r = request_in(f, "en");
    saving_t *saving = saving_start(r, key, 500, NULL);
    apr_table_set(r->err_headers_out, "Vary", "*");
    assert_int_equal(saving_pass(saving, brigade_of(r, body_for(r->pool, "star", 500), 500, 1000, 1)),
                     SAVE_DECLINED);
    fake_request_end(r);
    assert_false(hits_in(f, key, "en", "star", 500, NULL));
    assert_int_equal(fake_log_count("not caching http://harness.test:80/star: Vary: *"), 2);
    mem_instance_snapshot_t s = snapshot(f);
    assert_int_equal(s.entries, 0);
    assert_int_equal(s.counts[MEM_COUNT_NOT_STORED], 2);
    assert_int_equal(census_alive(), 0);
    fixture_stop(f);
}

/* The origin starts varying on another header: the new list replaces the old one, whose
 * variants are never served again (and are replaced when their keys come back); then it stops
 * varying: the plain response replaces the list. */
static void test_a_list_that_changes(void **state)
{
    (void)state;
    fixture_t *f = fixture_start(NULL);
    const char *key = key_for(f, "/changing");
    assert_int_equal(store_in(f, key, "en", "Accept-Language", "v1-en", 1000, 0), SAVE_COMMITTED);
    assert_true(hits_in(f, key, "en", "v1-en", 1000, NULL));

    assert_int_equal(store_in(f, key, "en", "Accept-Language, Accept-Encoding", "v2-en", 1100, 1),
                     SAVE_COMMITTED);
    assert_true(hits_in(f, key, "en", "v2-en", 1100, NULL));
    assert_int_equal(store_in(f, key, "fr", "Accept-Language, Accept-Encoding", "v2-fr", 1200, 0),
                     SAVE_COMMITTED);
    assert_true(hits_in(f, key, "fr", "v2-fr", 1200, NULL));
    assert_true(hits_in(f, key, "en", "v2-en", 1100, NULL));

    /* Back to the first list: the old variant is not served; storing its key replaces it. */
    assert_int_equal(store_in(f, key, "en", "Accept-Language", "v3-en", 1300, 0), SAVE_COMMITTED);
    assert_true(hits_in(f, key, "en", "v3-en", 1300, NULL));
    assert_false(hits_in(f, key, "fr", "v2-fr", 1200, NULL));
    assert_int_equal(fake_log_count("not caching"), 0);

    /* The origin stops varying. */
    assert_int_equal(store_in(f, key, "en", NULL, "plain", 1400, 0), SAVE_COMMITTED);
    assert_true(hits_in(f, key, "fr", "plain", 1400, NULL));
    assert_true(hits_in(f, key, NULL, "plain", 1400, NULL));
    fixture_stop(f);
}

/* Variants are entries like any other: with room for the list and two variants, a third
 * variant evicts the least recently used one (the list, used by each of its variants, stays). */
static void test_eviction_of_one_variant(void **state)
{
    (void)state;
    fixture_t *f = fixture_start("MCacheMaxObjectCount", "3", "MCacheRemovalAlgorithm", "LRU", NULL);
    const char *key = key_for(f, "/evict");
    assert_int_equal(store_in(f, key, "en", "Accept-Language", "en", 1000, 0), SAVE_COMMITTED);
    assert_int_equal(store_in(f, key, "fr", "Accept-Language", "fr", 1000, 0), SAVE_COMMITTED);
    assert_true(hits_in(f, key, "en", "en", 1000, NULL));
    assert_int_equal(store_in(f, key, "de", "Accept-Language", "de", 1000, 1), SAVE_COMMITTED);
    assert_false(hits_in(f, key, "fr", "fr", 1000, NULL));
    assert_true(hits_in(f, key, "en", "en", 1000, NULL));
    assert_true(hits_in(f, key, "de", "de", 1000, NULL));
    mem_instance_snapshot_t s = snapshot(f);
    assert_int_equal(s.entries, 3);
    assert_int_equal(s.evictions, 1);
    assert_int_equal(census_alive(), 3);
    fixture_stop(f);
}

/* With room for one entry a variant cannot be stored beside its list: refused, nothing left. */
static void test_a_variant_without_room_for_its_list_is_refused(void **state)
{
    (void)state;
    fixture_t *f = fixture_start("MCacheMaxObjectCount", "1", NULL);
    const char *key = key_for(f, "/tight");
    assert_int_equal(store_in(f, key, "en", "Accept-Language", "tight", 800, 0), SAVE_DECLINED);
    assert_int_equal(fake_log_count("not caching http://harness.test:80/tight {Vary accept-language=2:en}: "
                                    "does not fit in the cache"), 1);
    assert_false(hits_in(f, key, "en", "tight", 800, NULL));
    assert_int_equal(census_alive(), 0);
    fixture_stop(f);
}

/* remove_url by the URL's key removes the list: no variant is served any more, and storing
 * again starts a new list. remove_url by a variant's key removes that variant only. */
static void test_removed_list_or_variant_misses(void **state)
{
    (void)state;
    fixture_t *f = fixture_start(NULL);
    const char *key = key_for(f, "/removed");
    assert_int_equal(store_in(f, key, "en", "Accept-Language", "en", 1000, 0), SAVE_COMMITTED);
    assert_int_equal(store_in(f, key, "fr", "Accept-Language", "fr", 1000, 0), SAVE_COMMITTED);
    const char *fr_key;
    assert_true(hits_in(f, key, "fr", "fr", 1000, &fr_key));

    request_rec *r = request_in(f, "fr");
    cache_object_t object = {.key = fr_key};
    cache_handle_t h = {.cache_obj = &object};
    assert_int_equal(provider->remove_url(&h, r), OK);
    object.key = key;
    fake_request_end(r);
    assert_false(hits_in(f, key, "fr", "fr", 1000, NULL));
    assert_true(hits_in(f, key, "en", "en", 1000, NULL));

    r = request_in(f, "en");
    assert_int_equal(provider->remove_url(&h, r), OK);
    fake_request_end(r);
    assert_false(hits_in(f, key, "en", "en", 1000, NULL));
    assert_int_equal(snapshot(f).entries, 1); /* the variant left behind, unreachable */
    assert_int_equal(store_in(f, key, "en", "Accept-Language", "en2", 900, 0), SAVE_COMMITTED);
    assert_true(hits_in(f, key, "en", "en2", 900, NULL));
    assert_int_equal(snapshot(f).entries, 2);
    fixture_stop(f);
}

/* One request stores a variant at a time; another variant of the URL is stored meanwhile. A
 * variant that completes after its list was replaced is not kept. */
static void test_concurrent_variants(void **state)
{
    (void)state;
    fixture_t *f = fixture_start(NULL);
    const char *key = key_for(f, "/concurrent");
    request_rec *writer = request_in(f, "en");
    const char *body = body_for(writer->pool, "slow-en", 4000);
    saving_t *slow = saving_start(writer, key, -1, "Vary", "Accept-Language", NULL);
    assert_int_equal(saving_pass(slow, brigade_of(writer, body, 2000, 1000, 0)), SAVE_PARTIAL);

    assert_false(hits_in(f, key, "en", "slow-en", 4000, NULL));
    assert_int_equal(store_in(f, key, "en", "Accept-Language", "other-en", 4000, 0), SAVE_DECLINED);
    assert_int_equal(fake_log_count("{Vary accept-language=2:en}: another request is storing it"), 1);
    assert_int_equal(store_in(f, key, "fr", "Accept-Language", "fr", 3000, 0), SAVE_COMMITTED);
    assert_true(hits_in(f, key, "fr", "fr", 3000, NULL));

    /* The origin changes its list while the slow variant is filled. */
    assert_int_equal(store_in(f, key, "de", "Accept-Language, Cookie", "de", 2500, 0), SAVE_COMMITTED);
    assert_int_equal(saving_pass(slow, brigade_of(writer, body + 2000, 2000, 1000, 1)), SAVE_COMMITTED);
    fake_request_end(writer);
    assert_false(hits_in(f, key, "en", "slow-en", 4000, NULL));
    assert_false(hits_in(f, key, "fr", "fr", 3000, NULL));
    assert_true(hits_in(f, key, "de", "de", 2500, NULL));
    assert_int_equal(snapshot(f).counts[MEM_COUNT_STORED], 2);
    fixture_stop(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_variant_is_stored_and_served),
        cmocka_unit_test(test_lists_are_normalised_and_keys_unambiguous),
        cmocka_unit_test(test_vary_star_is_never_cached),
        cmocka_unit_test(test_a_list_that_changes),
        cmocka_unit_test(test_eviction_of_one_variant),
        cmocka_unit_test(test_a_variant_without_room_for_its_list_is_refused),
        cmocka_unit_test(test_removed_list_or_variant_misses),
        cmocka_unit_test(test_concurrent_variants),
    };
    return FIXTURE_RUN_TESTS("provider: variants", tests);
}
