/* Worker threads of one child sharing a small cache, as under load: lookups, stores (known
 * length and streamed) on a miss, remove_url, invalidation and 304 revalidation, with requests
 * that hold references across each other's evictions. In tm mode the critical sections run as
 * concurrent transactions. Every body served must be the one stored for its URL; at the end
 * the only objects alive are the cached ones, and the hit and miss counts add up.
 * (CMocka's checks are not thread-safe: the threads count, the main thread checks.) */
#include "provider_fixture.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <apr_strings.h>

enum { THREADS = 4, ITERATIONS = 10000, KEYS = 16 };

typedef struct worker {
    fixture_t *fixture;
    unsigned seed;
    long lookups, hits, wrong_bodies, removed, revalidated;
    long stored, not_stored, failed; /* saving a miss: committed, declined, store_body failed */
} worker_t;

static const char *keys[KEYS], *names[KEYS];
static size_t sizes[KEYS];
static const char *bodies[KEYS];

/* Saves body k as mod_cache would, in 1000-byte buckets over two brigades; no CMocka. */
static save_result_t store(worker_t *w, request_rec *r, int k, int streamed)
{
    saving_t *saving = saving_start(r, keys[k], streamed ? -1 : (apr_off_t)sizes[k], NULL);
    size_t half = sizes[k] / 2;
    saving_pass(saving, brigade_of(r, bodies[k], half, 1000, 0));
    save_result_t result = saving_pass(saving, brigade_of(r, bodies[k] + half, sizes[k] - half, 1000, 1));
    apr_size_t length;
    int eos;
    const char *got = brigade_text(r->pool, saving->client, &length, &eos);
    if (length != sizes[k] || memcmp(got, bodies[k], length) || !eos)
        w->wrong_bodies++; /* what the client got */
    return result;
}

/* A hit's body, read from its bucket, must be the stored one. */
static void check_hit(worker_t *w, request_rec *r, cache_handle_t *h, int k)
{
    apr_bucket_brigade *bb = apr_brigade_create(r->pool, r->connection->bucket_alloc);
    provider->recall_headers(h, r);
    provider->recall_body(h, r->pool, bb);
    apr_size_t length;
    int eos;
    const char *got = brigade_text(r->pool, bb, &length, &eos);
    const char *name = apr_table_get(h->resp_hdrs, "X-Name");
    if (length != sizes[k] || memcmp(got, bodies[k], length) || !name || strcmp(name, names[k]))
        w->wrong_bodies++;
}

static void *work(void *opaque)
{
    worker_t *w = opaque;
    request_rec *held = NULL; /* the previous request, still sending its body */
    for (int i = 0; i < ITERATIONS; i++) {
        int k = rand_r(&w->seed) % KEYS;
        int action = rand_r(&w->seed) % 20;
        request_rec *r = new_request(w->fixture);
        apr_table_set(r->headers_out, "X-Name", names[k]);
        if (action == 0) {
            cache_object_t object = {.key = keys[k]};
            cache_handle_t foreign = {.cache_obj = &object};
            provider->remove_url(&foreign, r);
            w->removed++;
        } else {
            cache_handle_t h;
            memset(&h, 0, sizeof(h));
            w->lookups++;
            if (provider->open_entity(&h, r, keys[k]) == OK) {
                w->hits++;
                check_hit(w, r, &h, k);
                if (action == 1) {
                    provider->invalidate_entity(&h, r);
                } else if (h.cache_obj->info.control.invalidated) {
                    cache_info info = h.cache_obj->info;
                    info.control.invalidated = 0;
                    if (provider->store_headers(&h, r, &info) == APR_SUCCESS &&
                        provider->commit_entity(&h, r) == APR_SUCCESS)
                        w->revalidated++;
                }
            } else {
                switch (store(w, r, k, action % 2)) {
                case SAVE_COMMITTED: w->stored++; break;
                case SAVE_DECLINED: w->not_stored++; break;
                default: w->failed++; break;
                }
            }
        }
        if (held)
            fake_request_end(held);
        held = r;
    }
    if (held)
        fake_request_end(held);
    return NULL;
}

static void test_threads_share_one_cache(void **state)
{
    (void)state;
    fixture_t *f = fixture_start("MCacheSize", "64", "MCacheMaxObjectCount", "8",
                                 "MCacheMaxObjectSize", "20000", "MCacheMaxStreamingBuffer", "20000", NULL);
    for (int k = 0; k < KEYS; k++) {
        names[k] = apr_psprintf(f->config_pool, "k%d", k);
        keys[k] = key_for(f, apr_psprintf(f->config_pool, "/page?%d", k));
        sizes[k] = 500 + 1000 * (size_t)k;
        bodies[k] = body_for(f->config_pool, names[k], sizes[k]);
    }
    worker_t workers[THREADS];
    pthread_t threads[THREADS];
    for (int t = 0; t < THREADS; t++) {
        memset(&workers[t], 0, sizeof(workers[t]));
        workers[t].fixture = f;
        workers[t].seed = 12345u + (unsigned)t;
        assert_int_equal(pthread_create(&threads[t], NULL, work, &workers[t]), 0);
    }
    worker_t total = {0};
    for (int t = 0; t < THREADS; t++) {
        assert_int_equal(pthread_join(threads[t], NULL), 0);
        total.lookups += workers[t].lookups;
        total.hits += workers[t].hits;
        total.wrong_bodies += workers[t].wrong_bodies;
        total.stored += workers[t].stored;
        total.not_stored += workers[t].not_stored;
        total.failed += workers[t].failed;
        total.removed += workers[t].removed;
        total.revalidated += workers[t].revalidated;
    }
    mem_instance_snapshot_t s = snapshot(f);
    print_message("%ld lookups, %ld hits, %ld stored, %ld declined (URL being stored), %ld removals, "
                  "%ld revalidations, %llu evictions, %zu cached\n", total.lookups, total.hits,
                  total.stored, total.not_stored, total.removed, total.revalidated, s.evictions,
                  s.entries);
    assert_int_equal(total.wrong_bodies, 0);
    assert_int_equal(total.failed, 0);
    assert_true(total.hits > 0 && total.stored > 0 && s.evictions > 0);
    assert_int_equal(s.counts[MEM_COUNT_HITS], total.hits);
    assert_int_equal(s.counts[MEM_COUNT_MISSES], total.lookups - total.hits);
    /* every attempt counts once: stored, or not (declined, or its URL changed hands while it
     * was filled: commit_entity then finds the key taken) */
    assert_true(s.counts[MEM_COUNT_STORED] <= (apr_uint64_t)total.stored);
    assert_int_equal(s.counts[MEM_COUNT_STORED] + s.counts[MEM_COUNT_NOT_STORED],
                     total.stored + total.not_stored);
    assert_int_equal(census_alive(), (long)s.entries); /* every request ended */
    assert_true(s.bytes <= 64 * 1024);
    fixture_stop(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_threads_share_one_cache),
    };
    return FIXTURE_RUN_TESTS("provider: threads", tests);
}
