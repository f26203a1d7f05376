/* qw_info: get/set/remove/validate with limits. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "qw_info.h"
#include "qw_protocol.h"

static void test_get_set_remove(void **state)
{
    (void)state;
    char info[QW_MAX_INFO_STRING] = "\\name\\bot1\\topcolor\\4";
    char v[64];
    assert_string_equal(qw_info_get(info, "name", v, sizeof v), "bot1");
    assert_string_equal(qw_info_get(info, "topcolor", v, sizeof v), "4");
    assert_string_equal(qw_info_get(info, "missing", v, sizeof v), "");
    assert_true(qw_info_set(info, sizeof info, "name", "player"));
    assert_string_equal(info, "\\topcolor\\4\\name\\player");
    assert_true(qw_info_set(info, sizeof info, "topcolor", ""));
    assert_string_equal(info, "\\name\\player");
    qw_info_remove(info, "name");
    assert_string_equal(info, "");
}

static void test_invalid_and_oversized_rejected(void **state)
{
    (void)state;
    char info[32] = "\\a\\b";
    assert_false(qw_info_set(info, sizeof info, "bad\\key", "x"));
    assert_false(qw_info_set(info, sizeof info, "k", "quo\"te"));
    assert_false(qw_info_set(info, sizeof info, "k", "semi;colon"));
    assert_false(qw_info_set(info, sizeof info, "k", "0123456789012345678901234567"));
    assert_string_equal(info, "\\a\\b");

    assert_true(qw_info_validate("\\name\\x\\rate\\2500", QW_MAX_INFO_STRING));
    assert_true(qw_info_validate("", QW_MAX_INFO_STRING));
    assert_false(qw_info_validate("name\\x", QW_MAX_INFO_STRING));
    assert_false(qw_info_validate("\\\\x", QW_MAX_INFO_STRING));
    assert_false(qw_info_validate("\\name\\x\"", QW_MAX_INFO_STRING));
    assert_false(qw_info_validate("\\name", QW_MAX_INFO_STRING));
    assert_false(qw_info_validate("\\name\\abcdef", 8));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_get_set_remove),
        cmocka_unit_test(test_invalid_and_oversized_rejected),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
