/* qw_playerinfo: known bytes for a player seen by itself, round trip for another player. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "qw_playerinfo.h"

static void test_self_known_bytes(void **state)
{
    (void)state;
    qw_playerinfo pi = {.slot = 2, .origin = {8, -8, 24}, .frame = 1, .modelindex = 1};
    uint8_t buf[64];
    qw_sizebuf sb;
    qw_sizebuf_init(&sb, buf, sizeof buf);
    qw_playerinfo_write(&sb, &pi, true, 1);
    static const uint8_t expect[] = {svc_playerinfo, 2, 0, 0, 0x40, 0, 0xc0, 0xff, 0xc0,
                                     0, 1};
    assert_int_equal(sb.cursize, sizeof expect);
    assert_memory_equal(buf, expect, sizeof expect);
}

static void test_other_player_round_trip(void **state)
{
    (void)state;
    qw_playerinfo pi = {.slot = 5, .origin = {100, 200, -50}, .frame = 3, .msec = 12,
                        .velocity = {320, 0, -100}, .modelindex = 1, .skinnum = 1,
                        .effects = EF_DIMLIGHT, .dead = true};
    pi.command.angles[1] = 90.0f;
    pi.command.forwardmove = 400;
    pi.command.msec = 13;
    uint8_t buf[64];
    qw_sizebuf sb;
    qw_sizebuf_init(&sb, buf, sizeof buf);
    qw_playerinfo_write(&sb, &pi, false, 1);
    qw_msgreader r;
    qw_reader_init(&r, buf, sb.cursize);
    assert_int_equal(qw_read_byte(&r), svc_playerinfo);
    qw_playerinfo got;
    assert_true(qw_playerinfo_read(&r, &got));
    assert_int_equal(qw_reader_remaining(&r), 0);
    assert_int_equal(got.slot, 5);
    assert_int_equal(got.flags, PF_MSEC | PF_COMMAND | PF_VELOCITY1 | PF_VELOCITY3 |
                                    PF_SKINNUM | PF_EFFECTS | PF_DEAD);
    assert_true(got.origin[2] == -50.0f);
    assert_int_equal(got.msec, 12);
    assert_true(got.command.angles[1] == 90.0f);
    assert_int_equal(got.command.forwardmove, 400);
    assert_true(got.velocity[0] == 320.0f && got.velocity[2] == -100.0f);
    assert_true(got.dead);
    assert_int_equal(got.modelindex, 0); /* not sent: the client assumes the player model */

    qw_reader_init(&r, buf + 1, sb.cursize - 2);
    assert_false(qw_playerinfo_read(&r, &got));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_self_known_bytes),
        cmocka_unit_test(test_other_player_round_trip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
