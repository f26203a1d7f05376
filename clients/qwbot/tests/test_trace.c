/* Trace format: known bytes, round trips, rejection of damaged input, gzip files, the
 * shipped traces re-encoding identically, and the script's repeatability.
 *   test_trace [TRACES_DIR]   (the shipped traces are checked when the folder is given) */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include <cmocka.h>

#include "recording.h"
#include "script.h"

static const char *traces_dir;

/* 1 bot, interval 13, seed 7, map "m": a move at 0 ms, then "say hi" at 13 ms. */
static const uint8_t known[] = {
    'Q', 'W', 'B', 'T', 'R', 'A', 'C', 'E',
    1, 0, 0, 0,          /* version */
    1, 0, 0, 0,          /* bots */
    13, 0, 0, 0,         /* interval */
    7, 0, 0, 0,          /* seed */
    1, 0, 'm',           /* map */
    2, 0, 0, 0,          /* bot 0: 2 records */
    1, 0, 0, 0, 0,       /* move at 0 ms */
    13,                  /* msec */
    0, 0, 0x00, 0x40, 0, 0,            /* angles: yaw 90 degrees */
    0x40, 0x01, 0xc0, 0xfe, 0, 0,      /* forward 320, side -320, up 0 */
    2, 5,                /* buttons jump, impulse 5 */
    2, 13, 0, 0, 0,      /* string at 13 ms */
    6, 0, 's', 'a', 'y', ' ', 'h', 'i',
    'Q', 'W', 'B', 'T', 'E', 'N', 'D', 0,
};

static void build_known(qwbot_trace *t)
{
    assert_int_equal(qwbot_trace_init(t, 1, 13, 7, "m"), 0);
    qwbot_cmd c = {.msec = 13, .angles = {0, 0x4000, 0}, .forwardmove = 320,
                   .sidemove = -320, .buttons = 2, .impulse = 5};
    assert_int_equal(qwbot_stream_add_move(&t->bots[0], 0, &c), 0);
    assert_int_equal(qwbot_stream_add_string(&t->bots[0], 13, "say hi"), 0);
}

static void test_encode_known_bytes(void **state)
{
    (void)state;
    qwbot_trace t;
    build_known(&t);
    uint8_t *data;
    size_t len;
    assert_int_equal(qwbot_trace_encode(&t, &data, &len), 0);
    assert_int_equal(len, sizeof known);
    assert_memory_equal(data, known, sizeof known);
    free(data);
    qwbot_trace_free(&t);
}

static void test_decode_known_bytes(void **state)
{
    (void)state;
    qwbot_trace t;
    char err[256];
    assert_int_equal(qwbot_trace_decode(known, sizeof known, &t, err, sizeof err), 0);
    assert_int_equal(t.bot_count, 1);
    assert_int_equal(t.interval_ms, 13);
    assert_int_equal(t.seed, 7);
    assert_string_equal(t.map, "m");
    assert_int_equal(t.bots[0].count, 2);
    assert_int_equal(t.bots[0].moves, 1);
    const qwbot_record *m = &t.bots[0].records[0];
    assert_int_equal(m->kind, QWBOT_REC_MOVE);
    assert_int_equal(m->cmd.angles[1], 0x4000);
    assert_int_equal(m->cmd.forwardmove, 320);
    assert_int_equal(m->cmd.sidemove, -320);
    assert_int_equal(m->cmd.buttons, 2);
    assert_int_equal(m->cmd.impulse, 5);
    const qwbot_record *s = &t.bots[0].records[1];
    assert_int_equal(s->kind, QWBOT_REC_STRING);
    assert_int_equal(s->time_ms, 13);
    assert_string_equal(s->text, "say hi");
    qwbot_trace_free(&t);
}

static void expect_reject(const uint8_t *data, size_t len, const char *why_contains)
{
    qwbot_trace t;
    char err[256] = "";
    assert_int_equal(qwbot_trace_decode(data, len, &t, err, sizeof err), -1);
    assert_non_null(strstr(err, why_contains));
    assert_null(t.bots);
}

static void test_decode_rejects_damage(void **state)
{
    (void)state;
    uint8_t buf[sizeof known + 1];
    /* every truncation is an error, never a crash */
    for (size_t n = 0; n < sizeof known; n++) {
        qwbot_trace t;
        char err[256];
        assert_int_equal(qwbot_trace_decode(known, n, &t, err, sizeof err), -1);
    }
    memcpy(buf, known, sizeof known);
    buf[0] = 'X';
    expect_reject(buf, sizeof known, "magic");
    memcpy(buf, known, sizeof known);
    buf[8] = 2;
    expect_reject(buf, sizeof known, "version 2");
    memcpy(buf, known, sizeof known);
    buf[12] = 0;
    expect_reject(buf, sizeof known, "bot count");
    memcpy(buf, known, sizeof known);
    buf[31] = 9;                                   /* record kind */
    expect_reject(buf, sizeof known, "unknown record kind 9");
    memcpy(buf, known, sizeof known);
    buf[32] = 20;                                  /* move at 20 ms, then string at 13 */
    expect_reject(buf, sizeof known, "backwards");
    memcpy(buf, known, sizeof known);
    buf[sizeof known - 12] = '\n';                 /* control character in the command */
    expect_reject(buf, sizeof known, "control");
    memcpy(buf, known, sizeof known);
    buf[sizeof known] = 0;                         /* trailing byte */
    expect_reject(buf, sizeof known + 1, "after the end marker");
}

static void test_stream_rejects_bad_records(void **state)
{
    (void)state;
    qwbot_stream s = {0};
    qwbot_cmd c = {0};
    assert_int_equal(qwbot_stream_add_move(&s, 10, &c), 0);
    assert_int_equal(qwbot_stream_add_move(&s, 9, &c), -1);
    assert_int_equal(qwbot_stream_add_string(&s, 10, ""), -1);
    assert_int_equal(qwbot_stream_add_string(&s, 10, "two\nlines"), -1);
    assert_int_equal(s.count, 1);
    free(s.records);
}

static char *temp_path(const char *name)
{
    static char path[512];
    const char *dir = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    snprintf(path, sizeof path, "%s/qwbot-test-%d-%s", dir, (int)getpid(), name);
    return path;
}

static size_t read_file(const char *path, uint8_t *buf, size_t cap)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    size_t n = fread(buf, 1, cap, f);
    fclose(f);
    return n;
}

static void test_file_round_trip_is_deterministic(void **state)
{
    (void)state;
    qwbot_trace t, back;
    assert_int_equal(qwbot_trace_init(&t, 3, 13, 42, "crateprefab_dm"), 0);
    for (unsigned b = 0; b < 3; b++)
        assert_int_equal(qwbot_script_generate(&t.bots[b], 42, b, 500, 13), 0);
    char err[256];
    char a[512], c[512];
    snprintf(a, sizeof a, "%s", temp_path("a.trace"));
    snprintf(c, sizeof c, "%s", temp_path("c.trace"));
    assert_int_equal(qwbot_trace_save(&t, a, err, sizeof err), 0);
    assert_int_equal(qwbot_trace_load(a, &back, err, sizeof err), 0);
    assert_int_equal(qwbot_trace_save(&back, c, err, sizeof err), 0);
    static uint8_t fa[1 << 20], fc[1 << 20];
    size_t na = read_file(a, fa, sizeof fa), nc = read_file(c, fc, sizeof fc);
    assert_true(na > 0 && na < sizeof fa);
    assert_int_equal(na, nc);
    assert_memory_equal(fa, fc, na);
    assert_true(fa[0] == 0x1f && fa[1] == 0x8b);  /* gzip */
    assert_int_equal(back.bots[2].moves, 500);
    qwbot_trace_free(&t);
    qwbot_trace_free(&back);
    unlink(a);
    unlink(c);
}

static void test_load_reports_path(void **state)
{
    (void)state;
    qwbot_trace t;
    char err[512];
    assert_int_equal(qwbot_trace_load("/nonexistent/x.trace", &t, err, sizeof err), -1);
    assert_non_null(strstr(err, "/nonexistent/x.trace"));
    char *p = temp_path("junk.trace");
    FILE *f = fopen(p, "w");
    fputs("this is not a trace\n", f);
    fclose(f);
    assert_int_equal(qwbot_trace_load(p, &t, err, sizeof err), -1);
    assert_non_null(strstr(err, "not a qwbot trace"));
    unlink(p);
}

/* The traces shipped in clients/qwbot/traces (written by qwbot itself) decode, and encoding
 * what was decoded gives back exactly the file's uncompressed bytes. */
static void test_shipped_traces_reencode_identically(void **state)
{
    (void)state;
    if (!traces_dir) {
        skip();
    }
    DIR *d = opendir(traces_dir);
    assert_non_null(d);
    struct dirent *e;
    int checked = 0;
    while ((e = readdir(d)) != NULL) {
        size_t n = strlen(e->d_name);
        if (n < 7 || strcmp(e->d_name + n - 6, ".trace") != 0)
            continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", traces_dir, e->d_name);
        gzFile f = gzopen(path, "rb");
        assert_non_null(f);
        static uint8_t raw[8 << 20];
        int got = gzread(f, raw, sizeof raw);
        gzclose(f);
        assert_true(got > 0 && (size_t)got < sizeof raw);
        qwbot_trace t;
        char err[256];
        if (qwbot_trace_decode(raw, (size_t)got, &t, err, sizeof err) != 0)
            fail_msg("%s: %s", path, err);
        assert_true(t.bot_count >= 1);
        assert_true(t.bots[0].moves > 0);
        uint8_t *again;
        size_t len;
        assert_int_equal(qwbot_trace_encode(&t, &again, &len), 0);
        assert_int_equal(len, (size_t)got);
        assert_memory_equal(again, raw, len);
        free(again);
        qwbot_trace_free(&t);
        checked++;
    }
    closedir(d);
    assert_true(checked > 0);
}

static int streams_equal(const qwbot_stream *a, const qwbot_stream *b)
{
    if (a->count != b->count)
        return 0;
    for (uint32_t i = 0; i < a->count; i++) {
        const qwbot_record *x = &a->records[i], *y = &b->records[i];
        if (x->kind != y->kind || x->time_ms != y->time_ms)
            return 0;
        if (x->kind == QWBOT_REC_MOVE && memcmp(&x->cmd, &y->cmd, sizeof x->cmd) != 0)
            return 0;
        if (x->kind == QWBOT_REC_STRING && strcmp(x->text, y->text) != 0)
            return 0;
    }
    return 1;
}

static void test_script_is_repeatable(void **state)
{
    (void)state;
    qwbot_trace t;
    assert_int_equal(qwbot_trace_init(&t, 4, 13, 0, ""), 0);
    assert_int_equal(qwbot_script_generate(&t.bots[0], 7, 0, 2000, 13), 0);
    assert_int_equal(qwbot_script_generate(&t.bots[1], 7, 0, 2000, 13), 0);
    assert_int_equal(qwbot_script_generate(&t.bots[2], 8, 0, 2000, 13), 0);
    assert_int_equal(qwbot_script_generate(&t.bots[3], 7, 1, 2000, 13), 0);
    assert_true(streams_equal(&t.bots[0], &t.bots[1]));
    assert_false(streams_equal(&t.bots[0], &t.bots[2]));
    assert_false(streams_equal(&t.bots[0], &t.bots[3]));
    /* one move per interval, each lasting the interval; every kind of action appears */
    const qwbot_stream *s = &t.bots[0];
    assert_int_equal(s->moves, 2000);
    uint32_t k = 0;
    int walked = 0, jumped = 0, shot = 0, turned = 0;
    uint16_t yaw = 0;
    for (uint32_t i = 0; i < s->count; i++) {
        const qwbot_record *r = &s->records[i];
        if (r->kind != QWBOT_REC_MOVE)
            continue;
        assert_int_equal(r->time_ms, k * 13);
        assert_int_equal(r->cmd.msec, 13);
        walked |= r->cmd.forwardmove != 0;
        jumped |= (r->cmd.buttons & 2) != 0;
        shot |= (r->cmd.buttons & 1) != 0;
        turned |= k > 0 && r->cmd.angles[1] != yaw;
        yaw = r->cmd.angles[1];
        k++;
    }
    assert_true(walked && jumped && shot && turned);
    qwbot_trace_free(&t);
}

static void test_stream_repeat(void **state)
{
    (void)state;
    qwbot_stream src = {0}, dst = {0};
    qwbot_cmd c = {.msec = 13};
    assert_int_equal(qwbot_stream_add_move(&src, 0, &c), 0);
    assert_int_equal(qwbot_stream_add_string(&src, 13, "say a"), 0);
    assert_int_equal(qwbot_stream_add_move(&src, 13, &c), 0);
    assert_int_equal(qwbot_stream_add_move(&src, 26, &c), 0);
    /* the first 2 moves (and the string between them), 3 times, 13 ms apart */
    assert_int_equal(qwbot_stream_repeat(&dst, &src, 2, 3, 13), 0);
    assert_int_equal(dst.count, 9);
    assert_int_equal(dst.moves, 6);
    static const uint32_t times[] = {0, 13, 13, 26, 39, 39, 52, 65, 65};
    for (int i = 0; i < 9; i++)
        assert_int_equal(dst.records[i].time_ms, times[i]);
    assert_string_equal(dst.records[4].text, "say a");
    for (uint32_t i = 0; i < dst.count; i++)
        free(dst.records[i].text);
    free(dst.records);
    for (uint32_t i = 0; i < src.count; i++)
        free(src.records[i].text);
    free(src.records);
}

int main(int argc, char **argv)
{
    traces_dir = argc > 1 ? argv[1] : NULL;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_encode_known_bytes),
        cmocka_unit_test(test_decode_known_bytes),
        cmocka_unit_test(test_decode_rejects_damage),
        cmocka_unit_test(test_stream_rejects_bad_records),
        cmocka_unit_test(test_file_round_trip_is_deterministic),
        cmocka_unit_test(test_load_reports_path),
        cmocka_unit_test(test_shipped_traces_reencode_identically),
        cmocka_unit_test(test_script_is_repeatable),
        cmocka_unit_test(test_stream_repeat),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
