/* Sorted linked list: searches stop at the first key not below the one sought. */
#include "sortedlist.h"

#include <stdlib.h>

struct list_node {
    long key;
    struct list_node *next;
};

struct sortedlist *sortedlist_create(void)
{
    return calloc(1, sizeof(struct sortedlist));
}

void sortedlist_clear(struct sortedlist *list)
{
    struct list_node *n = list->head;
    while (n) {
        struct list_node *next = n->next;
        free(n);
        n = next;
    }
    list->head = NULL;
}

void sortedlist_destroy(struct sortedlist *list)
{
    if (!list)
        return;
    sortedlist_clear(list);
    free(list);
}

TM_SAFE bool sortedlist_contains(const struct sortedlist *list, long key)
{
    const struct list_node *n = list->head;
    while (n && n->key < key)
        n = n->next;
    return n && n->key == key;
}

TM_SAFE bool sortedlist_insert(struct sortedlist *list, long key)
{
    struct list_node **link = &list->head;
    struct list_node *n;
    while ((n = *link) && n->key < key)
        link = &n->next;
    if (n && n->key == key)
        return false;
    struct list_node *fresh = malloc(sizeof *fresh);
    if (!fresh)
        return false;
    fresh->key = key;
    fresh->next = n;
    *link = fresh;
    return true;
}

TM_SAFE bool sortedlist_remove(struct sortedlist *list, long key)
{
    struct list_node **link = &list->head;
    struct list_node *n;
    while ((n = *link) && n->key < key)
        link = &n->next;
    if (!n || n->key != key)
        return false;
    *link = n->next;
    free(n);
    return true;
}

bool sortedlist_check(const struct sortedlist *list, size_t *count,
                      bool (*key_belongs)(long key, const void *ctx), const void *ctx, FILE *err)
{
    for (const struct list_node *n = list->head; n; n = n->next) {
        if (n->next && n->next->key <= n->key) {
            fprintf(err, "list: not sorted after key %ld\n", n->key);
            return false;
        }
        if (key_belongs && !key_belongs(n->key, ctx)) {
            fprintf(err, "list: key %ld is in the wrong bucket\n", n->key);
            return false;
        }
        ++*count;
    }
    return true;
}

bool sortedlist_verify(const struct sortedlist *list, size_t expected_size, FILE *err)
{
    size_t count = 0;
    if (!sortedlist_check(list, &count, NULL, NULL, err))
        return false;
    if (count != expected_size) {
        fprintf(err, "list: holds %zu elements, expected %zu\n", count, expected_size);
        return false;
    }
    return true;
}

bool sortedlist_damage_order(struct sortedlist *list)
{
    struct list_node *first = list->head;
    if (!first || !first->next)
        return false;
    long key = first->key;
    first->key = first->next->key;
    first->next->key = key;
    return true;
}
