/* Unit tests of the chained hash table (cache_hash). */
#include "unit_support.h"
#include "cache_hash.h"

#include <stdio.h>
#include <string.h>

/* Keys are hashed outside transactions, as the module does. */
static cache_key_t key_of(const char *text)
{
    cache_key_t key;
    cache_key_init(&key, text);
    return key;
}

static void test_put_get_remove(void **state)
{
    (void)state;
    cache_hash_t *table = cache_hash_create(7);
    assert_non_null(table);
    int a = 1, b = 2, oom = 0;
    void *previous, *got, *removed;
    cache_key_t alpha = key_of("alpha"), beta = key_of("beta"), gamma = key_of("gamma");
    IN_TX(previous = cache_hash_put(table, &alpha, &a, &oom));
    assert_null(previous);
    assert_int_equal(oom, 0);
    IN_TX(previous = cache_hash_put(table, &beta, &b, &oom));
    IN_TX(got = cache_hash_get(table, &alpha));
    assert_ptr_equal(got, &a);
    IN_TX(got = cache_hash_get(table, &beta));
    assert_ptr_equal(got, &b);
    IN_TX(got = cache_hash_get(table, &gamma));
    assert_null(got);
    assert_int_equal(cache_hash_count(table), 2);
    IN_TX(removed = cache_hash_remove(table, &alpha));
    assert_ptr_equal(removed, &a);
    IN_TX(got = cache_hash_get(table, &alpha));
    assert_null(got);
    IN_TX(removed = cache_hash_remove(table, &alpha));
    assert_null(removed);
    assert_int_equal(cache_hash_count(table), 1);
    cache_hash_destroy(table);
}

static void test_replace_returns_previous(void **state)
{
    (void)state;
    cache_hash_t *table = cache_hash_create(3);
    int a = 1, b = 2, oom;
    void *previous, *got;
    cache_key_t key = key_of("key");
    IN_TX(cache_hash_put(table, &key, &a, &oom));
    IN_TX(previous = cache_hash_put(table, &key, &b, &oom));
    assert_ptr_equal(previous, &a);
    IN_TX(got = cache_hash_get(table, &key));
    assert_ptr_equal(got, &b);
    assert_int_equal(cache_hash_count(table), 1);
    cache_hash_destroy(table);
}

/* One bucket: everything collides, so chains and prefix keys must be told apart. */
static void test_single_bucket_chains(void **state)
{
    (void)state;
    cache_hash_t *table = cache_hash_create(1);
    const char *texts[] = {"", "a", "ab", "abc", "b", "ba"};
    cache_key_t keys[6];
    int values[6], oom;
    void *got;
    for (int i = 0; i < 6; i++)
        keys[i] = key_of(texts[i]);
    for (int i = 0; i < 6; i++)
        IN_TX(cache_hash_put(table, &keys[i], &values[i], &oom));
    for (int i = 0; i < 6; i++) {
        IN_TX(got = cache_hash_get(table, &keys[i]));
        assert_ptr_equal(got, &values[i]);
    }
    IN_TX(cache_hash_remove(table, &keys[2]));
    IN_TX(got = cache_hash_get(table, &keys[3]));
    assert_ptr_equal(got, &values[3]);
    IN_TX(got = cache_hash_get(table, &keys[1]));
    assert_ptr_equal(got, &values[1]);
    IN_TX(got = cache_hash_get(table, &keys[2]));
    assert_null(got);
    cache_hash_destroy(table);
}

/* One operation per helper, so loop counters never live across a transaction begin
 * (which is setjmp-like and would make -Wclobbered complain). */
__attribute__((noinline)) static void *put(cache_hash_t *table, const char *text, void *value)
{
    int oom;
    cache_key_t key = key_of(text);
    IN_TX(cache_hash_put(table, &key, value, &oom));
    assert_int_equal(oom, 0);
    return value;
}

__attribute__((noinline)) static void remove_key(cache_hash_t *table, const char *text)
{
    cache_key_t key = key_of(text);
    IN_TX(cache_hash_remove(table, &key));
}

__attribute__((noinline)) static void *get(cache_hash_t *table, const char *text)
{
    void *got;
    cache_key_t key = key_of(text);
    IN_TX(got = cache_hash_get(table, &key));
    return got;
}

static void test_many_keys(void **state)
{
    (void)state;
    enum { COUNT = 2000 };
    static char keys[COUNT][40];
    static int values[COUNT];
    cache_hash_t *table = cache_hash_create(1009);
    for (int i = 0; i < COUNT; i++) {
        snprintf(keys[i], sizeof(keys[i]), "http://127.0.0.1/page?%d", i);
        put(table, keys[i], &values[i]);
    }
    assert_int_equal(cache_hash_count(table), COUNT);
    for (int i = 0; i < COUNT; i += 2)
        remove_key(table, keys[i]);
    for (int i = 0; i < COUNT; i++) {
        void *got = get(table, keys[i]);
        if (i % 2)
            assert_ptr_equal(got, &values[i]);
        else
            assert_null(got);
    }
    assert_int_equal(cache_hash_count(table), COUNT / 2);
    cache_hash_destroy(table);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_put_get_remove),
        cmocka_unit_test(test_replace_returns_previous),
        cmocka_unit_test(test_single_bucket_chains),
        cmocka_unit_test(test_many_keys),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
