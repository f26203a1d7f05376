/* Dispatch from the integer-set interface to the structure chosen at start-up. */
#include "intset.h"

#include <stdlib.h>
#include <string.h>

#include "hashset.h"
#include "rbtree.h"
#include "skiplist.h"
#include "sortedlist.h"

static const char *const kind_names[] = {
    [INTSET_RBTREE] = "rbtree",
    [INTSET_SKIPLIST] = "skiplist",
    [INTSET_LIST] = "list",
    [INTSET_HASHSET] = "hashset",
};

bool intset_kind_from_name(const char *name, enum intset_kind *kind)
{
    for (size_t i = 0; i < sizeof kind_names / sizeof kind_names[0]; i++) {
        if (strcmp(name, kind_names[i]) == 0) {
            *kind = (enum intset_kind)i;
            return true;
        }
    }
    return false;
}

const char *intset_kind_name(enum intset_kind kind)
{
    return kind_names[kind];
}

size_t intset_default_size(enum intset_kind kind)
{
    return kind == INTSET_LIST ? 256 : 4096;
}

struct intset *intset_create(enum intset_kind kind, size_t expected_size)
{
    struct intset *set = malloc(sizeof *set);
    if (!set)
        return NULL;
    set->kind = kind;
    set->height_levels = 1;
    switch (kind) {
    case INTSET_RBTREE:
        set->impl = rbtree_create();
        break;
    case INTSET_SKIPLIST:
        while (set->height_levels < SKIPLIST_MAX_LEVELS && ((size_t)1 << set->height_levels) < expected_size)
            set->height_levels++;
        set->impl = skiplist_create(set->height_levels);
        break;
    case INTSET_LIST:
        set->impl = sortedlist_create();
        break;
    case INTSET_HASHSET:
        set->impl = hashset_create(expected_size);
        break;
    default:
        set->impl = NULL;
    }
    if (!set->impl) {
        free(set);
        return NULL;
    }
    return set;
}

void intset_destroy(struct intset *set)
{
    if (!set)
        return;
    switch (set->kind) {
    case INTSET_RBTREE: rbtree_destroy(set->impl); break;
    case INTSET_SKIPLIST: skiplist_destroy(set->impl); break;
    case INTSET_LIST: sortedlist_destroy(set->impl); break;
    case INTSET_HASHSET: hashset_destroy(set->impl); break;
    }
    free(set);
}

int intset_random_height(const struct intset *set, uint64_t *rng)
{
    return set->kind == INTSET_SKIPLIST ? skiplist_random_height(rng, set->height_levels) : 1;
}

TM_SAFE bool intset_insert(struct intset *set, long key, int height)
{
    switch (set->kind) {
    case INTSET_RBTREE: return rbtree_insert(set->impl, key);
    case INTSET_SKIPLIST: return skiplist_insert(set->impl, key, height);
    case INTSET_LIST: return sortedlist_insert(set->impl, key);
    case INTSET_HASHSET: return hashset_insert(set->impl, key);
    }
    return false;
}

TM_SAFE bool intset_remove(struct intset *set, long key)
{
    switch (set->kind) {
    case INTSET_RBTREE: return rbtree_remove(set->impl, key);
    case INTSET_SKIPLIST: return skiplist_remove(set->impl, key);
    case INTSET_LIST: return sortedlist_remove(set->impl, key);
    case INTSET_HASHSET: return hashset_remove(set->impl, key);
    }
    return false;
}

TM_SAFE bool intset_contains(const struct intset *set, long key)
{
    switch (set->kind) {
    case INTSET_RBTREE: return rbtree_contains(set->impl, key);
    case INTSET_SKIPLIST: return skiplist_contains(set->impl, key);
    case INTSET_LIST: return sortedlist_contains(set->impl, key);
    case INTSET_HASHSET: return hashset_contains(set->impl, key);
    }
    return false;
}

bool intset_verify(const struct intset *set, size_t expected_size, FILE *err)
{
    switch (set->kind) {
    case INTSET_RBTREE: return rbtree_verify(set->impl, expected_size, err);
    case INTSET_SKIPLIST: return skiplist_verify(set->impl, expected_size, err);
    case INTSET_LIST: return sortedlist_verify(set->impl, expected_size, err);
    case INTSET_HASHSET: return hashset_verify(set->impl, expected_size, err);
    }
    return false;
}

bool intset_damage_order(struct intset *set)
{
    switch (set->kind) {
    case INTSET_RBTREE: return rbtree_damage_order(set->impl);
    case INTSET_SKIPLIST: return skiplist_damage_order(set->impl);
    case INTSET_LIST: return sortedlist_damage_order(set->impl);
    case INTSET_HASHSET: return hashset_damage_order(set->impl);
    }
    return false;
}

bool intset_damage_color(struct intset *set)
{
    return set->kind == INTSET_RBTREE && rbtree_damage_color(set->impl);
}
