/* __transaction_cancel rolls back 32-byte vector stores (the M256 barriers, which pass the
 * vector in %ymm registers and exist only for AVX code). Built with -mavx; skipped when the
 * CPU has no AVX. Single-threaded, then next to a thread running transactions. */
#include "tmtest.h"
#include "type-cases.h"

#include <stdio.h>
#include <string.h>

typedef float m256_t __attribute__((vector_size(32)));

static const m256_t m256_old = { 1, 2, 3, 4, 5, 6, 7, 8 };
static const m256_t m256_new = { -1, 1e30f, 0, 7, -8, 9.5f, 10, 1e-30f };

TMTEST_PURE static int same_m256(m256_t a, m256_t b) { return memcmp(&a, &b, sizeof a) == 0; }

TYPE_CASE(m256, m256_t, m256_old, m256_new, same_m256)

static void check_m256_repeatedly(const char *who)
{
    for (int repeat = 0; repeat < 200; repeat++)
        check_m256(who);
}

int main(int argc, char **argv)
{
    tmtest_init(argc, argv, "Cancels and commits transactions storing 32-byte AVX vectors.");
    __builtin_cpu_init();
    if (!__builtin_cpu_supports("avx"))
        tmtest_skip("this CPU has no AVX, so the M256 barriers cannot be exercised");
    for (int repeat = 0; repeat < 200; repeat++)
        check_m256("single-threaded process");
    tmtest_beside_busy_thread(check_m256_repeatedly);
    tmtest_check_no_violations("M256 values read back inside transactions");
    tmtest_note("M256 stores rolled back on cancel and kept on commit");
    return 0;
}
