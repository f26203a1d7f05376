/* Shared by the CMocka unit tests. Built twice: plain, and with -fgnu-tm -DUNIT_USE_TM where
 * every cache operation runs inside a __transaction_atomic block (through the TM clones). */
#ifndef MEMCACHE_UNIT_SUPPORT_H
#define MEMCACHE_UNIT_SUPPORT_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#ifdef UNIT_USE_TM
#define IN_TX(...) __transaction_atomic { __VA_ARGS__; }
#else
#define IN_TX(...) do { __VA_ARGS__; } while (0)
#endif

#endif
