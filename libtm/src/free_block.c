/* Returning blocks to their allocator (free_block.h). libstdc++ is referenced weakly: C
 * programs do not need it. */
#include "free_block.h"
#include "conflicts.h"

#include <malloc.h>
#include <stdlib.h>

extern void _ZdlPv(void *) __attribute__((weak));
extern void _ZdaPv(void *) __attribute__((weak));
extern void _ZdlPvm(void *, size_t) __attribute__((weak));
extern void __cxa_free_exception(void *) __attribute__((weak));

void tm_free_block(const struct tm_alloc_record *r)
{
    if (unlikely(tm_conflicts_enabled))
        tm_conflicts_heap_free(r->ptr);
    switch (r->kind) {
    case ALLOC_MALLOC:
    case FREE_MALLOC: free(r->ptr); break;
    case ALLOC_NEW:
    case FREE_DELETE: _ZdlPv(r->ptr); break;
    case ALLOC_NEW_ARRAY:
    case FREE_DELETE_ARRAY: _ZdaPv(r->ptr); break;
    case FREE_DELETE_SIZED:
        if (_ZdlPvm)
            _ZdlPvm(r->ptr, r->size);
        else
            _ZdlPv(r->ptr);
        break;
    case ALLOC_EXCEPTION: __cxa_free_exception(r->ptr); break;
    }
}

size_t tm_freed_block_size(const struct tm_alloc_record *r)
{
    return r->kind == FREE_MALLOC ? malloc_usable_size(r->ptr) : 0;
}
