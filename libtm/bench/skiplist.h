/* Skip list set of long keys. Node heights are drawn by the caller (outside the transaction,
 * from its own random stream) so that a restarted transaction does not consume randomness. */
#ifndef BENCH_SKIPLIST_H
#define BENCH_SKIPLIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "bench_sync.h"

#define SKIPLIST_MAX_LEVELS 24

struct skiplist;

/* levels: height of the head, about log2 of the expected element count (1..SKIPLIST_MAX_LEVELS). */
struct skiplist *skiplist_create(int levels);
void skiplist_destroy(struct skiplist *list);
int skiplist_levels(const struct skiplist *list);

/* A geometric height (p = 1/2) in 1..levels. */
int skiplist_random_height(uint64_t *rng, int levels);

TM_SAFE bool skiplist_insert(struct skiplist *list, long key, int height);
TM_SAFE bool skiplist_remove(struct skiplist *list, long key);
TM_SAFE bool skiplist_contains(const struct skiplist *list, long key);

/* Checks every level is sorted, holds exactly the nodes that tall, and the element count. */
bool skiplist_verify(const struct skiplist *list, size_t expected_size, FILE *err);

/* Test hook: toggles a swap of the first two keys (a second call undoes it). */
bool skiplist_damage_order(struct skiplist *list);

#endif
