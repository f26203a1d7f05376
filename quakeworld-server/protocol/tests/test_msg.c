/* qw_msg: known bytes for every writer, bounds checks for every reader. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "qw_msg.h"

static void test_writers_known_bytes(void **state)
{
    (void)state;
    uint8_t buf[64];
    qw_sizebuf sb;
    qw_sizebuf_init(&sb, buf, sizeof buf);
    qw_write_byte(&sb, 0x12);
    qw_write_char(&sb, -1);
    qw_write_short(&sb, -2);
    qw_write_long(&sb, 0x12345678);
    qw_write_float(&sb, 1.0f);
    qw_write_string(&sb, "ab");
    qw_write_coord(&sb, 1.5f);
    qw_write_coord(&sb, -1.0f);
    qw_write_angle8(&sb, 90.0f);
    qw_write_angle16(&sb, 90.0f);
    qw_write_data(&sb, "\x01\x02", 2);
    static const uint8_t expect[] = {
        0x12, 0xff, 0xfe, 0xff, 0x78, 0x56, 0x34, 0x12, 0x00, 0x00, 0x80, 0x3f,
        'a', 'b', 0x00, 0x0c, 0x00, 0xf8, 0xff, 0x40, 0x00, 0x40, 0x01, 0x02};
    assert_int_equal(sb.cursize, sizeof expect);
    assert_memory_equal(buf, expect, sizeof expect);
    assert_false(sb.overflowed);
}

static void test_overflow_flag(void **state)
{
    (void)state;
    uint8_t buf[3];
    qw_sizebuf sb;
    qw_sizebuf_init(&sb, buf, sizeof buf);
    qw_write_long(&sb, 1);
    assert_true(sb.overflowed);
    assert_int_equal(sb.cursize, 0);
    qw_write_short(&sb, 0x0201);
    assert_int_equal(sb.cursize, 2);
    qw_write_string(&sb, "xy");
    assert_int_equal(sb.cursize, 2);
    qw_sizebuf_clear(&sb);
    assert_false(sb.overflowed);
    assert_int_equal(qw_sizebuf_free_space(&sb), 3);
}

static void test_readers_round_trip(void **state)
{
    (void)state;
    static const uint8_t in[] = {0x12, 0xff, 0xfe, 0xff, 0x78, 0x56, 0x34, 0x12, 0x00,
                                 0x00, 0x80, 0x3f, 'a', 'b', 0x00, 0x0c, 0x00, 0x40,
                                 0x00, 0x40};
    qw_msgreader r;
    char s[8];
    qw_reader_init(&r, in, sizeof in);
    assert_int_equal(qw_read_byte(&r), 0x12);
    assert_int_equal(qw_read_char(&r), -1);
    assert_int_equal(qw_read_short(&r), -2);
    assert_int_equal(qw_read_long(&r), 0x12345678);
    assert_true(qw_read_float(&r) == 1.0f);
    assert_string_equal(qw_read_string(&r, s, sizeof s), "ab");
    assert_true(qw_read_coord(&r) == 1.5f);
    assert_true(qw_read_angle8(&r) == 90.0f);
    assert_true(qw_read_angle16(&r) == 90.0f);
    assert_false(r.bad);
    assert_int_equal(qw_reader_remaining(&r), 0);
    assert_int_equal(qw_read_byte(&r), -1);
    assert_true(r.bad);
}

static void test_truncated_reads_set_bad(void **state)
{
    (void)state;
    static const uint8_t in[] = {0x01, 0x02, 0x03};
    qw_msgreader r;
    qw_reader_init(&r, in, sizeof in);
    assert_int_equal(qw_read_long(&r), -1);
    assert_true(r.bad);
    /* once bad, nothing more is read */
    assert_int_equal(qw_read_byte(&r), -1);
    uint8_t out[2];
    assert_false(qw_read_data(&r, out, 1));
}

static void test_strings_bounded(void **state)
{
    (void)state;
    char s[4];
    qw_msgreader r;
    qw_reader_init(&r, "abcdef", 7);
    assert_string_equal(qw_read_string(&r, s, sizeof s), "");
    assert_true(r.bad);

    qw_reader_init(&r, "abc", 3); /* no terminating NUL */
    assert_string_equal(qw_read_string(&r, s, sizeof s), "");
    assert_true(r.bad);

    qw_reader_init(&r, "abc", 3);
    assert_string_equal(qw_read_string_or_end(&r, s, sizeof s), "abc");
    assert_false(r.bad);

    char big[8];
    assert_int_equal(qw_strlcpy(big, "truncated", sizeof big), 7);
    assert_string_equal(big, "truncat");
    assert_int_equal(qw_strlen(big), 7);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_writers_known_bytes),
        cmocka_unit_test(test_overflow_flag),
        cmocka_unit_test(test_readers_round_trip),
        cmocka_unit_test(test_truncated_reads_set_bad),
        cmocka_unit_test(test_strings_bounded),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
