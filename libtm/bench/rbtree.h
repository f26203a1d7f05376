/* Red-black trees keyed by long (parent pointers, no sentinel: a shared sentinel node would be
 * written by every removal and turn into a transactional conflict hot spot), as a set
 * (struct rbtree, the intset benchmark) or as a map from keys to non-NULL pointers
 * (struct rbmap, the travel benchmark's tables). */
#ifndef BENCH_RBTREE_H
#define BENCH_RBTREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "bench_sync.h"

struct rbtree;

struct rbtree *rbtree_create(void);
void rbtree_destroy(struct rbtree *tree);

TM_SAFE bool rbtree_insert(struct rbtree *tree, long key);
TM_SAFE bool rbtree_remove(struct rbtree *tree, long key);
TM_SAFE bool rbtree_contains(const struct rbtree *tree, long key);

/* Checks order, parent links, red-black rules and the element count; reports the first
 * violation on err. Single-threaded, after the run. */
bool rbtree_verify(const struct rbtree *tree, size_t expected_size, FILE *err);

struct rbmap;

struct rbmap *rbmap_create(void);
/* Frees the tree; free_value (if not NULL) is called on every value. */
void rbmap_destroy(struct rbmap *map, void (*free_value)(void *));

/* The key's value, or NULL when the key is absent. */
TM_SAFE void *rbmap_get(const struct rbmap *map, long key);
/* Adds key -> value (not NULL); false when the key is already there or memory ran out. */
TM_SAFE bool rbmap_put(struct rbmap *map, long key, void *value);
/* Removes the key and returns its value, or NULL when the key was absent. */
TM_SAFE void *rbmap_remove(struct rbmap *map, long key);

/* Single-threaded walks for verifiers: visits every entry in key order while visit returns
 * true; returns false when a visit stopped the walk. */
typedef bool rbmap_visit_fn(long key, void *value, void *ctx);
bool rbmap_for_each(const struct rbmap *map, rbmap_visit_fn *visit, void *ctx);
/* The tree rules and the entry count, as rbtree_verify. */
bool rbmap_verify(const struct rbmap *map, size_t expected_size, FILE *err);

/* Test hooks for the verifier: each call toggles a deliberate corruption (a second call undoes
 * it). Return false when the tree is too small to corrupt that way. */
bool rbtree_damage_order(struct rbtree *tree);
bool rbtree_damage_color(struct rbtree *tree);
bool rbmap_damage_order(struct rbmap *map);
bool rbmap_damage_color(struct rbmap *map);

#endif
