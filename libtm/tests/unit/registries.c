/* Unit tests of the registries: the algorithms (algorithms.def, algo.h), including the columns
 * that only the build and the scripts read (through libtm-stats --list). */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <cmocka.h>

#include "algo.h"

/* The columns of algorithms.def say what the algorithms are. */
static void algorithms_def_matches_the_algorithms(void **state)
{
    (void)state;
    static const struct { const char *name; bool speculative, owners; } rows[] = {
#define TM_ALGORITHM(name, speculative, owners) { #name, speculative, owners },
#include "algorithms.def"
#undef TM_ALGORITHM
    };
    assert_int_equal(sizeof rows / sizeof rows[0], TM_ALGO_COUNT);
    for (int i = 0; i < TM_ALGO_COUNT; i++) {
        assert_string_equal(tm_algos[i]->name, rows[i].name);
        assert_int_equal(tm_algos[i]->id, i);
        assert_int_equal(tm_algos[i]->speculative, rows[i].speculative);
        assert_ptr_equal(tm_algo_by_name(rows[i].name), tm_algos[i]);
        /* Only a speculative algorithm can meet an owner. */
        assert_true(!rows[i].owners || rows[i].speculative);
    }
    assert_null(tm_algo_by_name("fastest"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(algorithms_def_matches_the_algorithms),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
