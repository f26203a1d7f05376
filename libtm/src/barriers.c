/* The barriers for the scalar, complex and 64/128-bit vector types, plus _ITM_LB. */
#include "barriers.h"

typedef int tm_m64 __attribute__((vector_size(8), may_alias));
typedef float tm_m128 __attribute__((vector_size(16), may_alias));

#define TM_BARRIER_TYPES(X)                                                                  \
    X(U1, uint8_t) X(U2, uint16_t) X(U4, uint32_t) X(U8, uint64_t)                           \
    X(F, float) X(D, double) X(E, long double)                                               \
    X(CF, float _Complex) X(CD, double _Complex) X(CE, long double _Complex)                 \
    X(M64, tm_m64) X(M128, tm_m128)

TM_BARRIER_TYPES(TM_DEFINE_BARRIERS)

#define TM_DEFINE_LOAD_PATHS(L)                                                              \
    uint64_t tm_load_rest##L(const void *p) { return tm_load_rest(p, L, tm_load_other##L); } \
    uint64_t tm_load_other##L(const void *p) { return tm_load_other(p, L); }
TM_DEFINE_LOAD_PATHS(1)
TM_DEFINE_LOAD_PATHS(2)
TM_DEFINE_LOAD_PATHS(4)
TM_DEFINE_LOAD_PATHS(8)

void _ITM_LB(const void *addr, size_t len)
{
    struct tm_tx *tx = tm_current;
    if (tx && tx->depth && len)
        tm_undo_record(tx, addr, len);
}
