/* Clone tables (clone_table.c): the transactional clone of a function. */
#ifndef LIBTM_CLONE_TABLE_H
#define LIBTM_CLONE_TABLE_H


void *tm_clone_lookup(void *fn);

#endif
