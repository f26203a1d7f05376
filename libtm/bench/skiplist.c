/* Skip list: a head node as tall as the list, nodes with 1..levels forward links. */
#include "skiplist.h"

#include <stdlib.h>

#include "bench_rng.h"

struct skip_node {
    long key;
    int height;
    struct skip_node *next[];
};

struct skiplist {
    int levels;
    struct skip_node *head;
};

struct skiplist *skiplist_create(int levels)
{
    if (levels < 1)
        levels = 1;
    if (levels > SKIPLIST_MAX_LEVELS)
        levels = SKIPLIST_MAX_LEVELS;
    struct skiplist *list = malloc(sizeof *list);
    struct skip_node *head = calloc(1, sizeof *head + (size_t)levels * sizeof head->next[0]);
    if (!list || !head) {
        free(list);
        free(head);
        return NULL;
    }
    head->height = levels;
    list->levels = levels;
    list->head = head;
    return list;
}

void skiplist_destroy(struct skiplist *list)
{
    if (!list)
        return;
    struct skip_node *n = list->head;
    while (n) {
        struct skip_node *next = n->next[0];
        free(n);
        n = next;
    }
    free(list);
}

int skiplist_levels(const struct skiplist *list)
{
    return list->levels;
}

int skiplist_random_height(uint64_t *rng, int levels)
{
    uint64_t bits = rng_next(rng);
    int height = 1;
    while (height < levels && (bits & 1)) {
        bits >>= 1;
        height++;
    }
    return height;
}

/* Fills preds[l] with the last node at level l whose key is below key; returns the level-0
 * successor (the node holding key, if present). */
TM_SAFE static struct skip_node *find(const struct skiplist *list, long key,
                                      struct skip_node **preds)
{
    struct skip_node *x = list->head;
    for (int l = list->levels - 1; l >= 0; l--) {
        struct skip_node *next;
        while ((next = x->next[l]) && next->key < key)
            x = next;
        preds[l] = x;
    }
    return x->next[0];
}

TM_SAFE bool skiplist_contains(const struct skiplist *list, long key)
{
    const struct skip_node *x = list->head;
    for (int l = list->levels - 1; l >= 0; l--) {
        const struct skip_node *next;
        while ((next = x->next[l]) && next->key < key)
            x = next;
        if (next && next->key == key)
            return true;
    }
    return false;
}

TM_SAFE bool skiplist_insert(struct skiplist *list, long key, int height)
{
    struct skip_node *preds[SKIPLIST_MAX_LEVELS];
    struct skip_node *found = find(list, key, preds);
    if (found && found->key == key)
        return false;
    if (height < 1)
        height = 1;
    if (height > list->levels)
        height = list->levels;
    struct skip_node *fresh = malloc(sizeof *fresh + (size_t)height * sizeof fresh->next[0]);
    if (!fresh)
        return false;
    fresh->key = key;
    fresh->height = height;
    for (int l = 0; l < height; l++) {
        fresh->next[l] = preds[l]->next[l];
        preds[l]->next[l] = fresh;
    }
    return true;
}

TM_SAFE bool skiplist_remove(struct skiplist *list, long key)
{
    struct skip_node *preds[SKIPLIST_MAX_LEVELS];
    struct skip_node *victim = find(list, key, preds);
    if (!victim || victim->key != key)
        return false;
    for (int l = 0; l < victim->height; l++)
        preds[l]->next[l] = victim->next[l];
    free(victim);
    return true;
}

bool skiplist_verify(const struct skiplist *list, size_t expected_size, FILE *err)
{
    size_t level0 = 0;
    for (int l = 0; l < list->levels; l++) {
        size_t on_level = 0, tall_enough = 0;
        for (const struct skip_node *n = list->head->next[l]; n; n = n->next[l]) {
            if (n->height <= l || n->height > list->levels) {
                fprintf(err, "skiplist: node %ld of height %d is linked at level %d\n", n->key, n->height, l);
                return false;
            }
            if (n->next[l] && n->next[l]->key <= n->key) {
                fprintf(err, "skiplist: level %d is not sorted after key %ld\n", l, n->key);
                return false;
            }
            on_level++;
        }
        for (const struct skip_node *n = list->head->next[0]; n; n = n->next[0])
            tall_enough += n->height > l;
        if (on_level != tall_enough) {
            fprintf(err, "skiplist: level %d links %zu nodes but %zu are that tall\n", l, on_level, tall_enough);
            return false;
        }
        if (l == 0)
            level0 = on_level;
    }
    if (level0 != expected_size) {
        fprintf(err, "skiplist: holds %zu elements, expected %zu\n", level0, expected_size);
        return false;
    }
    return true;
}

bool skiplist_damage_order(struct skiplist *list)
{
    struct skip_node *first = list->head->next[0];
    if (!first || !first->next[0])
        return false;
    long key = first->key;
    first->key = first->next[0]->key;
    first->next[0]->key = key;
    return true;
}
