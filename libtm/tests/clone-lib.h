/* The shared libraries of the clone-table test (clone-lib.c built twice: linked and dlopen'ed). */
#ifndef TMTEST_CLONE_LIB_H
#define TMTEST_CLONE_LIB_H

typedef void (*clone_lib_store_fn)(long *where, long value) __attribute__((transaction_safe));
typedef long (*clone_lib_load_fn)(const long *where) __attribute__((transaction_safe));

/* Transaction-safe functions: their clones live in the library's .tm_clone_table. */
void linked_store(long *where, long value) __attribute__((transaction_safe));
long linked_load(const long *where) __attribute__((transaction_safe));
/* Their addresses as the library sees them (called outside transactions). */
clone_lib_store_fn linked_store_address(void);
clone_lib_load_fn linked_load_address(void);

#endif
