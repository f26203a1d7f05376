/* qw_svc_walk: one of every server message decoded with its fields, strings left in place,
 * entity lists stepped through and applied to a base, and bad input: a message cut anywhere is
 * never handed over, an unknown id or temp entity stops the walk, another protocol's
 * serverdata is handed over with its number alone, and the handler can stop the walk. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "every_svc.h"
#include "qw_svc.h"

#define MAX_SEEN 128

/* What the handler saw: every message, copied (strings stay in the buffer). */
typedef struct seen {
    int count;
    qw_svc messages[MAX_SEEN];
    int stop_at;        /* the handler returns false for the message with this index */
} seen;

static bool record(void *ctx, const qw_svc *m)
{
    seen *s = ctx;
    if (s->count < MAX_SEEN)
        s->messages[s->count] = *m;
    return s->count++ != s->stop_at;
}

static qw_svc_result walk(const uint8_t *data, size_t len, seen *s, int *id)
{
    memset(s, 0, sizeof *s);
    s->stop_at = -1;
    qw_msgreader r;
    qw_reader_init(&r, data, len);
    return qw_svc_walk(&r, record, s, id);
}

static const qw_svc *find(const seen *s, int id)
{
    for (int i = 0; i < s->count && i < MAX_SEEN; i++)
        if (s->messages[i].id == id)
            return &s->messages[i];
    fail_msg("message %d not handed over", id);
    return NULL;
}

/* Every message of protocol 28: serverdata, the shared block of every_svc.h, the lists, a
 * player's state, frags and disconnect. `ends[k]` is where message k ends, so that a cut can
 * be told from a whole message. */
static size_t write_all(uint8_t *buf, size_t size, size_t *ends, int *count)
{
    qw_sizebuf sb;
    qw_sizebuf_init(&sb, buf, size);
    *count = 0;
#define B(x) qw_write_byte(&sb, x)
#define L(x) qw_write_long(&sb, x)
#define STR(x) qw_write_string(&sb, x)
#define END() (ends[(*count)++] = sb.cursize)
    B(svc_serverdata); L(0x58455446); L(0x1234); L(28); L(5); STR("qw"); B(3 | 128);
    STR("a title"); for (int i = 0; i < 10; i++) qw_write_float(&sb, 800.0f + i); END();
    int shared;
    write_every_svc(&sb, ends + *count, &shared);
    *count += shared;
    B(svc_soundlist); B(0); STR("a.wav"); STR("b.wav"); B(0); B(2); END();
    B(svc_modellist); B(0); STR("maps/m.bsp"); B(0); B(0); END();
    qw_playerinfo pi = {.slot = 6, .origin = {-64, 128.5f, 24}};
    qw_playerinfo_write(&sb, &pi, false, 1); END();
    B(svc_updatefrags); B(3); qw_write_short(&sb, -42); END();
    B(svc_disconnect); END();
#undef B
#undef L
#undef STR
#undef END
    assert_false(sb.overflowed);
    return sb.cursize;
}

/* Walks write_all's messages, which must all be handed over. */
static void walk_all(seen *s)
{
    static uint8_t buf[1400];
    size_t ends[MAX_SEEN];
    int count, id;
    size_t len = write_all(buf, sizeof buf, ends, &count);
    assert_int_equal(walk(buf, len, s, &id), QW_SVC_END);
    assert_int_equal(id, -1);
    assert_int_equal(s->count, count);
    /* strings are read in place */
    const char *gamedir = s->messages[0].u.serverdata.gamedir;
    assert_true((const uint8_t *)gamedir > buf && (const uint8_t *)gamedir < buf + len);
}

static void test_every_message_decoded(void **state)
{
    (void)state;
    static seen s;
    walk_all(&s);

    const qw_svc *m = find(&s, svc_serverdata);
    assert_int_equal(m->u.serverdata.protocol, 28);
    assert_int_equal(m->u.serverdata.spawncount, 5);
    assert_string_equal(m->u.serverdata.gamedir, "qw");
    assert_int_equal(m->u.serverdata.slot, 3 | 128);
    assert_string_equal(m->u.serverdata.level, "a title");
    assert_true(m->u.serverdata.movevars[9] == 809.0f);

    m = find(&s, svc_sound);
    assert_int_equal(m->u.sound.entity, 12);
    assert_int_equal(m->u.sound.channel, 1);
    assert_int_equal(m->u.sound.volume, 200);
    assert_int_equal(m->u.sound.attenuation, 32);
    assert_int_equal(m->u.sound.sound, 7);
    assert_true(m->u.sound.origin[0] == 1.0f && m->u.sound.origin[1] == -2.0f);
    assert_int_equal(m[1].u.sound.volume, 255);     /* the defaults */
    assert_int_equal(m[1].u.sound.attenuation, 64);

    m = find(&s, svc_print);
    assert_int_equal(m->u.print.level, PRINT_HIGH);
    assert_string_equal(m->u.print.text, "hello\n");
    assert_int_equal(find(&s, svc_lightstyle)->u.lightstyle.style, 3);
    assert_int_equal(find(&s, svc_damage)->u.damage.blood, 10);
    m = find(&s, svc_spawnstatic);
    assert_int_equal(m->u.entity.modelindex, 2);
    assert_int_equal(m->u.entity.skinnum, 4);
    m = find(&s, svc_spawnbaseline);
    assert_int_equal(m->u.entity.number, 40);
    assert_true(m->u.entity.origin[2] == 3.0f && m->u.entity.angles[1] == 90.0f);
    m = find(&s, svc_temp_entity);
    for (int te = TE_SPIKE; te <= TE_LIGHTNINGBLOOD; te++, m++) {
        assert_int_equal(m->id, svc_temp_entity);
        assert_int_equal(m->u.temp_entity.type, te);
    }
    assert_int_equal(find(&s, svc_updateentertime)->u.entertime.slot, 1);
    m = find(&s, svc_updatestatlong);
    assert_int_equal(m->u.stat.stat, STAT_ITEMS);
    assert_int_equal(m->u.stat.value, 4097);
    m = find(&s, svc_updateuserinfo);
    assert_int_equal(m->u.userinfo.userid, 77);
    assert_string_equal(m->u.userinfo.info, "\\name\\x");
    m = find(&s, svc_download);
    assert_int_equal(m->u.download.size, 3);
    assert_int_equal(m->u.download.percent, 50);
    assert_int_equal(m->u.download.data[2], 3);
    assert_int_equal(m[1].u.download.size, -1);
    assert_null(m[1].u.download.data);
    assert_int_equal(find(&s, svc_nails2)->u.byte, 1);
    m = find(&s, svc_soundlist);
    assert_int_equal(m->u.list.count, 2);
    assert_int_equal(m->u.list.next, 2);
    assert_string_equal(m->u.list.names, "a.wav");
    assert_string_equal(m->u.list.names + 6, "b.wav");
    m = find(&s, svc_modellist);
    assert_int_equal(m->u.list.count, 1);
    assert_string_equal(m->u.list.names, "maps/m.bsp");
    m = find(&s, svc_playerinfo);
    assert_int_equal(m->u.playerinfo.slot, 6);
    assert_true(m->u.playerinfo.origin[1] == 128.5f);
    assert_true(find(&s, svc_maxspeed)->u.value == 320.0f);
    m = find(&s, svc_setinfo);
    assert_string_equal(m->u.setinfo.key, "team");
    assert_string_equal(m->u.setinfo.value, "red");
    assert_string_equal(find(&s, svc_serverinfo)->u.serverinfo.value, "77");
    assert_int_equal(find(&s, svc_updatepl)->u.player.value, 9);
    m = find(&s, svc_updatefrags);
    assert_int_equal(m->u.player.slot, 3);
    assert_int_equal(m->u.player.value, -42);
    assert_int_equal(s.messages[s.count - 1].id, svc_disconnect);
}

static void test_entity_lists(void **state)
{
    (void)state;
    static seen s;
    walk_all(&s);

    qw_svc_entities list = find(&s, svc_packetentities)->u.entities;
    assert_int_equal(list.from, -1);
    qw_entity_delta d;
    assert_true(qw_svc_next_entity(&list, &d));
    assert_int_equal(d.number, 40);
    assert_false(d.remove);
    qw_entity_state base = {.number = 40, .origin = {1, 2, 3}, .frame = 9, .skinnum = 5};
    qw_entity_state to;
    qw_entity_delta_apply(&base, &d, &to);
    assert_int_equal(to.number, 40);
    assert_int_equal(to.modelindex, 2);
    assert_int_equal(to.frame, 1);
    assert_int_equal(to.effects, 8);
    assert_int_equal(to.skinnum, 5);          /* unchanged fields stay the base's */
    assert_true(to.origin[0] == 12.5f && to.origin[1] == 2 && to.origin[2] == 3);
    assert_true(to.angles[2] == 45.0f);
    assert_true(qw_svc_next_entity(&list, &d));
    assert_int_equal(d.number, 41);
    assert_true(d.remove);
    assert_false(qw_svc_next_entity(&list, &d));
    assert_false(qw_svc_next_entity(&list, &d));   /* stays at the end */

    list = find(&s, svc_deltapacketentities)->u.entities;
    assert_int_equal(list.from, 17);
    assert_true(qw_svc_next_entity(&list, &d));
    assert_int_equal(d.number, 42);
    assert_int_equal(d.bits, U_ORIGIN2 | U_ANGLE2);
    assert_false(qw_svc_next_entity(&list, &d));
}

/* A cut anywhere hands over exactly the messages that end before it. */
static void test_cut_messages_are_never_handed_over(void **state)
{
    (void)state;
    static uint8_t buf[1400], copy[1400];
    size_t ends[MAX_SEEN];
    int count;
    size_t len = write_all(buf, sizeof buf, ends, &count);
    static seen s;
    for (size_t n = 0; n < len; n++) {
        memcpy(copy, buf, n);
        int whole = 0;
        while (whole < count && ends[whole] <= n)
            whole++;
        qw_svc_result result = walk(copy, n, &s, NULL);
        assert_int_equal(s.count, whole);
        bool at_an_end = n == 0 || (whole && ends[whole - 1] == n);
        assert_int_equal(result, at_an_end ? QW_SVC_END : QW_SVC_BAD);
    }
}

static void test_what_stops_the_walk(void **state)
{
    (void)state;
    static seen s;
    int id;
    /* an id protocol 28 has no message for */
    static const uint8_t unknown[] = {svc_nop, 99, svc_updatefrags, 3, 1, 0};
    assert_int_equal(walk(unknown, sizeof unknown, &s, &id), QW_SVC_UNKNOWN);
    assert_int_equal(id, 99);
    assert_int_equal(s.count, 1);
    /* a temp entity of unknown size */
    static const uint8_t te[] = {svc_temp_entity, 14, 0, 0, 0, 0, 0, 0, svc_nop};
    assert_int_equal(walk(te, sizeof te, &s, &id), QW_SVC_BAD);
    assert_int_equal(id, svc_temp_entity);
    assert_int_equal(s.count, 0);
    /* a string longer than a client's buffer */
    static uint8_t longer[QW_SVC_MAX_STRING + 8];
    longer[0] = svc_stufftext;
    memset(longer + 1, 'a', QW_SVC_MAX_STRING);
    assert_int_equal(walk(longer, QW_SVC_MAX_STRING + 2, &s, NULL), QW_SVC_BAD);
    longer[QW_SVC_MAX_STRING] = 0;                 /* 2047 characters fit */
    assert_int_equal(walk(longer, QW_SVC_MAX_STRING + 1, &s, NULL), QW_SVC_END);
    /* another protocol: its number only, then nothing more */
    static const uint8_t other[] = {svc_serverdata, 15, 0, 0, 0, 1, 2, 3, 4, svc_nop};
    assert_int_equal(walk(other, sizeof other, &s, &id), QW_SVC_PROTOCOL);
    assert_int_equal(id, svc_serverdata);
    assert_int_equal(s.count, 1);
    assert_int_equal(s.messages[0].u.serverdata.protocol, 15);
    assert_null(s.messages[0].u.serverdata.gamedir);
    /* an entity list without its end */
    static const uint8_t open_list[] = {svc_packetentities, 40, 0};
    assert_int_equal(walk(open_list, sizeof open_list, &s, NULL), QW_SVC_BAD);
    assert_int_equal(s.count, 0);
    /* the handler */
    static const uint8_t three[] = {svc_nop, svc_nop, svc_nop};
    memset(&s, 0, sizeof s);
    s.stop_at = 1;
    qw_msgreader r;
    qw_reader_init(&r, three, sizeof three);
    assert_int_equal(qw_svc_walk(&r, record, &s, &id), QW_SVC_STOPPED);
    assert_int_equal(s.count, 2);
    assert_int_equal(qw_reader_remaining(&r), 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_message_decoded),
        cmocka_unit_test(test_entity_lists),
        cmocka_unit_test(test_cut_messages_are_never_handed_over),
        cmocka_unit_test(test_what_stops_the_walk),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
