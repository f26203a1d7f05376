/* Clone tables (clone_table.c): the transactional clone of a function. */
#ifndef LIBTM_CLONE_TABLE_H
#define LIBTM_CLONE_TABLE_H


#include <stdatomic.h>

void *tm_clone_lookup(void *fn);
/* Bumped whenever a table is registered or removed: a lookup remembered from before is stale. */
extern _Atomic unsigned tm_clone_tables_changes __attribute__((visibility("hidden")));

#endif
