/* Unit tests of the cache (hash + queue + policies): which entry is evicted under LRU and
 * GDSF, the limits by entry count and by bytes, and (the -fgnu-tm build) LRU's use counter in
 * open transactions. */
#define _GNU_SOURCE /* RTLD_DEFAULT */
#include "unit_support.h"
#include "cache_cache.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
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

#if defined(UNIT_USE_TM) && defined(LIBTM_HAVE_OPEN)
/* LRU's use counter in open transactions (cache_cache_open_use_counter), as the module runs
 * it in tm mode on libtm. On a runtime without libtm_open (GCC's libitm) open is NULL and the
 * same tests check the flat fallback. */
static libtm_open_t runtime_open(void)
{
    libtm_open_t open = (libtm_open_t)dlsym(RTLD_DEFAULT, "libtm_open");
    if (dlsym(RTLD_DEFAULT, "libtm_totals_read"))
        assert_non_null(open); /* libtm 1.2 has it */
    return open;
}

static unsigned long long open_commits_so_far(void)
{
    typedef void (*totals_read_fn)(struct libtm_totals *, size_t);
    totals_read_fn read_totals = (totals_read_fn)dlsym(RTLD_DEFAULT, "libtm_totals_read");
    struct libtm_totals totals = {0};
    if (read_totals)
        read_totals(&totals, sizeof(totals));
    return totals.open_commits;
}

/* A hit that rolls back leaves its entry's recency as it was, though its tick stays drawn. */
static void test_lru_open_counter_cancelled_hit(void **state)
{
    (void)state;
    libtm_open_t open = runtime_open();
    entry_t a, b, c, d;
    make_entry(&a, "a", 10);
    make_entry(&b, "b", 10);
    make_entry(&c, "c", 10);
    make_entry(&d, "d", 10);
    cache_cache_t *cache = cache_cache_create(3, 1000, CACHE_POLICY_LRU, &ops);
    cache_cache_open_use_counter(cache, open);
    insert(cache, &a); /* ticks 1, 2, 3 */
    insert(cache, &b);
    insert(cache, &c);
    __transaction_atomic {
        cache_cache_update(cache, &a); /* draws tick 4 */
        __transaction_cancel;
    }
    assert_int_equal(a.meta.node.priority, -1); /* rolled back: a is still the oldest */
    assert_int_equal(a.meta.frequency, 1);
    hit(cache, &b);
    /* Open: tick 4 stayed drawn (a gap), b got 5. Flat: the cancel gave 4 back. */
    assert_int_equal(b.meta.node.priority, open ? -5 : -4);
    insert(cache, &d);
    assert_int_equal(a.released, 1); /* a, whose only hit rolled back, went first */
    assert_true(present(cache, "b") && present(cache, "c") && present(cache, "d"));
    insert(cache, &a); /* no room: c (tick 3) goes */
    assert_int_equal(c.released, 1);
    assert_true(present(cache, "b") && present(cache, "d") && present(cache, "a"));
    cache_cache_destroy(cache);
}

#define HAMMER_THREADS 4
#define HAMMER_ENTRIES 8
#define HAMMER_HITS 20000

typedef struct hammer {
    cache_cache_t *cache;
    entry_t *entries;
    unsigned seed;
    unsigned long committed[HAMMER_ENTRIES];
    unsigned long cancelled;
} hammer_t;

/* Hits on random entries, one in four cancelled after the update. */
static void *hammer_thread(void *opaque)
{
    hammer_t *h = opaque;
    for (int i = 0; i < HAMMER_HITS; i++) {
        int which = (int)(rand_r(&h->seed) % HAMMER_ENTRIES);
        int cancel = rand_r(&h->seed) % 4 == 0;
        __transaction_atomic {
            cache_cache_update(h->cache, &h->entries[which]);
            if (cancel)
                __transaction_cancel;
        }
        if (cancel)
            h->cancelled++;
        else
            h->committed[which]++;
    }
    return NULL;
}

/* The heap is intact and recencies are unique: the entries leave oldest first. */
/* Not inlined: a transaction begins like setjmp, and the caller keeps pointers across it. */
__attribute__((noinline)) static entry_t *pop(cache_cache_t *cache)
{
    entry_t *victim;
    IN_TX(victim = cache_cache_pop(cache));
    return victim;
}

static void assert_pops_oldest_first(cache_cache_t *cache, int entries)
{
    entry_t *previous = NULL;
    for (int i = 0; i < entries; i++) {
        entry_t *victim = pop(cache);
        assert_non_null(victim);
        if (previous)
            assert_true(victim->meta.node.priority < previous->meta.node.priority);
        previous = victim;
    }
    assert_int_equal(cache_cache_count(cache), 0);
}

/* Concurrent hits with conflicts and cancels: the parent's own data (frequencies, the heap)
 * holds exactly the committed hits, every recency stays unique, and every hit drew its tick
 * in an open transaction that stayed committed (gaps for the cancelled ones). */
static void test_lru_open_counter_concurrent(void **state)
{
    (void)state;
    libtm_open_t open = runtime_open();
    entry_t entries[HAMMER_ENTRIES];
    char name[8];
    cache_cache_t *cache = cache_cache_create(HAMMER_ENTRIES, 1000, CACHE_POLICY_LRU, &ops);
    cache_cache_open_use_counter(cache, open);
    for (int i = 0; i < HAMMER_ENTRIES; i++) {
        snprintf(name, sizeof(name), "e%d", i);
        make_entry(&entries[i], name, 10);
        assert_int_equal(insert(cache, &entries[i]), CACHE_INSERT_OK);
    }
    unsigned long long open_before = open_commits_so_far();
    hammer_t hammers[HAMMER_THREADS];
    pthread_t threads[HAMMER_THREADS];
    for (int t = 0; t < HAMMER_THREADS; t++) {
        hammers[t] = (hammer_t){.cache = cache, .entries = entries, .seed = 7919u * (unsigned)(t + 1)};
        assert_int_equal(pthread_create(&threads[t], NULL, hammer_thread, &hammers[t]), 0);
    }
    unsigned long committed = 0, cancelled = 0;
    for (int t = 0; t < HAMMER_THREADS; t++) {
        assert_int_equal(pthread_join(threads[t], NULL), 0);
        cancelled += hammers[t].cancelled;
        for (int i = 0; i < HAMMER_ENTRIES; i++)
            committed += hammers[t].committed[i];
    }
    assert_int_equal(committed + cancelled, (unsigned long)HAMMER_THREADS * HAMMER_HITS);
    assert_true(cancelled > 0);
    for (int i = 0; i < HAMMER_ENTRIES; i++) {
        unsigned long hits = 0;
        for (int t = 0; t < HAMMER_THREADS; t++)
            hits += hammers[t].committed[i];
        assert_int_equal(entries[i].meta.frequency, 1 + hits);
    }
    /* One more hit shows how many ticks were drawn: 8 inserts, then at least one per hit
     * with open nesting (retries after conflicts draw again); exactly the committed hits
     * when the counter rolls back with its transaction. */
    hit(cache, &entries[0]);
    unsigned long long drawn = (unsigned long long)-entries[0].meta.node.priority - 1 - HAMMER_ENTRIES;
    if (open) {
        assert_true(drawn >= committed + cancelled);
        assert_true(open_commits_so_far() - open_before >= committed + cancelled);
    } else {
        assert_int_equal(drawn, committed);
    }
    assert_pops_oldest_first(cache, HAMMER_ENTRIES);
    cache_cache_destroy(cache);
}
#endif

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lru_count_limit),
        cmocka_unit_test(test_lru_byte_limit),
        cmocka_unit_test(test_too_big_evicts_nothing),
        cmocka_unit_test(test_gdsf_and_lru_pick_different_victims),
        cmocka_unit_test(test_gdsf_frequency_and_aging),
        cmocka_unit_test(test_remove_only_the_indexed_entry),
#if defined(UNIT_USE_TM) && defined(LIBTM_HAVE_OPEN)
        cmocka_unit_test(test_lru_open_counter_cancelled_hit),
        cmocka_unit_test(test_lru_open_counter_concurrent),
#endif
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
