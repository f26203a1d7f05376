/* Unit tests of clone-table registration and lookup. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "clone_table.h"

void _ITM_registerTMCloneTable(void *table, size_t count);
void _ITM_deregisterTMCloneTable(void *table);

static char originals[8], clones[8], others[4];

static void lookup_finds_every_entry_of_unsorted_tables(void **state)
{
    (void)state;
    /* crtbegin hands over tables in link order; the runtime sorts them in place. */
    static void *table_a[][2] = {
        { &originals[5], &clones[5] }, { &originals[1], &clones[1] },
        { &originals[7], &clones[7] }, { &originals[3], &clones[3] },
    };
    static void *table_b[][2] = {
        { &originals[2], &clones[2] }, { &originals[0], &clones[0] },
    };
    _ITM_registerTMCloneTable(table_a, 4);
    _ITM_registerTMCloneTable(table_b, 2);
    int present[] = { 0, 1, 2, 3, 5, 7 };
    for (size_t i = 0; i < sizeof present / sizeof *present; i++)
        assert_ptr_equal(tm_clone_lookup(&originals[present[i]]), &clones[present[i]]);
    assert_null(tm_clone_lookup(&originals[4])); /* inside table_a's range, absent */
    assert_null(tm_clone_lookup(&originals[6]));
    assert_null(tm_clone_lookup(&others[0]));

    _ITM_deregisterTMCloneTable(table_a); /* dlclose */
    assert_null(tm_clone_lookup(&originals[5]));
    assert_ptr_equal(tm_clone_lookup(&originals[0]), &clones[0]);
    _ITM_deregisterTMCloneTable(table_b);
    assert_null(tm_clone_lookup(&originals[0]));
}

static void empty_tables_are_ignored(void **state)
{
    (void)state;
    _ITM_registerTMCloneTable(NULL, 0);
    _ITM_deregisterTMCloneTable(NULL);
    assert_null(tm_clone_lookup(&originals[0]));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(lookup_finds_every_entry_of_unsorted_tables),
        cmocka_unit_test(empty_tables_are_ignored),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
