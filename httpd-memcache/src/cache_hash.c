/* Chained hash table; see cache_hash.h. Nodes are malloc'ed and freed inside the critical
 * section: both are transactional under -fgnu-tm (the runtime undoes them on abort). */
#include "cache_hash.h"

#include <stdlib.h>
#include <string.h>

typedef struct cache_hash_node {
    struct cache_hash_node *next;
    cache_key_t key;
    void *value;
} cache_hash_node_t;

struct cache_hash {
    cache_hash_node_t **buckets;
    size_t bucket_count;
    size_t count;
};

cache_hash_t *cache_hash_create(size_t bucket_count)
{
    if (bucket_count == 0)
        bucket_count = 1;
    cache_hash_t *table = calloc(1, sizeof(*table));
    if (!table)
        return NULL;
    table->buckets = calloc(bucket_count, sizeof(*table->buckets));
    if (!table->buckets) {
        free(table);
        return NULL;
    }
    table->bucket_count = bucket_count;
    return table;
}

void cache_hash_destroy(cache_hash_t *table)
{
    if (!table)
        return;
    for (size_t i = 0; i < table->bucket_count; i++) {
        cache_hash_node_t *node = table->buckets[i];
        while (node) {
            cache_hash_node_t *next = node->next;
            free(node);
            node = next;
        }
    }
    free(table->buckets);
    free(table);
}

/* The classic "times 33" string hash of 2.2's cache_hash. */
void cache_key_init(cache_key_t *key, const char *text)
{
    unsigned long hash = 0;
    const char *p = text;
    while (*p) {
        hash = hash * 33 + (unsigned char)*p;
        p++;
    }
    key->text = text;
    key->length = (size_t)(p - text);
    key->hash = hash;
}

/* Whether two keys of equal length have the same bytes. Uninstrumented (GCC rejects memcmp
 * in transactions, and an instrumented loop costs a read barrier per byte): both strings
 * are immutable while reachable. The caller's key is private; a stored key is written
 * before its node is published and freed only after its entry left the table and every
 * transaction that could still see it has ended (commit actions run after quiescence). */
LIBTM_PURE static int same_bytes(const char *a, const char *b, size_t length)
{
    return memcmp(a, b, length) == 0;
}

LIBTM_SAFE int cache_key_equal(const cache_key_t *a, const cache_key_t *b)
{
    return a->hash == b->hash && a->length == b->length && same_bytes(a->text, b->text, a->length);
}

/* Address of the link that points at key's node (or at NULL where it would be appended). */
LIBTM_SAFE static cache_hash_node_t **find_link(const cache_hash_t *table, const cache_key_t *key)
{
    cache_hash_node_t **link = &table->buckets[key->hash % table->bucket_count];
    while (*link && !cache_key_equal(&(*link)->key, key))
        link = &(*link)->next;
    return link;
}

LIBTM_SAFE void *cache_hash_get(const cache_hash_t *table, const cache_key_t *key)
{
    cache_hash_node_t **link = find_link(table, key);
    return *link ? (*link)->value : NULL;
}

LIBTM_SAFE void *cache_hash_put(cache_hash_t *table, const cache_key_t *key, void *value, int *out_of_memory)
{
    cache_hash_node_t **link = find_link(table, key);
    *out_of_memory = 0;
    if (*link) {
        void *previous = (*link)->value;
        (*link)->value = value;
        (*link)->key = *key;
        return previous;
    }
    cache_hash_node_t *node = malloc(sizeof(*node));
    if (!node) {
        *out_of_memory = 1;
        return NULL;
    }
    node->next = NULL;
    node->key = *key;
    node->value = value;
    *link = node;
    table->count++;
    return NULL;
}

LIBTM_SAFE void *cache_hash_remove(cache_hash_t *table, const cache_key_t *key)
{
    cache_hash_node_t **link = find_link(table, key);
    cache_hash_node_t *node = *link;
    if (!node)
        return NULL;
    void *value = node->value;
    *link = node->next;
    free(node);
    table->count--;
    return value;
}

LIBTM_SAFE size_t cache_hash_count(const cache_hash_t *table)
{
    return table->count;
}
