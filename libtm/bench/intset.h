/* One integer-set interface over the four structures. The dispatch is a switch, not function
 * pointers, so that transactional code makes direct calls to the structures' TM clones. */
#ifndef BENCH_INTSET_H
#define BENCH_INTSET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "bench_sync.h"

enum intset_kind { INTSET_RBTREE, INTSET_SKIPLIST, INTSET_LIST, INTSET_HASHSET };

struct intset {
    enum intset_kind kind;
    int height_levels; /* skip list only: the head's height */
    void *impl;
};

/* Parses a --structure name; returns false for an unknown one. */
bool intset_kind_from_name(const char *name, enum intset_kind *kind);
const char *intset_kind_name(enum intset_kind kind);
/* The size used when --size is not given (the field's usual choices). */
size_t intset_default_size(enum intset_kind kind);

/* expected_size sizes the hash table and the skip list head. NULL when out of memory. */
struct intset *intset_create(enum intset_kind kind, size_t expected_size);
void intset_destroy(struct intset *set);

/* Skip-list height to pass to intset_insert (1 for the other structures); drawn outside
 * the transaction. */
int intset_random_height(const struct intset *set, uint64_t *rng);

TM_SAFE bool intset_insert(struct intset *set, long key, int height);
TM_SAFE bool intset_remove(struct intset *set, long key);
TM_SAFE bool intset_contains(const struct intset *set, long key);

bool intset_verify(const struct intset *set, size_t expected_size, FILE *err);

/* Test hooks: toggle a corruption the verifier must catch (see the structures' headers). */
bool intset_damage_order(struct intset *set);
bool intset_damage_color(struct intset *set); /* rbtree only; false for the others */

#endif
