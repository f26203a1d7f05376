/* Hash set of long keys: a fixed power-of-two array of sorted chains (no resizing: the benchmark
 * keeps the size stable, so the load factor stays about 1). */
#ifndef BENCH_HASHSET_H
#define BENCH_HASHSET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "bench_sync.h"

struct hashset;

/* expected_size: bucket count is the next power of two at or above it. */
struct hashset *hashset_create(size_t expected_size);
void hashset_destroy(struct hashset *set);

TM_SAFE bool hashset_insert(struct hashset *set, long key);
TM_SAFE bool hashset_remove(struct hashset *set, long key);
TM_SAFE bool hashset_contains(const struct hashset *set, long key);

/* Checks each chain is sorted, each key sits in its own bucket, and the element count. */
bool hashset_verify(const struct hashset *set, size_t expected_size, FILE *err);

/* Test hook: toggles a swap of two keys in the first chain holding two (undone by a second call). */
bool hashset_damage_order(struct hashset *set);

#endif
