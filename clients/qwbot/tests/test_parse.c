/* What the bot does with server messages: the sign-on answers, stuffed commands, its own
 * state (origin, frags, health), skipping every svc of quakeworld.md, and surviving damaged
 * or random input. No sockets: messages are parsed straight from buffers. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "every_svc.h"
#include "qw_msg.h"
#include "qw_playerinfo.h"
#include "rng.h"
#include "run.h"
#include "server_parse.h"

static qwbot_run run;
static qwbot_bot bot;

static int setup(void **state)
{
    (void)state;
    memset(&run, 0, sizeof run);
    memset(&bot, 0, sizeof bot);
    run.map = "m";
    run.opt.basedir = "/nonexistent"; /* holds no map: a map change fails the bot */
    run.checksum2 = 12345;
    run.interval_ms = 13;
    bot.run = &run;
    bot.fd = -1;
    snprintf(bot.name, sizeof bot.name, "testbot");
    qw_netchan_init(&bot.nc, true, 7);
    bot.state = BOT_SIGNON;
    bot.spawncount = 5;
    bot.playernum = 3;
    return 0;
}

/* The string commands the bot queued on its reliable channel, joined with '|'. */
static const char *queued(void)
{
    static char out[4096];
    out[0] = 0;
    qw_msgreader r;
    qw_reader_init(&r, bot.nc.message_buf, bot.nc.message.cursize);
    char text[1100];
    while (qw_reader_remaining(&r) > 0) {
        assert_int_equal(qw_read_byte(&r), clc_stringcmd);
        qw_read_string(&r, text, sizeof text);
        assert_false(r.bad);
        if (out[0])
            strcat(out, "|");
        strcat(out, text);
    }
    qw_sizebuf_clear(&bot.nc.message);
    return out;
}

static bool parse(const uint8_t *data, size_t len)
{
    qw_msgreader r;
    qw_reader_init(&r, data, len);
    return qwbot_parse_server_message(&bot, &r);
}

static void write_serverdata(qw_sizebuf *sb, bool with_extensions)
{
    qw_write_byte(sb, svc_serverdata);
    if (with_extensions) {
        qw_write_long(sb, 0x58455446);   /* FTEX + mask */
        qw_write_long(sb, 0x1234);
    }
    qw_write_long(sb, 28);
    qw_write_long(sb, 5);
    qw_write_string(sb, "qw");
    qw_write_byte(sb, 3);
    qw_write_string(sb, "a title");
    for (int i = 0; i < 10; i++)
        qw_write_float(sb, 800.0f);
}

static void write_list(qw_sizebuf *sb, int svc, int start, const char *const *names, int next)
{
    qw_write_byte(sb, svc);
    qw_write_byte(sb, start);
    for (; *names; names++)
        qw_write_string(sb, *names);
    qw_write_byte(sb, 0);
    qw_write_byte(sb, next);
}

static void test_signon_answers(void **state)
{
    (void)state;
    uint8_t buf[1024];
    qw_sizebuf sb;
    for (int ext = 0; ext < 2; ext++) {
        bot.spawncount = 0;
        bot.playernum = 0;
        qw_sizebuf_init(&sb, buf, sizeof buf);
        write_serverdata(&sb, ext);
        assert_true(parse(buf, sb.cursize));
        assert_int_equal(bot.spawncount, 5);
        assert_int_equal(bot.playernum, 3);
        assert_string_equal(bot.gamedir, "qw");
        assert_string_equal(queued(), "soundlist 5 0");
    }
    static const char *const sounds1[] = {"a.wav", "b.wav", NULL};
    static const char *const sounds2[] = {"c.wav", NULL};
    static const char *const models[] = {"maps/m.bsp", "progs/player.mdl", "*1", NULL};
    qw_sizebuf_init(&sb, buf, sizeof buf);
    write_list(&sb, svc_soundlist, 0, sounds1, 2);
    assert_true(parse(buf, sb.cursize));
    assert_string_equal(queued(), "soundlist 5 2");
    qw_sizebuf_init(&sb, buf, sizeof buf);
    write_list(&sb, svc_soundlist, 2, sounds2, 0);
    assert_true(parse(buf, sb.cursize));
    assert_string_equal(queued(), "modellist 5 0");
    qw_sizebuf_init(&sb, buf, sizeof buf);
    write_list(&sb, svc_modellist, 0, models, 0);
    assert_true(parse(buf, sb.cursize));
    assert_string_equal(queued(), "prespawn 5 0 12345");
    assert_int_equal(bot.state, BOT_SIGNON);
}

static void test_wrong_map_fails_the_bot(void **state)
{
    (void)state;
    static const char *const models[] = {"maps/other.bsp", NULL};
    uint8_t buf[256];
    qw_sizebuf sb;
    qw_sizebuf_init(&sb, buf, sizeof buf);
    write_list(&sb, svc_modellist, 0, models, 0);
    assert_false(parse(buf, sb.cursize));
    assert_int_equal(bot.state, BOT_FAILED);
    assert_non_null(strstr(bot.fail_reason, "maps/other.bsp"));
    assert_non_null(strstr(bot.fail_reason, "-basedir does not hold"));
    assert_string_equal(queued(), "");
}

static void stuff(const char *text)
{
    uint8_t buf[2048];
    qw_sizebuf sb;
    qw_sizebuf_init(&sb, buf, sizeof buf);
    qw_write_byte(&sb, svc_stufftext);
    qw_write_string(&sb, text);
    assert_true(parse(buf, sb.cursize));
}

static void test_stufftext_commands(void **state)
{
    (void)state;
    stuff("cmd pext\n");
    assert_string_equal(queued(), "pext");
    stuff("cmd new\n");
    assert_string_equal(queued(), "new");
    stuff("fullserverinfo \"\\maxfps\\77\"\ncmd prespawn 5 3\n");
    assert_string_equal(queued(), "prespawn 5 3");
    stuff("cmd spawn 5 0\n");
    assert_string_equal(queued(), "spawn 5 0");
    stuff("alias a \"cmd x; cmd y\"\ninfoset;wait;cmd ack infoset\n");
    assert_string_equal(queued(), "ack infoset");
    assert_false(bot.begin_sent);
    stuff("skins\n");
    assert_string_equal(queued(), "begin 5");
    assert_true(bot.begin_sent);
    stuff("reconnect\n");
    assert_string_equal(queued(), "new");
    assert_false(bot.begin_sent);
}

static void test_own_state(void **state)
{
    (void)state;
    uint8_t buf[512];
    qw_sizebuf sb;
    qw_sizebuf_init(&sb, buf, sizeof buf);
    qw_playerinfo other = {.slot = 1, .origin = {10, 20, 30}};
    qw_playerinfo self = {.slot = 3, .origin = {-64, 128.5f, 24}, .weaponframe = 2};
    qw_playerinfo_write(&sb, &other, false, 1);
    qw_playerinfo_write(&sb, &self, true, 1);
    qw_write_byte(&sb, svc_updatefrags);
    qw_write_byte(&sb, 3);
    qw_write_short(&sb, -2);
    qw_write_byte(&sb, svc_updatefrags);
    qw_write_byte(&sb, 1);
    qw_write_short(&sb, 9);
    qw_write_byte(&sb, svc_updatestat);
    qw_write_byte(&sb, STAT_HEALTH);
    qw_write_byte(&sb, 75);
    assert_true(parse(buf, sb.cursize));
    assert_true(bot.have_origin);
    assert_true(bot.origin[0] == -64 && bot.origin[1] == 128.5f && bot.origin[2] == 24);
    assert_int_equal(bot.frags, -2);
    assert_int_equal(bot.health, 75);
    qw_sizebuf_init(&sb, buf, sizeof buf);
    qw_write_byte(&sb, svc_updatestatlong);
    qw_write_byte(&sb, STAT_HEALTH);
    qw_write_long(&sb, 250);
    assert_true(parse(buf, sb.cursize));
    assert_int_equal(bot.health, 250);
}

/* One of every message a protocol-28 server sends about the game and the world
 * (every_svc.h), then the bot's frags: reaching the frags proves that every message before
 * was skipped with exactly its size. */
static size_t write_every_svc_then_frags(uint8_t *buf, size_t size)
{
    qw_sizebuf sb;
    qw_sizebuf_init(&sb, buf, size);
    int count;
    write_every_svc(&sb, NULL, &count);
    qw_write_byte(&sb, svc_updatefrags);
    qw_write_byte(&sb, 3);
    qw_write_short(&sb, 42);
    assert_false(sb.overflowed);
    return sb.cursize;
}

static void test_every_svc_is_skipped(void **state)
{
    (void)state;
    uint8_t buf[1400];
    size_t len = write_every_svc_then_frags(buf, sizeof buf);
    bot.frags = 0;
    assert_true(parse(buf, len));
    assert_int_equal(bot.frags, 42);
    assert_int_equal(bot.state, BOT_SIGNON);
    assert_int_equal(bot.valid_sequence, bot.nc.incoming_sequence);
    assert_string_equal(queued(), "");
}

static void test_damaged_input_is_safe(void **state)
{
    (void)state;
    uint8_t buf[1400];
    size_t len = write_every_svc_then_frags(buf, sizeof buf);
    /* every truncation stops early, never reads past the end */
    for (size_t n = 0; n < len; n++) {
        bot.state = BOT_SIGNON;
        bot.frags = 0;
        uint8_t *copy = malloc(n ? n : 1);
        memcpy(copy, buf, n);
        parse(copy, n);
        free(copy);
        assert_int_equal(bot.frags, 0);
        qw_sizebuf_clear(&bot.nc.message);
    }
    /* unknown message numbers stop the parse */
    uint8_t unknown[] = {svc_nop, 99, svc_updatefrags, 3, 1, 0};
    bot.frags = 0;
    assert_false(parse(unknown, sizeof unknown));
    assert_int_equal(bot.frags, 0);
    /* random bytes (seeded): no crash, no runaway state */
    qwbot_rng rng;
    qwbot_rng_seed(&rng, 2024, 0);
    uint8_t noise[1400];
    for (int round = 0; round < 20000; round++) {
        size_t n = (size_t)qwbot_rng_range(&rng, 0, sizeof noise);
        for (size_t i = 0; i < n; i++)
            noise[i] = (uint8_t)qwbot_rng_next(&rng);
        if (round % 2)
            noise[0] = (uint8_t)qwbot_rng_range(&rng, 1, 54);   /* a valid svc first */
        bot.state = BOT_SIGNON;
        parse(noise, n);
        qw_sizebuf_clear(&bot.nc.message);
    }
}

static void test_disconnect_while_playing_fails(void **state)
{
    (void)state;
    bot.state = BOT_PLAYING;
    uint8_t msg[64];
    qw_sizebuf sb;
    qw_sizebuf_init(&sb, msg, sizeof msg);
    qw_write_byte(&sb, svc_print);
    qw_write_byte(&sb, PRINT_HIGH);
    qw_write_string(&sb, "kicked\n");
    qw_write_byte(&sb, svc_disconnect);
    parse(msg, sb.cursize);
    assert_int_equal(bot.state, BOT_FAILED);
    assert_non_null(strstr(bot.fail_reason, "kicked"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_signon_answers, setup),
        cmocka_unit_test_setup(test_wrong_map_fails_the_bot, setup),
        cmocka_unit_test_setup(test_stufftext_commands, setup),
        cmocka_unit_test_setup(test_own_state, setup),
        cmocka_unit_test_setup(test_every_svc_is_skipped, setup),
        cmocka_unit_test_setup(test_damaged_input_is_safe, setup),
        cmocka_unit_test_setup(test_disconnect_while_playing_fails, setup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
