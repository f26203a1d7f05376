/* Body buffers: malloc below MEM_BODY_MAPPED_MIN, a mapping of their own from there on; see
 * mem_body.h. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* mremap (apxs already defines it) */
#endif
#include "mem_body.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static int mapped(size_t capacity)
{
    return capacity >= MEM_BODY_MAPPED_MIN;
}

static size_t whole_pages(size_t bytes)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    return (bytes + page - 1) / page * page;
}

char *mem_body_alloc(size_t capacity)
{
    if (!mapped(capacity))
        return malloc(capacity ? capacity : 1);
    void *body = mmap(NULL, whole_pages(capacity), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                      -1, 0);
    return body == MAP_FAILED ? NULL : body;
}

char *mem_body_resize(char *body, size_t capacity, size_t new_capacity)
{
    if (!mapped(capacity) && !mapped(new_capacity))
        return realloc(body, new_capacity ? new_capacity : 1);
    if (mapped(capacity) && mapped(new_capacity)) {
        void *moved = mremap(body, whole_pages(capacity), whole_pages(new_capacity), MREMAP_MAYMOVE);
        return moved == MAP_FAILED ? NULL : moved;
    }
    /* Across the threshold: a buffer of the other kind, and a copy. */
    char *other = mem_body_alloc(new_capacity);
    if (!other)
        return NULL;
    memcpy(other, body, capacity < new_capacity ? capacity : new_capacity);
    mem_body_free(body, capacity);
    return other;
}

void mem_body_free(char *body, size_t capacity)
{
    if (!body)
        return;
    if (mapped(capacity))
        munmap(body, whole_pages(capacity));
    else
        free(body);
}
