/* The 256-bit barriers travel in %ymm registers only when compiled for AVX (libtm/ABI.md
 * §3), so this file alone is built with AVX enabled; they run only in programs that use AVX. */
#pragma GCC target("avx")
#include "barriers.h"

typedef float tm_m256 __attribute__((vector_size(32), may_alias));

TM_DEFINE_BARRIERS(M256, tm_m256)
