/* Chained hash table; see cache_hash.h. Nodes are malloc'ed and freed inside the critical
 * section: both are transactional under -fgnu-tm (the runtime undoes them on abort). */
#include "cache_hash.h"

#include <stdlib.h>

typedef struct cache_hash_node {
    struct cache_hash_node *next;
    unsigned long hash;
    size_t key_length;
    const char *key;
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

/* Address of the link that points at key's node (or at NULL where it would be appended). */
TM_SAFE static cache_hash_node_t **find_link(const cache_hash_t *table, const char *key,
                                             unsigned long *hash_out, size_t *length_out)
{
    size_t length;
    unsigned long hash = tm_str_hash(key, &length);
    cache_hash_node_t **link = &table->buckets[hash % table->bucket_count];
    while (*link) {
        cache_hash_node_t *node = *link;
        if (node->hash == hash && node->key_length == length && tm_str_equal(node->key, key))
            break;
        link = &node->next;
    }
    if (hash_out)
        *hash_out = hash;
    if (length_out)
        *length_out = length;
    return link;
}

TM_SAFE void *cache_hash_get(const cache_hash_t *table, const char *key)
{
    cache_hash_node_t **link = find_link(table, key, NULL, NULL);
    return *link ? (*link)->value : NULL;
}

TM_SAFE void *cache_hash_put(cache_hash_t *table, const char *key, void *value, int *out_of_memory)
{
    unsigned long hash;
    size_t length;
    cache_hash_node_t **link = find_link(table, key, &hash, &length);
    *out_of_memory = 0;
    if (*link) {
        void *previous = (*link)->value;
        (*link)->value = value;
        (*link)->key = key;
        return previous;
    }
    cache_hash_node_t *node = malloc(sizeof(*node));
    if (!node) {
        *out_of_memory = 1;
        return NULL;
    }
    node->next = NULL;
    node->hash = hash;
    node->key_length = length;
    node->key = key;
    node->value = value;
    *link = node;
    table->count++;
    return NULL;
}

TM_SAFE void *cache_hash_remove(cache_hash_t *table, const char *key)
{
    cache_hash_node_t **link = find_link(table, key, NULL, NULL);
    cache_hash_node_t *node = *link;
    if (!node)
        return NULL;
    void *value = node->value;
    *link = node->next;
    free(node);
    table->count--;
    return value;
}

TM_SAFE size_t cache_hash_count(const cache_hash_t *table)
{
    return table->count;
}
