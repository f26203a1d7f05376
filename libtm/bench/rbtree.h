/* Red-black tree set of long keys (parent pointers, no sentinel: a shared sentinel node would be
 * written by every removal and turn into a transactional conflict hot spot). */
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

/* Test hooks for the verifier: each call toggles a deliberate corruption (a second call undoes
 * it). Return false when the tree is too small to corrupt that way. */
bool rbtree_damage_order(struct rbtree *tree);
bool rbtree_damage_color(struct rbtree *tree);

#endif
