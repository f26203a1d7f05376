/* __transaction_cancel rolls back every store, for every access width and type the ABI has
 * barriers for (U1 U2 U4 U8 F D E CF CD CE M64 M128; M256 is cancel-m256.c), in globals, heap,
 * the transaction's own stack frame and locals, directly and through pointers to
 * transaction_safe functions; first in a single-threaded process, then with other threads
 * running transactions at the same time. Read-modify-write stores (x += ...) are checked too. */
#include "tmtest.h"
#include "type-cases.h"

#include <complex.h>
#include <stdio.h>
#include <string.h>

typedef int m64_t __attribute__((vector_size(8)));
typedef float m128_t __attribute__((vector_size(16)));

static const m64_t m64_old = { 1, 2 }, m64_new = { -7, 1 << 30 };
static const m128_t m128_old = { 1.5f, 2.5f, 3.5f, 4.5f }, m128_new = { -1.f, 1e30f, 0.f, 7.f };

TMTEST_PURE static int same_m64(m64_t a, m64_t b) { return memcmp(&a, &b, sizeof a) == 0; }
TMTEST_PURE static int same_m128(m128_t a, m128_t b) { return memcmp(&a, &b, sizeof a) == 0; }

TYPE_CASE(u8, uint8_t, 0x12, 0xfe, SAME_VALUE)
TYPE_CASE(u16, uint16_t, 0x1234, 0xfedc, SAME_VALUE)
TYPE_CASE(u32, uint32_t, 0x12345678u, 0xfedcba98u, SAME_VALUE)
TYPE_CASE(u64, uint64_t, 0x123456789abcdef0ull, 0xfedcba9876543210ull, SAME_VALUE)
TYPE_CASE(float, float, 1.25f, -3.5e20f, SAME_VALUE)
TYPE_CASE(double, double, 1.25, -3.5e200, SAME_VALUE)
TYPE_CASE(long_double, long double, 1.25L, -3.5e2000L, SAME_VALUE)
TYPE_CASE(complex_float, float complex, 1.0f + 2.0f * I, -5.0f - 6.0f * I, SAME_VALUE)
TYPE_CASE(complex_double, double complex, 1.0 + 2.0 * I, -5.0 - 6.0 * I, SAME_VALUE)
TYPE_CASE(complex_long_double, long double complex, 1.0L + 2.0L * I, -5.0L - 6.0e1000L * I,
          SAME_VALUE)
TYPE_CASE(m64, m64_t, m64_old, m64_new, same_m64)
TYPE_CASE(m128, m128_t, m128_old, m128_new, same_m128)

/* Read-modify-write: GCC emits a read-for-write barrier (RfW) followed by a
 * write-after-write store (WaW); the runtime must still be able to undo it. */
static uint64_t rmw_u64[2];
static double rmw_double;
static uint8_t rmw_u8;

static void check_read_modify_write(const char *who)
{
    for (int cancel = 1; cancel >= 0; cancel--) {
        rmw_u64[0] = 10;
        rmw_u64[1] = 20;
        rmw_double = 0.5;
        rmw_u8 = 200;
        TMTEST_FORGET_MEMORY();
        __transaction_atomic {
            rmw_u64[0] += 5;
            rmw_u64[1] *= 3;
            rmw_double += 1.0;
            rmw_u8++;
            if (cancel)
                __transaction_cancel;
        }
        TMTEST_FORGET_MEMORY();
        if (cancel)
            TMTEST_CHECK(rmw_u64[0] == 10 && rmw_u64[1] == 20 && rmw_double == 0.5 && rmw_u8 == 200,
                         "%s: read-modify-write stores (x += c) survived a cancel: %lu %lu %g %u,"
                         " expected 10 20 0.5 200", who, (unsigned long)rmw_u64[0],
                         (unsigned long)rmw_u64[1], rmw_double, rmw_u8);
        else
            TMTEST_CHECK(rmw_u64[0] == 15 && rmw_u64[1] == 60 && rmw_double == 1.5 && rmw_u8 == 201,
                         "%s: committed read-modify-write stores give %lu %lu %g %u, expected "
                         "15 60 1.5 201", who, (unsigned long)rmw_u64[0],
                         (unsigned long)rmw_u64[1], rmw_double, rmw_u8);
    }
}

static int check_rmw = 1;

static void all_cases(const char *who)
{
    check_u8(who);
    check_u16(who);
    check_u32(who);
    check_u64(who);
    check_float(who);
    check_double(who);
    check_long_double(who);
    check_complex_float(who);
    check_complex_double(who);
    check_complex_long_double(who);
    check_m64(who);
    check_m128(who);
    if (check_rmw)
        check_read_modify_write(who);
    tmtest_check_no_violations(who);
}

/* Two threads at once: each checks its own globals only in turn, guarded by a lock-free
 * turn flag, while the other keeps running unrelated transactions. */
static atomic_int turn;
static long background_counter;

static void concurrent_role(int index)
{
    for (int round = 0; round < 2; round++) {
        if (round == index) {
            char who[64];
            snprintf(who, sizeof who, "thread %d with another thread running transactions", index);
            for (int repeat = 0; repeat < 20; repeat++)
                all_cases(who);
            atomic_store(&turn, round + 1);
        } else {
            while (atomic_load(&turn) == round) {
                __transaction_atomic {
                    background_counter++;
                }
            }
        }
    }
}

int main(int argc, char **argv)
{
    tmtest_init(argc, argv,
                "Cancels (and commits) transactions storing every access type in globals, heap,\n"
                "the transaction's own frame and locals, directly and through transaction_safe\n"
                "function pointers; single-threaded, then next to a busy thread.");
    if (tmtest_runtime_is_gcc()) {
        check_rmw = 0;
        tmtest_note("not checking read-modify-write cancels on GCC's libitm: its serial method "
                    "(used for cancellable transactions of a single thread) does not undo-log "
                    "RfW/WaW stores, so x += c survives a cancel there");
    }
    for (int repeat = 0; repeat < 20; repeat++)
        all_cases("single-threaded process");
    tmtest_note("single thread: every type rolled back on cancel and kept on commit");
    tmtest_run_threads(2, concurrent_role);
    tmtest_note("two threads: every type rolled back on cancel and kept on commit "
                "(%ld background transactions)", background_counter);
    return 0;
}
