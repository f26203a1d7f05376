/* qw_entity_delta: known bytes, remove words, no-change suppression, round trip. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "qw_entity_delta.h"

static void test_known_bytes_and_read_back(void **state)
{
    (void)state;
    qw_entity_state base = {0}, to = {0}, got;
    to.number = 5;
    to.origin[0] = 8.0f;
    to.modelindex = 3;
    to.frame = 1;
    uint8_t buf[32];
    qw_sizebuf sb;
    qw_sizebuf_init(&sb, buf, sizeof buf);
    qw_entity_delta_write(&sb, &base, &to, false);
    static const uint8_t expect[] = {0x05, 0xa2, 0x04, 0x03, 0x01, 0x40, 0x00};
    assert_int_equal(sb.cursize, sizeof expect);
    assert_memory_equal(buf, expect, sizeof expect);

    qw_msgreader r;
    qw_reader_init(&r, buf, sb.cursize);
    int word = qw_read_short(&r) & 0xffff;
    assert_true(qw_entity_delta_read(&r, word, &base, &got));
    assert_int_equal(got.number, 5);
    assert_true(got.origin[0] == 8.0f);
    assert_int_equal(got.modelindex, 3);
    assert_int_equal(got.frame, 1);
    assert_int_equal(qw_reader_remaining(&r), 0);
}

static void test_remove_and_unchanged(void **state)
{
    (void)state;
    qw_entity_state a = {.number = 7, .origin = {1, 2, 3}, .angles = {0, 45, 0},
                         .modelindex = 2};
    uint8_t buf[32];
    qw_sizebuf sb;
    qw_sizebuf_init(&sb, buf, sizeof buf);
    qw_entity_delta_write(&sb, &a, &a, false);
    assert_int_equal(sb.cursize, 0);
    qw_entity_delta_write(&sb, &a, &a, true); /* forced: just the word */
    assert_int_equal(sb.cursize, 2);
    assert_int_equal(buf[0], 7);
    assert_int_equal(buf[1], 0);
    qw_sizebuf_clear(&sb);
    qw_entity_delta_write_remove(&sb, 7);
    assert_int_equal(sb.cursize, 2);
    assert_int_equal(buf[0], 0x07);
    assert_int_equal(buf[1], 0x40);
}

static void test_all_fields_round_trip(void **state)
{
    (void)state;
    qw_entity_state from = {.number = 300}, to = {.number = 300, .flags = U_SOLID,
        .origin = {-100.5f, 2000.0f, 64.125f}, .angles = {90, 45, 270}, .modelindex = 200,
        .frame = 9, .colormap = 4, .skinnum = 2, .effects = EF_DIMLIGHT}, got;
    uint8_t buf[64];
    qw_sizebuf sb;
    qw_sizebuf_init(&sb, buf, sizeof buf);
    qw_entity_delta_write(&sb, &from, &to, false);
    qw_msgreader r;
    qw_reader_init(&r, buf, sb.cursize);
    int word = qw_read_short(&r) & 0xffff;
    assert_int_equal(word & 511, 300);
    assert_true(qw_entity_delta_read(&r, word, &from, &got));
    assert_int_equal(qw_reader_remaining(&r), 0);
    assert_true(got.origin[0] == -100.5f && got.origin[1] == 2000.0f &&
                got.origin[2] == 64.125f);
    assert_true(got.angles[1] == 45.0f);
    assert_true(got.angles[2] == -90.0f); /* angle bytes are signed */
    assert_int_equal(got.modelindex, 200);
    assert_int_equal(got.colormap, 4);
    assert_int_equal(got.skinnum, 2);
    assert_int_equal(got.effects, EF_DIMLIGHT);
    assert_int_equal(got.flags, U_SOLID);

    /* truncated: drop the last byte */
    qw_reader_init(&r, buf, sb.cursize - 1);
    word = qw_read_short(&r) & 0xffff;
    assert_false(qw_entity_delta_read(&r, word, &from, &got));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_known_bytes_and_read_back),
        cmocka_unit_test(test_remove_and_unchanged),
        cmocka_unit_test(test_all_fields_round_trip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
