/* The write rule of shared state that transactions scan: store a value only where it differs.
 * To a transaction a store is a change even when it writes the value already there, and
 * every transaction that read the word conflicts with it: the areanode tree's objects (every
 * move, trace and touch reads them), the entity fields they are copied from, the copies of
 * the players that S sends. An unchanged value written again would make two commands that
 * only looked at the same object conflict. */
#ifndef QW_STORE_H
#define QW_STORE_H

#include <libtm.h>

/* dst = value, unless dst holds it already (dst is named twice: an lvalue without side
 * effects). */
#define QW_STORE_CHANGED(dst, value)                                                      \
    do {                                                                                  \
        __typeof__(dst) qw_store_value_ = (value);                                        \
        if ((dst) != qw_store_value_)                                                     \
            (dst) = qw_store_value_;                                                      \
    } while (0)

/* The same for a vector, component by component. */
LIBTM_SAFE static inline void qw_store_vec(float dst[3], const float src[3])
{
    for (int i = 0; i < 3; i++)
        QW_STORE_CHANGED(dst[i], src[i]);
}

#endif
