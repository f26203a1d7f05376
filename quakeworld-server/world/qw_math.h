/* Math functions usable inside transactions. libm's sinf/cosf/sqrtf touch no shared memory
 * (only errno on domain errors, which we never produce), so they are wrapped as
 * transaction_pure: GCC calls them uninstrumented instead of going irrevocable. */
#ifndef QW_MATH_H
#define QW_MATH_H

#include <math.h>

__attribute__((transaction_pure)) static inline float qw_sinf(float x) { return sinf(x); }
__attribute__((transaction_pure)) static inline float qw_cosf(float x) { return cosf(x); }
__attribute__((transaction_pure)) static inline float qw_sqrtf(float x)
{
    return x > 0 ? sqrtf(x) : 0.0f;
}

#endif
