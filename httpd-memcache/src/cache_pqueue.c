/* Binary max-heap; see cache_pqueue.h. Slot 0 is unused so that parent = i/2. Growth uses
 * malloc + copy + free because GCC's TM runtime has no transactional realloc. */
#include "cache_pqueue.h"

#include <stdlib.h>

struct cache_pqueue {
    size_t size;     /* slots in use including the unused slot 0 */
    size_t capacity; /* slots allocated */
    cache_pqueue_node_t **slots;
};

cache_pqueue_t *cache_pqueue_create(size_t initial_capacity)
{
    cache_pqueue_t *queue = calloc(1, sizeof(*queue));
    if (!queue)
        return NULL;
    queue->capacity = initial_capacity + 1;
    queue->slots = calloc(queue->capacity, sizeof(*queue->slots));
    if (!queue->slots) {
        free(queue);
        return NULL;
    }
    queue->size = 1;
    return queue;
}

void cache_pqueue_destroy(cache_pqueue_t *queue)
{
    if (!queue)
        return;
    free(queue->slots);
    free(queue);
}

LIBTM_SAFE size_t cache_pqueue_size(const cache_pqueue_t *queue)
{
    return queue->size - 1;
}

LIBTM_SAFE static void place(cache_pqueue_t *queue, size_t slot, cache_pqueue_node_t *node)
{
    queue->slots[slot] = node;
    node->position = slot;
}

/* Moves the node at slot towards the root while its priority beats its parent's. */
LIBTM_SAFE static void sift_up(cache_pqueue_t *queue, size_t slot)
{
    cache_pqueue_node_t *moving = queue->slots[slot];
    cache_pqueue_priority_t priority = moving->priority;
    while (slot > 1) {
        size_t parent = slot / 2;
        if (queue->slots[parent]->priority >= priority)
            break;
        place(queue, slot, queue->slots[parent]);
        slot = parent;
    }
    place(queue, slot, moving);
}

/* Moves the node at slot towards the leaves while a child has a larger priority. */
LIBTM_SAFE static void sift_down(cache_pqueue_t *queue, size_t slot)
{
    cache_pqueue_node_t *moving = queue->slots[slot];
    cache_pqueue_priority_t priority = moving->priority;
    for (;;) {
        size_t child = slot * 2;
        if (child >= queue->size)
            break;
        if (child + 1 < queue->size && queue->slots[child + 1]->priority > queue->slots[child]->priority)
            child++;
        if (queue->slots[child]->priority <= priority)
            break;
        place(queue, slot, queue->slots[child]);
        slot = child;
    }
    place(queue, slot, moving);
}

LIBTM_SAFE int cache_pqueue_insert(cache_pqueue_t *queue, cache_pqueue_node_t *node)
{
    if (queue->size >= queue->capacity) {
        size_t capacity = queue->capacity * 2;
        cache_pqueue_node_t **slots = malloc(capacity * sizeof(*slots));
        if (!slots)
            return -1;
        for (size_t i = 0; i < queue->size; i++)
            slots[i] = queue->slots[i];
        free(queue->slots);
        queue->slots = slots;
        queue->capacity = capacity;
    }
    size_t slot = queue->size++;
    place(queue, slot, node);
    sift_up(queue, slot);
    return 0;
}

LIBTM_SAFE void cache_pqueue_remove(cache_pqueue_t *queue, cache_pqueue_node_t *node)
{
    size_t slot = node->position;
    if (slot == 0 || slot >= queue->size || queue->slots[slot] != node)
        return; /* not queued: nothing to do */
    queue->size--;
    node->position = 0;
    if (slot == queue->size)
        return;
    cache_pqueue_node_t *last = queue->slots[queue->size];
    place(queue, slot, last);
    if (last->priority > node->priority)
        sift_up(queue, slot);
    else
        sift_down(queue, slot);
}

LIBTM_SAFE void cache_pqueue_change_priority(cache_pqueue_t *queue, cache_pqueue_node_t *node,
                                          cache_pqueue_priority_t priority)
{
    cache_pqueue_priority_t old = node->priority;
    node->priority = priority;
    size_t slot = node->position;
    if (slot == 0 || slot >= queue->size || queue->slots[slot] != node)
        return;
    if (priority > old)
        sift_up(queue, slot);
    else if (priority < old)
        sift_down(queue, slot);
}

LIBTM_SAFE cache_pqueue_node_t *cache_pqueue_peek(const cache_pqueue_t *queue)
{
    return queue->size > 1 ? queue->slots[1] : NULL;
}

LIBTM_SAFE cache_pqueue_node_t *cache_pqueue_pop(cache_pqueue_t *queue)
{
    cache_pqueue_node_t *head = cache_pqueue_peek(queue);
    if (head)
        cache_pqueue_remove(queue, head);
    return head;
}
