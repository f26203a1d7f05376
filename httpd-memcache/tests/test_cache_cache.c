/* Unit tests of the cache (hash + queue + policies): which entry is evicted under LRU and
 * GDSF, and the limits by entry count and by bytes. */
#include "unit_support.h"
#include "cache_cache.h"

#include <stdio.h>
#include <string.h>

/* The meta is not the first member: the cache finds it by its offset. */
typedef struct entry {
    char text[16];
    cache_entry_meta_t meta;
    cache_key_t key;
    size_t size;
    int released;
} entry_t;

LIBTM_SAFE static const cache_key_t *entry_key(void *e) { return &((entry_t *)e)->key; }
LIBTM_SAFE static size_t entry_size(void *e) { return ((entry_t *)e)->size; }
LIBTM_SAFE static void entry_release(void *e) { ((entry_t *)e)->released++; }

static const cache_entry_ops_t ops = {offsetof(entry_t, meta), entry_key, entry_size, entry_release};

static void make_entry(entry_t *e, const char *key, size_t size)
{
    memset(e, 0, sizeof(*e));
    snprintf(e->text, sizeof(e->text), "%s", key);
    cache_key_init(&e->key, e->text);
    e->size = size;
}

static cache_insert_result_t insert(cache_cache_t *cache, entry_t *e)
{
    cache_insert_result_t result;
    IN_TX(result = cache_cache_insert(cache, e));
    return result;
}

static int present(cache_cache_t *cache, const char *text)
{
    void *found;
    cache_key_t key;
    cache_key_init(&key, text);
    IN_TX(found = cache_cache_find(cache, &key));
    return found != NULL;
}

static void hit(cache_cache_t *cache, entry_t *e)
{
    IN_TX(cache_cache_update(cache, e));
}

static void test_lru_count_limit(void **state)
{
    (void)state;
    entry_t a, b, c, d;
    make_entry(&a, "a", 10);
    make_entry(&b, "b", 10);
    make_entry(&c, "c", 10);
    make_entry(&d, "d", 10);
    cache_cache_t *cache = cache_cache_create(3, 1000, CACHE_POLICY_LRU, &ops);
    assert_int_equal(insert(cache, &a), CACHE_INSERT_OK);
    assert_int_equal(insert(cache, &b), CACHE_INSERT_OK);
    assert_int_equal(insert(cache, &c), CACHE_INSERT_OK);
    hit(cache, &a); /* a is now the most recently used: b is the LRU entry */
    assert_int_equal(insert(cache, &d), CACHE_INSERT_OK);
    assert_false(present(cache, "b"));
    assert_int_equal(b.released, 1);
    assert_true(present(cache, "a") && present(cache, "c") && present(cache, "d"));
    assert_int_equal(cache_cache_count(cache), 3);
    assert_int_equal(cache_cache_bytes(cache), 30);
    assert_int_equal(cache_cache_evictions(cache), 1);
    cache_cache_destroy(cache);
    assert_int_equal(a.released + c.released + d.released, 3);
}

static void test_lru_byte_limit(void **state)
{
    (void)state;
    entry_t a, b, c;
    make_entry(&a, "a", 400);
    make_entry(&b, "b", 400);
    make_entry(&c, "c", 500);
    cache_cache_t *cache = cache_cache_create(100, 1000, CACHE_POLICY_LRU, &ops);
    insert(cache, &a);
    insert(cache, &b);
    hit(cache, &a);
    /* 400 + 400 + 500 > 1000: one eviction (b, least recent) makes room. */
    assert_int_equal(insert(cache, &c), CACHE_INSERT_OK);
    assert_false(present(cache, "b"));
    assert_true(present(cache, "a"));
    assert_int_equal(cache_cache_bytes(cache), 900);
    cache_cache_destroy(cache);
}

static void test_too_big_evicts_nothing(void **state)
{
    (void)state;
    entry_t a, huge;
    make_entry(&a, "a", 100);
    make_entry(&huge, "huge", 2000);
    cache_cache_t *cache = cache_cache_create(10, 1000, CACHE_POLICY_GDSF, &ops);
    insert(cache, &a);
    assert_int_equal(insert(cache, &huge), CACHE_INSERT_TOO_BIG);
    assert_true(present(cache, "a"));
    assert_false(present(cache, "huge"));
    assert_int_equal(a.released, 0);
    cache_cache_destroy(cache);
}

/* GDSF keeps small popular objects: the big one goes first even though it was used more
 * recently, while LRU evicts the least recently used small one. */
static void test_gdsf_and_lru_pick_different_victims(void **state)
{
    (void)state;
    for (int policy = 0; policy < 2; policy++) {
        entry_t big, small, next;
        make_entry(&big, "big", 6000);
        make_entry(&small, "small", 500);
        make_entry(&next, "next", 500);
        cache_cache_t *cache = cache_cache_create(2, 100000, policy == 0 ? CACHE_POLICY_LRU
                                                                         : CACHE_POLICY_GDSF, &ops);
        insert(cache, &big);
        insert(cache, &small);
        hit(cache, &big);
        insert(cache, &next);
        if (policy == 0) {
            assert_true(present(cache, "big"));
            assert_false(present(cache, "small"));
        } else {
            assert_false(present(cache, "big"));
            assert_true(present(cache, "small"));
        }
        assert_true(present(cache, "next"));
        cache_cache_destroy(cache);
    }
}

/* GDSF: among equal sizes the less frequently hit entry goes; aging lets newcomers in. */
static void test_gdsf_frequency_and_aging(void **state)
{
    (void)state;
    entry_t a, b, c, d;
    make_entry(&a, "a", 1000);
    make_entry(&b, "b", 1000);
    make_entry(&c, "c", 1000);
    make_entry(&d, "d", 1000);
    cache_cache_t *cache = cache_cache_create(2, 100000, CACHE_POLICY_GDSF, &ops);
    insert(cache, &a);
    insert(cache, &b);
    hit(cache, &a);
    hit(cache, &a);
    insert(cache, &c); /* b (1 use) goes, a (3 uses) stays */
    assert_false(present(cache, "b"));
    assert_true(present(cache, "a"));
    /* The clock dropped to b's priority, so c and later d compete with a fairly:
     * after d arrives c (1 use, older clock) is the victim, not a. */
    insert(cache, &d);
    assert_true(present(cache, "a"));
    assert_true(present(cache, "d"));
    assert_false(present(cache, "c"));
    cache_cache_destroy(cache);
}

static void test_remove_only_the_indexed_entry(void **state)
{
    (void)state;
    entry_t a, impostor;
    make_entry(&a, "a", 10);
    make_entry(&impostor, "a", 10);
    cache_cache_t *cache = cache_cache_create(4, 100, CACHE_POLICY_LRU, &ops);
    insert(cache, &a);
    int removed;
    IN_TX(removed = cache_cache_remove(cache, &impostor));
    assert_int_equal(removed, 0);
    assert_true(present(cache, "a"));
    IN_TX(removed = cache_cache_remove(cache, &a));
    assert_int_equal(removed, 1);
    assert_false(present(cache, "a"));
    assert_int_equal(cache_cache_count(cache), 0);
    assert_int_equal(cache_cache_bytes(cache), 0);
    assert_int_equal(a.released, 0); /* the caller owns the reference after remove */
    cache_cache_destroy(cache);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lru_count_limit),
        cmocka_unit_test(test_lru_byte_limit),
        cmocka_unit_test(test_too_big_evicts_nothing),
        cmocka_unit_test(test_gdsf_and_lru_pick_different_victims),
        cmocka_unit_test(test_gdsf_frequency_and_aging),
        cmocka_unit_test(test_remove_only_the_indexed_entry),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
