/* Annotations and small helpers shared by the transaction-safe cache structures.
 * transaction_safe is harmless without -fgnu-tm, so the same sources build both ways. */
#ifndef MEMCACHE_TM_SAFE_H
#define MEMCACHE_TM_SAFE_H

#include <stddef.h>

#define TM_SAFE __attribute__((transaction_safe))
#define TM_PURE __attribute__((transaction_pure))

/* GCC 12 rejects strlen/memcmp inside atomic transactions, so keys are handled with these
 * instrumented loops instead. */
TM_SAFE static inline int tm_str_equal(const char *a, const char *b)
{
    while (*a && *a == *b) {
        a++;
        b++;
    }
    return *a == *b;
}

/* The classic "times 33" string hash of 2.2's cache_hash, also returning the length. */
TM_SAFE static inline unsigned long tm_str_hash(const char *key, size_t *length)
{
    unsigned long hash = 0;
    const char *p = key;
    while (*p) {
        hash = hash * 33 + (unsigned char)*p;
        p++;
    }
    *length = (size_t)(p - key);
    return hash;
}

#endif
