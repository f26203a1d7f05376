/* Binary max-heap; see cache_pqueue.h. Slot 0 is unused so that parent = i/2. Growth uses
 * malloc + copy + free because GCC's TM runtime has no transactional realloc. */
#include "cache_pqueue.h"

#include <stdlib.h>

struct cache_pqueue {
    size_t size;     /* slots in use including the unused slot 0 */
    size_t capacity; /* slots allocated */
    void **slots;
    cache_pqueue_get_priority_fn get_priority;
    cache_pqueue_get_position_fn get_position;
    cache_pqueue_set_position_fn set_position;
};

cache_pqueue_t *cache_pqueue_create(size_t initial_capacity,
                                    cache_pqueue_get_priority_fn get_priority,
                                    cache_pqueue_get_position_fn get_position,
                                    cache_pqueue_set_position_fn set_position)
{
    cache_pqueue_t *queue = calloc(1, sizeof(*queue));
    if (!queue)
        return NULL;
    queue->capacity = initial_capacity + 1;
    queue->slots = calloc(queue->capacity, sizeof(void *));
    if (!queue->slots) {
        free(queue);
        return NULL;
    }
    queue->size = 1;
    queue->get_priority = get_priority;
    queue->get_position = get_position;
    queue->set_position = set_position;
    return queue;
}

void cache_pqueue_destroy(cache_pqueue_t *queue)
{
    if (!queue)
        return;
    free(queue->slots);
    free(queue);
}

TM_SAFE size_t cache_pqueue_size(const cache_pqueue_t *queue)
{
    return queue->size - 1;
}

TM_SAFE static void place(cache_pqueue_t *queue, size_t slot, void *entry)
{
    queue->slots[slot] = entry;
    queue->set_position(entry, slot);
}

/* Moves the entry at slot towards the root while its priority beats its parent's. */
TM_SAFE static void sift_up(cache_pqueue_t *queue, size_t slot)
{
    void *moving = queue->slots[slot];
    cache_pqueue_priority_t priority = queue->get_priority(moving);
    while (slot > 1) {
        size_t parent = slot / 2;
        if (queue->get_priority(queue->slots[parent]) >= priority)
            break;
        place(queue, slot, queue->slots[parent]);
        slot = parent;
    }
    place(queue, slot, moving);
}

/* Moves the entry at slot towards the leaves while a child has a larger priority. */
TM_SAFE static void sift_down(cache_pqueue_t *queue, size_t slot)
{
    void *moving = queue->slots[slot];
    cache_pqueue_priority_t priority = queue->get_priority(moving);
    for (;;) {
        size_t child = slot * 2;
        if (child >= queue->size)
            break;
        if (child + 1 < queue->size &&
            queue->get_priority(queue->slots[child + 1]) > queue->get_priority(queue->slots[child]))
            child++;
        if (queue->get_priority(queue->slots[child]) <= priority)
            break;
        place(queue, slot, queue->slots[child]);
        slot = child;
    }
    place(queue, slot, moving);
}

TM_SAFE int cache_pqueue_insert(cache_pqueue_t *queue, void *entry)
{
    if (queue->size >= queue->capacity) {
        size_t capacity = queue->capacity * 2;
        void **slots = malloc(capacity * sizeof(void *));
        if (!slots)
            return -1;
        for (size_t i = 0; i < queue->size; i++)
            slots[i] = queue->slots[i];
        free(queue->slots);
        queue->slots = slots;
        queue->capacity = capacity;
    }
    size_t slot = queue->size++;
    place(queue, slot, entry);
    sift_up(queue, slot);
    return 0;
}

TM_SAFE void cache_pqueue_remove(cache_pqueue_t *queue, void *entry)
{
    size_t slot = queue->get_position(entry);
    if (slot == 0 || slot >= queue->size || queue->slots[slot] != entry)
        return; /* not queued: nothing to do */
    queue->size--;
    queue->set_position(entry, 0);
    if (slot == queue->size)
        return;
    void *last = queue->slots[queue->size];
    cache_pqueue_priority_t removed_priority = queue->get_priority(entry);
    place(queue, slot, last);
    if (queue->get_priority(last) > removed_priority)
        sift_up(queue, slot);
    else
        sift_down(queue, slot);
}

TM_SAFE void cache_pqueue_change_priority(cache_pqueue_t *queue, cache_pqueue_priority_t old_priority,
                                  void *entry)
{
    size_t slot = queue->get_position(entry);
    if (slot == 0 || slot >= queue->size || queue->slots[slot] != entry)
        return;
    if (queue->get_priority(entry) > old_priority)
        sift_up(queue, slot);
    else
        sift_down(queue, slot);
}

TM_SAFE void *cache_pqueue_peek(const cache_pqueue_t *queue)
{
    return queue->size > 1 ? queue->slots[1] : NULL;
}

TM_SAFE void *cache_pqueue_pop(cache_pqueue_t *queue)
{
    void *head = cache_pqueue_peek(queue);
    if (head)
        cache_pqueue_remove(queue, head);
    return head;
}
