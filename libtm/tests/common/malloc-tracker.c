/* Live-block tracker for chosen sizes (see malloc-tracker.h). */
#include "malloc-tracker.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *p, size_t size);
extern void __libc_free(void *p);

#define MAX_TRACKED 8192

/* Each live block remembers the thread that allocated it, so that threads count their own. */
static struct {
    const void *block;
    const void *owner;
} live[MAX_TRACKED];
static __thread char thread_identity;
static atomic_flag table_lock = ATOMIC_FLAG_INIT;

static void lock(void)
{
    while (atomic_flag_test_and_set_explicit(&table_lock, memory_order_acquire))
        ;
}

static void unlock(void)
{
    atomic_flag_clear_explicit(&table_lock, memory_order_release);
}

static void die(const char *message)
{
    ssize_t ignored = write(2, message, strlen(message));
    (void)ignored;
    abort();
}

static void track(const void *p, size_t size)
{
    if (!p || size < TRACKED_SIZE_MIN || size > TRACKED_SIZE_MAX)
        return;
    lock();
    for (int i = 0; i < MAX_TRACKED; i++) {
        if (!live[i].block) {
            live[i].block = p;
            live[i].owner = &thread_identity;
            unlock();
            return;
        }
    }
    unlock();
    die("malloc-tracker: more than 8192 tracked blocks are live (a leak?)\n");
}

static void untrack(const void *p)
{
    if (!p)
        return;
    lock();
    for (int i = 0; i < MAX_TRACKED; i++) {
        if (live[i].block == p) {
            live[i].block = NULL;
            break;
        }
    }
    unlock();
}

long tracked_live_blocks(void)
{
    long n = 0;
    lock();
    for (int i = 0; i < MAX_TRACKED; i++)
        n += live[i].block && live[i].owner == &thread_identity;
    unlock();
    return n;
}

long tracked_live_blocks_all(void)
{
    long n = 0;
    lock();
    for (int i = 0; i < MAX_TRACKED; i++)
        n += live[i].block != NULL;
    unlock();
    return n;
}

int tracked_is_live(const void *p)
{
    int found = 0;
    lock();
    for (int i = 0; i < MAX_TRACKED && !found; i++)
        found = live[i].block == p;
    unlock();
    return found;
}

void *malloc(size_t size)
{
    void *p = __libc_malloc(size);
    track(p, size);
    return p;
}

void *calloc(size_t count, size_t size)
{
    void *p = __libc_calloc(count, size);
    if (size && count <= (size_t)-1 / size)
        track(p, count * size);
    return p;
}

void *realloc(void *old, size_t size)
{
    untrack(old);
    void *p = __libc_realloc(old, size);
    track(p, size);
    return p;
}

void free(void *p)
{
    untrack(p);
    __libc_free(p);
}
