/* One cancel/commit check per access type, shared by cancel-types.c and cancel-m256.c.
 * TYPE_CASE(NAME, T, OLD, NEW, SAME) defines check_NAME(who): for a global array, a heap
 * array, an array in the transaction's own stack frame and a scalar local, a transaction
 * stores NEW (twice: store after store), reads it back (load after store), also through a
 * pointer to a transaction_safe function, and cancels: every location must hold OLD again.
 * The same transaction without the cancel must leave NEW everywhere. */
#ifndef TMTEST_TYPE_CASES_H
#define TMTEST_TYPE_CASES_H

#include <stdlib.h>
#include <string.h>

#include "tmtest.h"

/* Keeps the stack array's address escaping, so that GCC instruments its stores. */
__attribute__((noinline)) static void type_cases_escape(void *p) { __asm__ __volatile__("" : : "r"(p) : "memory"); }

#define TYPE_CASE(NAME, T, OLD, NEW, SAME)                                                      \
    static T global_##NAME[3];                                                                  \
    __attribute__((transaction_safe, noinline)) static void store_##NAME(T *where, T value)     \
    {                                                                                           \
        *where = value;                                                                         \
    }                                                                                           \
    static void (*store_fn_##NAME)(T *, T) __attribute__((transaction_safe)) = store_##NAME;    \
    __attribute__((transaction_safe, noinline)) static T load_##NAME(const T *where)            \
    {                                                                                           \
        return *where;                                                                          \
    }                                                                                           \
    TMTEST_PURE static void probe_read_back_##NAME(const char *who, int ok)                     \
    {                                                                                           \
        if (!ok)                                                                                \
            tmtest_violation("%s: " #NAME ": a value read back inside the transaction after "   \
                             "storing it differs", who);                                        \
    }                                                                                           \
    static void check_##NAME(const char *who)                                                   \
    {                                                                                           \
        T *heap = aligned_alloc(64, (3 * sizeof(T) + 63) / 64 * 64); /* vectors want alignment */\
        TMTEST_CHECK(heap != NULL, "out of memory");                                           \
        T frame[3];                                                                             \
        type_cases_escape(frame);                                                               \
        for (int cancel = 1; cancel >= 0; cancel--) {                                           \
            T scalar = OLD;                                                                     \
            T unescaped[2] = { OLD, OLD }; /* GCC logs these with _ITM_L<T> */                  \
            for (int i = 0; i < 3; i++)                                                         \
                global_##NAME[i] = heap[i] = frame[i] = OLD;                                    \
            type_cases_escape(frame);                                                           \
            __transaction_atomic {                                                              \
                global_##NAME[1] = NEW;                                                         \
                heap[1] = NEW;                                                                  \
                frame[1] = NEW;                                                                 \
                scalar = NEW;                                                                   \
                unescaped[cancel] = NEW;                                                        \
                T back = load_##NAME(&global_##NAME[1]);                                        \
                probe_read_back_##NAME(who, SAME(back, NEW));                                   \
                back = global_##NAME[1];                                                        \
                probe_read_back_##NAME(who, SAME(back, NEW));                                   \
                global_##NAME[1] = NEW; /* after a call that may have written it */             \
                heap[1] = NEW;                                                                  \
                store_fn_##NAME(&global_##NAME[2], NEW);                                        \
                store_fn_##NAME(&heap[2], NEW);                                                 \
                store_fn_##NAME(&frame[2], NEW);                                                \
                if (cancel)                                                                     \
                    __transaction_cancel;                                                       \
            }                                                                                   \
            type_cases_escape(frame);                                                           \
            const char *what = cancel ? "after a cancel" : "after a commit";                    \
            for (int i = 0; i < 3; i++) {                                                       \
                int stored = !cancel && i > 0;                                                  \
                TMTEST_CHECK(SAME(global_##NAME[i], stored ? (T)(NEW) : (T)(OLD)),              \
                             "%s: " #NAME " global[%d] %s holds the %s value", who, i, what,    \
                             stored ? "old" : "new");                                           \
                TMTEST_CHECK(SAME(heap[i], stored ? (T)(NEW) : (T)(OLD)),                       \
                             "%s: " #NAME " heap[%d] %s holds the %s value", who, i, what,      \
                             stored ? "old" : "new");                                           \
                TMTEST_CHECK(SAME(frame[i], stored ? (T)(NEW) : (T)(OLD)),                      \
                             "%s: " #NAME " array[%d] in the transaction's own stack frame %s " \
                             "holds the %s value", who, i, what, stored ? "old" : "new");       \
            }                                                                                   \
            TMTEST_CHECK(SAME(scalar, cancel ? (T)(OLD) : (T)(NEW)),                            \
                         "%s: " #NAME " local scalar %s holds the %s value", who, what,         \
                         cancel ? "new" : "old");                                               \
            TMTEST_CHECK(SAME(unescaped[cancel], cancel ? (T)(OLD) : (T)(NEW)),                 \
                         "%s: " #NAME " local array (not escaping) %s holds the %s value", who, \
                         what, cancel ? "new" : "old");                                         \
        }                                                                                       \
        free(heap);                                                                             \
    }

#define SAME_VALUE(a, b) ((a) == (b))

#endif
