/* clc_move as the bot sends it: known bytes (with and without the sequence checksum), exact
 * 16-bit angles, and a whole scripted stream surviving encode -> decode unchanged.
 *   test_move [CHKTBL]   (the checksum cases are skipped when the table is missing) */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "qw_clc_move.h"
#include "qw_protocol.h"
#include "script.h"

static const char *chktbl_path;

static void three_cmds(qw_rec_cmd cmds[3])
{
    memset(cmds, 0, 3 * sizeof *cmds);
    cmds[2].msec = 13;
    cmds[2].angles[1] = 0x4000;
    cmds[2].forwardmove = 320;
    cmds[2].buttons = 1;
}

/* clc_move, checksum, loss, delta(zero->zero), delta(zero->zero), delta(zero->cmd) */
static const uint8_t expected_move[] = {
    3, 0x00, 0,
    0x00, 0x00,
    0x00, 0x00,
    0xa4, 0x00, 0x40, 0x40, 0x01, 0x01, 0x0d,
};

static void test_move_known_bytes_without_checksum(void **state)
{
    (void)state;
    qw_rec_cmd cmds[3];
    three_cmds(cmds);
    uint8_t buf[64];
    qw_sizebuf sb;
    qw_sizebuf_init(&sb, buf, sizeof buf);
    qw_clc_write_move(&sb, NULL, 1, 0, cmds);
    assert_false(sb.overflowed);
    assert_int_equal(sb.cursize, sizeof expected_move);
    assert_memory_equal(buf, expected_move, sizeof expected_move);
}

static void test_move_checksum_known_values(void **state)
{
    (void)state;
    qw_chktbl tbl;
    char err[512];
    if (!chktbl_path || !qw_chktbl_load(&tbl, chktbl_path, err, sizeof err)) {
        print_message("no checksum table (%s): checksum bytes not checked\n",
                      chktbl_path ? chktbl_path : "no path given");
        skip();
    }
    /* values computed independently from the table, per shared/quake/README.md */
    static const struct { int32_t seq; uint8_t byte; } known[] = {
        {1, 0x0d}, {1000, 0x55}, {123456, 0xd8}};
    qw_rec_cmd cmds[3];
    three_cmds(cmds);
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
        uint8_t buf[64];
        qw_sizebuf sb;
        qw_sizebuf_init(&sb, buf, sizeof buf);
        qw_clc_write_move(&sb, &tbl, known[i].seq, 0, cmds);
        assert_int_equal(buf[1], known[i].byte);
        assert_memory_equal(buf + 2, expected_move + 2, sizeof expected_move - 2);
    }
}

static void test_delta_request(void **state)
{
    (void)state;
    uint8_t buf[4];
    qw_sizebuf sb;
    qw_sizebuf_init(&sb, buf, sizeof buf);
    qw_clc_write_delta(&sb, 0x1234);
    assert_int_equal(sb.cursize, 2);
    assert_int_equal(buf[0], clc_delta);
    assert_int_equal(buf[1], 0x34);
}

/* Every 16-bit angle goes through the float usercmd and comes out as the same two bytes. */
static void test_angles_are_wire_exact(void **state)
{
    (void)state;
    for (uint32_t a = 0; a < 65536; a++) {
        qw_rec_cmd c = {0};
        c.angles[0] = (uint16_t)a;
        qw_usercmd u;
        qw_rec_cmd_to_usercmd(&c, &u);
        uint8_t buf[4];
        qw_sizebuf sb;
        qw_sizebuf_init(&sb, buf, sizeof buf);
        qw_write_angle16(&sb, u.angles[0]);
        uint16_t back = (uint16_t)(buf[0] | buf[1] << 8);
        if (back != a)
            fail_msg("angle %u came back as %u", a, back);
    }
}

static void usercmd_to_cmd(const qw_usercmd *u, qw_rec_cmd *c)
{
    memset(c, 0, sizeof *c);
    c->msec = u->msec;
    for (int i = 0; i < 3; i++)
        c->angles[i] = (uint16_t)((int)(u->angles[i] * 65536.0f / 360.0f) & 65535);
    c->forwardmove = u->forwardmove;
    c->sidemove = u->sidemove;
    c->upmove = u->upmove;
    c->buttons = u->buttons;
    c->impulse = u->impulse;
}

/* A scripted stream sent move by move (three commands per clc_move, as the bot does) decodes,
 * the way a server reads it, to exactly the recorded commands. */
static void test_stream_survives_the_wire(void **state)
{
    (void)state;
    qw_rec_stream s = {0};
    assert_int_equal(qwbot_script_generate(&s, 99, 3, 3000, 13), 0);
    qw_rec_cmd history[3] = {{0}};
    uint32_t moves = 0;
    for (uint32_t i = 0; i < s.count; i++) {
        const qw_rec_record *r = &s.records[i];
        if (r->kind != QW_REC_MOVE)
            continue;
        history[0] = history[1];
        history[1] = history[2];
        history[2] = r->cmd;
        uint8_t buf[128];
        qw_sizebuf sb;
        qw_sizebuf_init(&sb, buf, sizeof buf);
        qw_clc_write_move(&sb, NULL, (int32_t)i + 1, 0, history);
        assert_false(sb.overflowed);

        qw_msgreader rd;
        qw_reader_init(&rd, buf, sb.cursize);
        assert_int_equal(qw_read_byte(&rd), clc_move);
        qw_read_byte(&rd);
        qw_read_byte(&rd);
        static const qw_usercmd zero;
        qw_usercmd u[3];
        assert_true(qw_usercmd_read_delta(&rd, &zero, &u[0]));
        assert_true(qw_usercmd_read_delta(&rd, &u[0], &u[1]));
        assert_true(qw_usercmd_read_delta(&rd, &u[1], &u[2]));
        assert_int_equal(qw_reader_remaining(&rd), 0);
        for (int k = 0; k < 3; k++) {
            qw_rec_cmd back;
            usercmd_to_cmd(&u[k], &back);
            assert_memory_equal(&back, &history[k], sizeof back);
        }
        moves++;
    }
    assert_int_equal(moves, 3000);
    for (uint32_t i = 0; i < s.count; i++)
        free(s.records[i].text);
    free(s.records);
}

int main(int argc, char **argv)
{
    chktbl_path = argc > 1 ? argv[1] : NULL;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_move_known_bytes_without_checksum),
        cmocka_unit_test(test_move_checksum_known_values),
        cmocka_unit_test(test_delta_request),
        cmocka_unit_test(test_angles_are_wire_exact),
        cmocka_unit_test(test_stream_survives_the_wire),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
