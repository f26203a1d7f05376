/* Returning a block to the allocator it came from (free_block.c): malloc's free, or one of
 * libstdc++'s operator delete, by the record's kind. */
#ifndef LIBTM_FREE_BLOCK_H
#define LIBTM_FREE_BLOCK_H

#include "tx.h"

void tm_free_block(const struct tm_alloc_record *r);
/* The size of a block freed with free() (0 for the others, whose allocator may not be
 * malloc). */
size_t tm_freed_block_size(const struct tm_alloc_record *r);

#endif
