/* Hash set: Fibonacci hashing into buckets, each bucket a sorted list. */
#include "hashset.h"

#include <stdint.h>
#include <stdlib.h>

#include "sortedlist.h"

struct hashset {
    unsigned shift;  /* 64 - log2(bucket count) */
    size_t buckets;
    struct sortedlist *bucket;
};

struct hashset *hashset_create(size_t expected_size)
{
    unsigned bits = 0;
    while (bits < 30 && ((size_t)1 << bits) < expected_size)
        bits++;
    struct hashset *set = malloc(sizeof *set);
    if (!set)
        return NULL;
    set->buckets = (size_t)1 << bits;
    set->shift = 64 - bits;
    set->bucket = calloc(set->buckets, sizeof *set->bucket);
    if (!set->bucket) {
        free(set);
        return NULL;
    }
    return set;
}

void hashset_destroy(struct hashset *set)
{
    if (!set)
        return;
    for (size_t i = 0; i < set->buckets; i++)
        sortedlist_clear(&set->bucket[i]);
    free(set->bucket);
    free(set);
}

TM_SAFE static inline size_t bucket_of(const struct hashset *set, long key)
{
    /* shift is 64 for a single bucket, which C leaves undefined: handle it apart. */
    if (set->shift >= 64)
        return 0;
    return (size_t)(((uint64_t)key * 0x9E3779B97F4A7C15ull) >> set->shift);
}

TM_SAFE bool hashset_insert(struct hashset *set, long key)
{
    return sortedlist_insert(&set->bucket[bucket_of(set, key)], key);
}

TM_SAFE bool hashset_remove(struct hashset *set, long key)
{
    return sortedlist_remove(&set->bucket[bucket_of(set, key)], key);
}

TM_SAFE bool hashset_contains(const struct hashset *set, long key)
{
    return sortedlist_contains(&set->bucket[bucket_of(set, key)], key);
}

struct bucket_check {
    const struct hashset *set;
    size_t index;
};

static bool key_in_bucket(long key, const void *ctx)
{
    const struct bucket_check *check = ctx;
    return bucket_of(check->set, key) == check->index;
}

bool hashset_verify(const struct hashset *set, size_t expected_size, FILE *err)
{
    size_t count = 0;
    for (size_t i = 0; i < set->buckets; i++) {
        struct bucket_check check = { set, i };
        if (!sortedlist_check(&set->bucket[i], &count, key_in_bucket, &check, err)) {
            fprintf(err, "hashset: bucket %zu is damaged\n", i);
            return false;
        }
    }
    if (count != expected_size) {
        fprintf(err, "hashset: holds %zu elements, expected %zu\n", count, expected_size);
        return false;
    }
    return true;
}

bool hashset_damage_order(struct hashset *set)
{
    for (size_t i = 0; i < set->buckets; i++)
        if (sortedlist_damage_order(&set->bucket[i]))
            return true;
    return false;
}
