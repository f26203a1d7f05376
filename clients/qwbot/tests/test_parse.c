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

#include "server_parse.h"
#include "qw_msg.h"
#include "qw_playerinfo.h"
#include "rng.h"
#include "run.h"

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

/* One of every message a protocol-28 server may send, then the bot's frags: reaching the
 * frags proves that every message before was skipped with exactly its size. */
static size_t write_every_svc(uint8_t *buf, size_t size)
{
    qw_sizebuf sb;
    qw_sizebuf_init(&sb, buf, size);
#define B(x) qw_write_byte(&sb, x)
#define S(x) qw_write_short(&sb, x)
#define L(x) qw_write_long(&sb, x)
#define STR(x) qw_write_string(&sb, x)
#define C3() do { S(8); S(-16); S(24); } while (0)
    B(svc_nop);
    B(svc_updatestat); B(STAT_ARMOR); B(50);
    B(svc_sound); S((12 << 3) | 1 | SND_VOLUME | SND_ATTENUATION); B(255); B(64); B(7); C3();
    B(svc_sound); S(12 << 3); B(7); C3();
    B(svc_print); B(PRINT_HIGH); STR("hello\n");
    B(svc_setangle); B(0); B(64); B(0);
    B(svc_lightstyle); B(0); STR("m");
    B(svc_stopsound); S(5);
    B(svc_damage); B(3); B(10); C3();
    B(svc_spawnstatic); B(2); B(0); B(0); B(0); C3(); B(0); B(0); B(0);
    B(svc_spawnbaseline); S(40); B(2); B(0); B(0); B(0); C3(); B(0); B(0); B(0);
    for (int te = TE_SPIKE; te <= TE_LIGHTNINGBLOOD; te++) {
        B(svc_temp_entity); B(te);
        if (te == TE_LIGHTNING1 || te == TE_LIGHTNING2 || te == TE_LIGHTNING3) {
            S(3); C3(); C3();
        } else if (te == TE_GUNSHOT || te == TE_BLOOD) {
            B(4); C3();
        } else {
            C3();
        }
    }
    B(svc_setpause); B(0);
    B(svc_centerprint); STR("center");
    B(svc_killedmonster); B(svc_foundsecret);
    B(svc_spawnstaticsound); C3(); B(1); B(255); B(1);
    B(svc_intermission); C3(); B(0); B(0); B(0);
    B(svc_finale); STR("the end");
    B(svc_cdtrack); B(2);
    B(svc_sellscreen); B(svc_smallkick); B(svc_bigkick);
    B(svc_updateping); B(1); S(30);
    B(svc_updateentertime); B(1); qw_write_float(&sb, 1.5f);
    B(svc_updatestatlong); B(STAT_ITEMS); L(4097);
    B(svc_muzzleflash); S(4);
    B(svc_updateuserinfo); B(1); L(77); STR("\\name\\x");
    B(svc_download); S(3); B(50); B(1); B(2); B(3);
    B(svc_download); S(-1); B(0);
    B(svc_nails); B(2); for (int i = 0; i < 12; i++) B(i);
    B(svc_nails2); B(1); for (int i = 0; i < 7; i++) B(i);
    B(svc_chokecount); B(3);
    B(svc_packetentities);
    S(40 | U_ORIGIN1 | U_FRAME | U_MOREBITS); B(U_MODEL | U_ANGLE3 | U_EFFECTS);
    B(2); B(1); B(8); S(100); B(32);           /* model, frame, effects, x, angle z */
    S(41 | U_REMOVE);
    S(0);
    B(svc_deltapacketentities); B(17);
    S(42 | U_ORIGIN2 | U_ANGLE2); S(64); B(128);
    S(0);
    B(svc_maxspeed); qw_write_float(&sb, 320.0f);
    B(svc_entgravity); qw_write_float(&sb, 1.0f);
    B(svc_setinfo); B(1); STR("team"); STR("red");
    B(svc_serverinfo); STR("maxfps"); STR("77");
    B(svc_updatepl); B(1); B(0);
    B(svc_updatefrags); B(3); S(42);
#undef B
#undef S
#undef L
#undef STR
#undef C3
    assert_false(sb.overflowed);
    return sb.cursize;
}

static void test_every_svc_is_skipped(void **state)
{
    (void)state;
    uint8_t buf[1400];
    size_t len = write_every_svc(buf, sizeof buf);
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
    size_t len = write_every_svc(buf, sizeof buf);
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
