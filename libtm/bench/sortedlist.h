/* Sorted singly linked list of long keys. Also the bucket chain of the hash set, which is why the
 * list head is a public struct that can be embedded in an array. */
#ifndef BENCH_SORTEDLIST_H
#define BENCH_SORTEDLIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "bench_sync.h"

struct list_node;

struct sortedlist {
    struct list_node *head;
};

struct sortedlist *sortedlist_create(void);
void sortedlist_destroy(struct sortedlist *list);
void sortedlist_clear(struct sortedlist *list); /* frees the nodes of an embedded list */

TM_SAFE bool sortedlist_insert(struct sortedlist *list, long key);
TM_SAFE bool sortedlist_remove(struct sortedlist *list, long key);
TM_SAFE bool sortedlist_contains(const struct sortedlist *list, long key);

/* Checks strict order and, if key_belongs is given, that every key belongs to this list (the
 * hash set's bucket check). Adds the element count to *count. */
bool sortedlist_check(const struct sortedlist *list, size_t *count,
                      bool (*key_belongs)(long key, const void *ctx), const void *ctx, FILE *err);
bool sortedlist_verify(const struct sortedlist *list, size_t expected_size, FILE *err);

/* Test hook: toggles a swap of the first two keys (a second call undoes it). */
bool sortedlist_damage_order(struct sortedlist *list);

#endif
