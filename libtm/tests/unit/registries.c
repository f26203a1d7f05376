/* Unit tests of the registries: the algorithms (algorithms.def, algo.h) and the contention
 * managers (managers.def, cm.h) and their selection (contention.c): names, the default, the
 * columns that only the build and scripts read, which managers hear transaction ends. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "contention.h"
#include "libtm.h"

/* The columns of algorithms.def (read by libtm-stats --list) say what the algorithms are. */
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
}

static void every_manager_is_found_by_its_name(void **state)
{
    (void)state;
    assert_int_equal(TM_CM_COUNT, 9);
    for (int i = 0; i < TM_CM_COUNT; i++) {
        assert_int_equal(tm_cms[i]->id, i);
        assert_ptr_equal(tm_cm_by_name(tm_cms[i]->name), tm_cms[i]);
        assert_non_null(strstr(tm_cm_names(), tm_cms[i]->name));
    }
    assert_null(tm_cm_by_name("fastest"));
    assert_null(tm_cm_by_name(""));
}

static void backoff_is_the_default(void **state)
{
    (void)state;
    unsetenv("LIBTM_CM");
    tm_cm_init();
    assert_string_equal(tm_config.cm->name, "backoff");
    assert_ptr_equal(tm_cms[0], &tm_cm_backoff);
    setenv("LIBTM_CM", "handoff", 1);
    tm_cm_init();
    assert_ptr_equal(tm_config.cm, &tm_cm_handoff);
    unsetenv("LIBTM_CM");
}

/* Only managers with an `ended` operation make a transaction's end call them. */
static void selection_says_whether_ends_are_heard(void **state)
{
    (void)state;
    for (int i = 0; i < TM_CM_COUNT; i++) {
        assert_int_equal(libtm_set_contention_manager(tm_cms[i]->name), 0);
        assert_ptr_equal(tm_config.cm, tm_cms[i]);
        assert_int_equal(tm_config.cm_hears_ends, tm_cms[i]->ended != NULL);
    }
    assert_false(tm_cm_by_name("backoff")->ended);   /* ends cost the default nothing */
    assert_non_null(tm_cm_by_name("handoff")->ended); /* its losers sleep until the end */
    assert_int_equal(libtm_set_contention_manager("nonsense"), -1);
    assert_int_equal(libtm_set_contention_manager(NULL), -1);
    assert_ptr_equal(tm_config.cm, tm_cms[TM_CM_COUNT - 1]); /* unchanged */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(algorithms_def_matches_the_algorithms),
        cmocka_unit_test(every_manager_is_found_by_its_name),
        cmocka_unit_test(backoff_is_the_default),
        cmocka_unit_test(selection_says_whether_ends_are_heard),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
