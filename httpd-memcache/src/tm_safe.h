/* Annotations shared by the transaction-safe cache structures. transaction_safe is
 * harmless without -fgnu-tm, so the same sources build both ways. */
#ifndef MEMCACHE_TM_SAFE_H
#define MEMCACHE_TM_SAFE_H

#include <stddef.h>

#define TM_SAFE __attribute__((transaction_safe))
#define TM_PURE __attribute__((transaction_pure))

#endif
