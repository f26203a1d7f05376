/* qw_usercmd: delta coding with known bytes, round trips, truncation. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "qw_usercmd.h"

static void test_delta_from_zero_known_bytes(void **state)
{
    (void)state;
    qw_usercmd zero = {0}, cmd = {0};
    cmd.msec = 13;
    cmd.angles[1] = 90.0f;
    cmd.forwardmove = 400;
    cmd.buttons = QW_BUTTON_ATTACK;
    uint8_t buf[32];
    qw_sizebuf sb;
    qw_sizebuf_init(&sb, buf, sizeof buf);
    qw_usercmd_write_delta(&sb, &zero, &cmd);
    static const uint8_t expect[] = {CM_ANGLE2 | CM_FORWARD | CM_BUTTONS, 0x00, 0x40,
                                     0x90, 0x01, 0x01, 0x0d};
    assert_int_equal(sb.cursize, sizeof expect);
    assert_memory_equal(buf, expect, sizeof expect);

    qw_msgreader r;
    qw_usercmd back;
    qw_reader_init(&r, buf, sb.cursize);
    assert_true(qw_usercmd_read_delta(&r, &zero, &back));
    assert_int_equal(back.msec, 13);
    assert_true(back.angles[1] == 90.0f);
    assert_int_equal(back.forwardmove, 400);
    assert_int_equal(back.buttons, 1);
    assert_int_equal(back.sidemove, 0);
}

static void test_unchanged_cmd_is_two_bytes(void **state)
{
    (void)state;
    qw_usercmd a = {.msec = 20, .angles = {10, 20, 0}, .sidemove = -350, .impulse = 2};
    qw_usercmd_quantize(&a);
    qw_usercmd b = a;
    uint8_t buf[32];
    qw_sizebuf sb;
    qw_sizebuf_init(&sb, buf, sizeof buf);
    qw_usercmd_write_delta(&sb, &a, &b);
    assert_int_equal(sb.cursize, 2);
    assert_int_equal(buf[0], 0);
    assert_int_equal(buf[1], 20);

    /* three chained commands as in clc_move */
    qw_usercmd zero = {0}, c[3] = {a, a, a}, got[3];
    c[1].upmove = 200;
    c[2].angles[0] = -30.0f;
    qw_usercmd_quantize(&c[2]);
    qw_sizebuf_clear(&sb);
    qw_usercmd_write_delta(&sb, &zero, &c[0]);
    qw_usercmd_write_delta(&sb, &c[0], &c[1]);
    qw_usercmd_write_delta(&sb, &c[1], &c[2]);
    qw_msgreader r;
    qw_reader_init(&r, buf, sb.cursize);
    assert_true(qw_usercmd_read_delta(&r, &zero, &got[0]));
    assert_true(qw_usercmd_read_delta(&r, &got[0], &got[1]));
    assert_true(qw_usercmd_read_delta(&r, &got[1], &got[2]));
    assert_int_equal(qw_reader_remaining(&r), 0);
    assert_int_equal(got[1].upmove, 200);
    assert_int_equal(got[2].sidemove, -350);
    assert_int_equal(got[2].impulse, 2);
    assert_true(got[2].angles[0] == c[2].angles[0]);
}

static void test_truncated_delta_fails(void **state)
{
    (void)state;
    static const uint8_t in[] = {CM_FORWARD, 0x90}; /* short cut in half, no msec */
    qw_usercmd zero = {0}, out;
    qw_msgreader r;
    qw_reader_init(&r, in, sizeof in);
    assert_false(qw_usercmd_read_delta(&r, &zero, &out));
    assert_true(r.bad);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_delta_from_zero_known_bytes),
        cmocka_unit_test(test_unchanged_cmd_is_two_bytes),
        cmocka_unit_test(test_truncated_delta_fails),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
