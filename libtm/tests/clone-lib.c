/* A shared library with transaction_safe functions (and so a .tm_clone_table, registered by
 * its crtbegin through _ITM_registerTMCloneTable). Built twice, with CLONE_LIB_NAME "linked"
 * (linked into clone-tables) and "dlopened" (loaded with dlopen); the exported names carry
 * the prefix so the two never clash. */
#include "clone-lib.h"

#define GLUE(a, b) a##_##b
#define NAME(prefix, suffix) GLUE(prefix, suffix)
#ifndef CLONE_LIB_PREFIX
#error "build with -DCLONE_LIB_PREFIX=linked or =dlopened"
#endif

__attribute__((transaction_safe)) void NAME(CLONE_LIB_PREFIX, store)(long *where, long value)
{
    *where = value;
}

__attribute__((transaction_safe)) long NAME(CLONE_LIB_PREFIX, load)(const long *where)
{
    return *where;
}

clone_lib_store_fn NAME(CLONE_LIB_PREFIX, store_address)(void)
{
    return NAME(CLONE_LIB_PREFIX, store);
}

clone_lib_load_fn NAME(CLONE_LIB_PREFIX, load_address)(void)
{
    return NAME(CLONE_LIB_PREFIX, load);
}
