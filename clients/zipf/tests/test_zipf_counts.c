/* Unit tests of the Zipf counts and the seeded shuffle. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "zipf_counts.h"

static unsigned long sum(const unsigned long *counts, size_t n)
{
    unsigned long total = 0;
    for (size_t i = 0; i < n; i++)
        total += counts[i];
    return total;
}

static void test_counts_sum_and_decrease(void **state)
{
    (void)state;
    static unsigned long counts[2000];
    const double exponents[] = {0.1, 1, 2};
    for (int e = 0; e < 3; e++) {
        assert_int_equal(zipf_counts(exponents[e], 2000, 10000, counts), 0);
        assert_int_equal(sum(counts, 2000), 10000);
        for (size_t k = 1; k < 2000; k++)
            assert_true(counts[k] <= counts[k - 1]);
    }
}

/* s = 1, n = 4: H = 25/12, shares 12/25, 6/25, 4/25, 3/25 of 100 = 48, 24, 16, 12. */
static void test_counts_exact_values(void **state)
{
    (void)state;
    unsigned long counts[4];
    assert_int_equal(zipf_counts(1, 4, 100, counts), 0);
    assert_int_equal(counts[0], 48);
    assert_int_equal(counts[1], 24);
    assert_int_equal(counts[2], 16);
    assert_int_equal(counts[3], 12);
    /* s = 0 is uniform; 10 over 4 gives 3,3,2,2 (ties go to the better rank). */
    assert_int_equal(zipf_counts(0, 4, 10, counts), 0);
    assert_int_equal(counts[0], 3);
    assert_int_equal(counts[1], 3);
    assert_int_equal(counts[2], 2);
    assert_int_equal(counts[3], 2);
}

static void test_counts_reject_bad_input(void **state)
{
    (void)state;
    unsigned long counts[2];
    assert_int_equal(zipf_counts(-1, 2, 10, counts), -1);
    assert_int_equal(zipf_counts(1, 0, 10, counts), -1);
    assert_int_equal(zipf_counts(1, 2, 10, NULL), -1);
}

static void test_shuffle_is_a_seeded_permutation(void **state)
{
    (void)state;
    int values[50];
    void *a[50], *b[50], *c[50];
    for (int i = 0; i < 50; i++)
        a[i] = b[i] = c[i] = &values[i];
    zipf_shuffle(a, 50, 42);
    zipf_shuffle(b, 50, 42);
    zipf_shuffle(c, 50, 43);
    int same_as_b = 1, same_as_c = 1, seen[50] = {0};
    for (int i = 0; i < 50; i++) {
        same_as_b &= a[i] == b[i];
        same_as_c &= a[i] == c[i];
        seen[(int *)a[i] - values]++;
    }
    assert_true(same_as_b);
    assert_false(same_as_c);
    for (int i = 0; i < 50; i++)
        assert_int_equal(seen[i], 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_counts_sum_and_decrease),
        cmocka_unit_test(test_counts_exact_values),
        cmocka_unit_test(test_counts_reject_bad_input),
        cmocka_unit_test(test_shuffle_is_a_seeded_permutation),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
