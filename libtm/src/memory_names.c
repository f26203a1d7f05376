/* Names of heap blocks for conflict records (conflicts.h): while LIBTM_CONFLICTS is on, the
 * blocks that transactions allocate (_ITM_malloc and the other entry points of alloc.c) are
 * remembered with the atomic block that allocated them, until they are freed. A conflict on
 * an address inside one is reported as "allocated by that block, at this offset".
 *
 * A hash table by block address under one mutex; the lookup of an address inside a block
 * scans it (aborts only; the cost when on is in the README). Blocks allocated outside
 * transactions are not seen: their conflicts stay raw addresses. */
#include "conflicts.h"
#include "fatal.h"

#include <pthread.h>
#include <stdlib.h>

struct heap_block {
    void *ptr; /* NULL: free slot; TOMBSTONE: freed */
    size_t size;
    void *site;
};

#define TOMBSTONE ((void *)1)

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct heap_block *blocks;
static size_t capacity, used; /* used counts tombstones too */

static size_t slot_of(const void *ptr)
{
    return (size_t)(((uintptr_t)ptr >> 4) * 0x9E3779B97F4A7C15ull >> 17) & (capacity - 1);
}

static void insert(void *ptr, size_t size, void *site);

static void rehash(void)
{
    struct heap_block *old = blocks;
    size_t old_cap = capacity;
    size_t live = 0;
    for (size_t i = 0; i < old_cap; i++)
        live += old[i].ptr && old[i].ptr != TOMBSTONE;
    capacity = 1024;
    while (capacity < live * 4)
        capacity *= 2;
    blocks = calloc(capacity, sizeof *blocks);
    if (!blocks)
        tm_fatal("out of memory for the names of heap blocks");
    used = 0;
    for (size_t i = 0; i < old_cap; i++)
        if (old[i].ptr && old[i].ptr != TOMBSTONE)
            insert(old[i].ptr, old[i].size, old[i].site);
    free(old);
}

static void insert(void *ptr, size_t size, void *site)
{
    if ((used + 1) * 2 > capacity)
        rehash();
    size_t i = slot_of(ptr);
    while (blocks[i].ptr && blocks[i].ptr != TOMBSTONE && blocks[i].ptr != ptr)
        i = (i + 1) & (capacity - 1);
    if (!blocks[i].ptr)
        used++;
    blocks[i] = (struct heap_block){ ptr, size, site };
}

void tm_conflicts_heap_alloc(struct tm_tx *tx, void *ptr, size_t size)
{
    pthread_mutex_lock(&lock);
    insert(ptr, size, tx->site);
    pthread_mutex_unlock(&lock);
}

void tm_conflicts_heap_free(void *ptr)
{
    pthread_mutex_lock(&lock);
    if (capacity) {
        size_t i = slot_of(ptr);
        while (blocks[i].ptr) {
            if (blocks[i].ptr == ptr) {
                blocks[i].ptr = TOMBSTONE;
                break;
            }
            i = (i + 1) & (capacity - 1);
        }
    }
    pthread_mutex_unlock(&lock);
}

bool tm_conflicts_heap_find(const void *addr, void **site, size_t *offset)
{
    bool found = false;
    uintptr_t a = (uintptr_t)addr;
    pthread_mutex_lock(&lock);
    for (size_t i = 0; i < capacity && !found; i++) {
        uintptr_t p = (uintptr_t)blocks[i].ptr;
        if (blocks[i].ptr && blocks[i].ptr != TOMBSTONE && a >= p && a - p < blocks[i].size) {
            *site = blocks[i].site;
            *offset = a - p;
            found = true;
        }
    }
    pthread_mutex_unlock(&lock);
    return found;
}
