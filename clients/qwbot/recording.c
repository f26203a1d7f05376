/* Trace files (recordings): in-memory streams, the versioned byte layout (see recording.h) and
 * gzip I/O. */
#include "recording.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

static void set_error(char *err, size_t errlen, const char *fmt, ...)
{
    if (!err || errlen == 0)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

int qwbot_trace_init(qwbot_trace *t, uint32_t bots, uint32_t interval_ms, uint32_t seed,
                     const char *map)
{
    memset(t, 0, sizeof *t);
    if (bots > QWBOT_TRACE_MAX_BOTS)
        return -1;
    t->interval_ms = interval_ms;
    t->seed = seed;
    snprintf(t->map, sizeof t->map, "%s", map ? map : "");
    t->bot_count = bots;
    if (bots) {
        t->bots = calloc(bots, sizeof *t->bots);
        if (!t->bots)
            return -1;
    }
    return 0;
}

void qwbot_trace_free(qwbot_trace *t)
{
    for (uint32_t b = 0; b < t->bot_count && t->bots; b++) {
        qwbot_stream *s = &t->bots[b];
        for (uint32_t i = 0; i < s->count; i++)
            free(s->records[i].text);
        free(s->records);
    }
    free(t->bots);
    memset(t, 0, sizeof *t);
}

static qwbot_record *stream_append(qwbot_stream *s, uint32_t time_ms)
{
    if (s->count && time_ms < s->records[s->count - 1].time_ms)
        return NULL;
    if (s->count >= QWBOT_TRACE_MAX_RECORDS)
        return NULL;
    if (s->count == s->capacity) {
        uint32_t cap = s->capacity ? s->capacity * 2 : 256;
        qwbot_record *r = realloc(s->records, (size_t)cap * sizeof *r);
        if (!r)
            return NULL;
        s->records = r;
        s->capacity = cap;
    }
    qwbot_record *r = &s->records[s->count];
    memset(r, 0, sizeof *r);
    r->time_ms = time_ms;
    return r;
}

int qwbot_stream_add_move(qwbot_stream *s, uint32_t time_ms, const qwbot_cmd *cmd)
{
    qwbot_record *r = stream_append(s, time_ms);
    if (!r)
        return -1;
    r->kind = QWBOT_REC_MOVE;
    r->cmd = *cmd;
    s->count++;
    s->moves++;
    return 0;
}

static int valid_command_text(const char *text, size_t len)
{
    if (len == 0 || len > QWBOT_TRACE_MAX_STRING)
        return 0;
    for (size_t i = 0; i < len; i++)
        if ((unsigned char)text[i] < 32 || text[i] == 127)
            return 0;
    return 1;
}

int qwbot_stream_add_string(qwbot_stream *s, uint32_t time_ms, const char *text)
{
    size_t len = strlen(text);
    if (!valid_command_text(text, len))
        return -1;
    char *copy = strdup(text);
    if (!copy)
        return -1;
    qwbot_record *r = stream_append(s, time_ms);
    if (!r) {
        free(copy);
        return -1;
    }
    r->kind = QWBOT_REC_STRING;
    r->text = copy;
    s->count++;
    return 0;
}

int qwbot_stream_repeat(qwbot_stream *dst, const qwbot_stream *src, uint32_t max_moves,
                        uint32_t loops, uint32_t gap_ms)
{
    uint32_t offset = 0;
    for (uint32_t l = 0; l < loops; l++) {
        uint32_t moves = 0, last = 0;
        for (uint32_t i = 0; i < src->count && (!max_moves || moves < max_moves); i++) {
            const qwbot_record *r = &src->records[i];
            uint64_t t = (uint64_t)offset + r->time_ms;
            if (t > UINT32_MAX)
                return -1;
            int rc = r->kind == QWBOT_REC_MOVE
                         ? qwbot_stream_add_move(dst, (uint32_t)t, &r->cmd)
                         : qwbot_stream_add_string(dst, (uint32_t)t, r->text);
            if (rc != 0)
                return -1;
            moves += r->kind == QWBOT_REC_MOVE;
            last = r->time_ms;
        }
        if ((uint64_t)offset + last + gap_ms > UINT32_MAX)
            return -1;
        offset += last + gap_ms;
    }
    return 0;
}

/* ---- encoding ---- */

typedef struct byte_writer {
    uint8_t *data;
    size_t len, cap;
    int failed;
} byte_writer;

static void put(byte_writer *w, const void *src, size_t n)
{
    if (w->failed)
        return;
    if (w->len + n > w->cap) {
        size_t cap = w->cap ? w->cap : 4096;
        while (cap < w->len + n)
            cap *= 2;
        uint8_t *d = realloc(w->data, cap);
        if (!d) {
            w->failed = 1;
            return;
        }
        w->data = d;
        w->cap = cap;
    }
    memcpy(w->data + w->len, src, n);
    w->len += n;
}

static void put_u8(byte_writer *w, uint8_t v) { put(w, &v, 1); }
static void put_u16(byte_writer *w, uint16_t v)
{
    uint8_t b[2] = {(uint8_t)v, (uint8_t)(v >> 8)};
    put(w, b, 2);
}
static void put_u32(byte_writer *w, uint32_t v)
{
    uint8_t b[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    put(w, b, 4);
}

int qwbot_trace_encode(const qwbot_trace *t, uint8_t **out, size_t *outlen)
{
    byte_writer w = {0};
    size_t maplen = strlen(t->map);
    if (maplen > QWBOT_TRACE_MAX_MAPNAME || t->bot_count > QWBOT_TRACE_MAX_BOTS)
        return -1;
    put(&w, QWBOT_TRACE_MAGIC, 8);
    put_u32(&w, QWBOT_TRACE_VERSION);
    put_u32(&w, t->bot_count);
    put_u32(&w, t->interval_ms);
    put_u32(&w, t->seed);
    put_u16(&w, (uint16_t)maplen);
    put(&w, t->map, maplen);
    for (uint32_t b = 0; b < t->bot_count; b++) {
        const qwbot_stream *s = &t->bots[b];
        put_u32(&w, s->count);
        for (uint32_t i = 0; i < s->count; i++) {
            const qwbot_record *r = &s->records[i];
            put_u8(&w, r->kind);
            put_u32(&w, r->time_ms);
            if (r->kind == QWBOT_REC_MOVE) {
                put_u8(&w, r->cmd.msec);
                for (int k = 0; k < 3; k++)
                    put_u16(&w, r->cmd.angles[k]);
                put_u16(&w, (uint16_t)r->cmd.forwardmove);
                put_u16(&w, (uint16_t)r->cmd.sidemove);
                put_u16(&w, (uint16_t)r->cmd.upmove);
                put_u8(&w, r->cmd.buttons);
                put_u8(&w, r->cmd.impulse);
            } else {
                size_t n = strlen(r->text);
                put_u16(&w, (uint16_t)n);
                put(&w, r->text, n);
            }
        }
    }
    put(&w, QWBOT_TRACE_END, 8);
    if (w.failed) {
        free(w.data);
        return -1;
    }
    *out = w.data;
    *outlen = w.len;
    return 0;
}

/* ---- decoding ---- */

typedef struct byte_reader {
    const uint8_t *data;
    size_t len, pos;
    int bad;
} byte_reader;

static const uint8_t *take(byte_reader *r, size_t n)
{
    if (r->bad || r->len - r->pos < n) {
        r->bad = 1;
        return NULL;
    }
    const uint8_t *p = r->data + r->pos;
    r->pos += n;
    return p;
}
static uint8_t get_u8(byte_reader *r)
{
    const uint8_t *p = take(r, 1);
    return p ? p[0] : 0;
}
static uint16_t get_u16(byte_reader *r)
{
    const uint8_t *p = take(r, 2);
    return p ? (uint16_t)(p[0] | p[1] << 8) : 0;
}
static uint32_t get_u32(byte_reader *r)
{
    const uint8_t *p = take(r, 4);
    return p ? (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
                   (uint32_t)p[3] << 24
             : 0;
}

#define FAIL(...)                                                                            \
    do {                                                                                     \
        set_error(err, errlen, __VA_ARGS__);                                                 \
        qwbot_trace_free(t);                                                                 \
        return -1;                                                                           \
    } while (0)

int qwbot_trace_decode(const uint8_t *data, size_t len, qwbot_trace *t, char *err, size_t errlen)
{
    byte_reader r = {data, len, 0, 0};
    memset(t, 0, sizeof *t);
    const uint8_t *magic = take(&r, 8);
    if (!magic || memcmp(magic, QWBOT_TRACE_MAGIC, 8) != 0)
        FAIL("not a qwbot trace (the magic \"%s\" is missing)", QWBOT_TRACE_MAGIC);
    uint32_t version = get_u32(&r);
    if (version != QWBOT_TRACE_VERSION)
        FAIL("trace format version %u, this qwbot reads version %u", version,
             QWBOT_TRACE_VERSION);
    uint32_t bots = get_u32(&r);
    uint32_t interval = get_u32(&r);
    uint32_t seed = get_u32(&r);
    uint16_t maplen = get_u16(&r);
    if (r.bad)
        FAIL("truncated header");
    if (bots == 0 || bots > QWBOT_TRACE_MAX_BOTS)
        FAIL("bot count %u out of range 1..%u", bots, QWBOT_TRACE_MAX_BOTS);
    if (maplen > QWBOT_TRACE_MAX_MAPNAME)
        FAIL("map name length %u over %u", maplen, QWBOT_TRACE_MAX_MAPNAME);
    const uint8_t *map = take(&r, maplen);
    if (!map)
        FAIL("truncated header (map name)");
    char mapname[QWBOT_TRACE_MAX_MAPNAME + 1];
    memcpy(mapname, map, maplen);
    mapname[maplen] = 0;
    if (strlen(mapname) != maplen)
        FAIL("map name contains a NUL byte");
    if (qwbot_trace_init(t, bots, interval, seed, mapname) != 0)
        FAIL("out of memory for %u bot streams", bots);

    for (uint32_t b = 0; b < bots; b++) {
        qwbot_stream *s = &t->bots[b];
        uint32_t count = get_u32(&r);
        if (r.bad)
            FAIL("bot %u: truncated stream header at offset %zu", b, r.pos);
        if (count > QWBOT_TRACE_MAX_RECORDS)
            FAIL("bot %u: %u records, more than %u", b, count, QWBOT_TRACE_MAX_RECORDS);
        for (uint32_t i = 0; i < count; i++) {
            size_t at = r.pos;
            uint8_t kind = get_u8(&r);
            uint32_t time_ms = get_u32(&r);
            if (r.bad)
                FAIL("bot %u record %u: truncated at offset %zu", b, i, at);
            if (s->count && time_ms < s->records[s->count - 1].time_ms)
                FAIL("bot %u record %u (offset %zu): time %u ms goes backwards", b, i, at,
                     time_ms);
            if (kind == QWBOT_REC_MOVE) {
                qwbot_cmd c;
                c.msec = get_u8(&r);
                for (int k = 0; k < 3; k++)
                    c.angles[k] = get_u16(&r);
                c.forwardmove = (int16_t)get_u16(&r);
                c.sidemove = (int16_t)get_u16(&r);
                c.upmove = (int16_t)get_u16(&r);
                c.buttons = get_u8(&r);
                c.impulse = get_u8(&r);
                if (r.bad)
                    FAIL("bot %u record %u: truncated move at offset %zu", b, i, at);
                if (qwbot_stream_add_move(s, time_ms, &c) != 0)
                    FAIL("out of memory at bot %u record %u", b, i);
            } else if (kind == QWBOT_REC_STRING) {
                uint16_t n = get_u16(&r);
                const uint8_t *p = take(&r, n);
                if (!p)
                    FAIL("bot %u record %u: truncated string at offset %zu", b, i, at);
                if (!valid_command_text((const char *)p, n))
                    FAIL("bot %u record %u (offset %zu): string command of length %u is empty, "
                         "too long or has control characters", b, i, at, n);
                char text[QWBOT_TRACE_MAX_STRING + 1];
                memcpy(text, p, n);
                text[n] = 0;
                if (qwbot_stream_add_string(s, time_ms, text) != 0)
                    FAIL("out of memory at bot %u record %u", b, i);
            } else {
                FAIL("bot %u record %u (offset %zu): unknown record kind %u", b, i, at, kind);
            }
        }
    }
    const uint8_t *end = take(&r, 8);
    if (!end || memcmp(end, QWBOT_TRACE_END, 8) != 0)
        FAIL("missing end marker at offset %zu (file truncated or corrupt)", r.pos);
    if (r.pos != len)
        FAIL("%zu unexpected bytes after the end marker", len - r.pos);
    return 0;
}

#undef FAIL

/* ---- files ---- */

int qwbot_trace_save(const qwbot_trace *t, const char *path, char *err, size_t errlen)
{
    uint8_t *data;
    size_t len;
    if (qwbot_trace_encode(t, &data, &len) != 0) {
        set_error(err, errlen, "%s: cannot encode the trace (out of memory or bad map name)",
                  path);
        return -1;
    }
    /* gzopen writes a header without a timestamp, so equal streams give equal files. */
    gzFile f = gzopen(path, "wb9");
    if (!f) {
        set_error(err, errlen, "%s: cannot create: %s", path, strerror(errno ? errno : EIO));
        free(data);
        return -1;
    }
    size_t done = 0;
    while (done < len) {
        unsigned chunk = len - done > (1u << 30) ? (1u << 30) : (unsigned)(len - done);
        int n = gzwrite(f, data + done, chunk);
        if (n <= 0) {
            int zerr;
            set_error(err, errlen, "%s: write failed: %s", path, gzerror(f, &zerr));
            gzclose(f);
            free(data);
            return -1;
        }
        done += (size_t)n;
    }
    free(data);
    if (gzclose(f) != Z_OK) {
        set_error(err, errlen, "%s: write failed while closing (disk full?)", path);
        return -1;
    }
    return 0;
}

int qwbot_trace_load(const char *path, qwbot_trace *t, char *err, size_t errlen)
{
    memset(t, 0, sizeof *t);
    gzFile f = gzopen(path, "rb");
    if (!f) {
        set_error(err, errlen, "%s: cannot open: %s", path, strerror(errno ? errno : ENOENT));
        return -1;
    }
    size_t cap = 1 << 16, len = 0;
    uint8_t *data = malloc(cap);
    const size_t limit = (size_t)1 << 31;   /* far above any real trace */
    for (;;) {
        if (!data) {
            set_error(err, errlen, "%s: out of memory", path);
            gzclose(f);
            return -1;
        }
        if (len == cap) {
            if (cap >= limit) {
                set_error(err, errlen, "%s: larger than 2 GiB uncompressed, not a trace", path);
                free(data);
                gzclose(f);
                return -1;
            }
            uint8_t *d = realloc(data, cap * 2);
            if (!d) {
                free(data);
                data = NULL;
                continue;
            }
            data = d;
            cap *= 2;
        }
        int n = gzread(f, data + len, (unsigned)(cap - len));
        if (n < 0) {
            int zerr;
            set_error(err, errlen, "%s: corrupt compressed data: %s", path, gzerror(f, &zerr));
            free(data);
            gzclose(f);
            return -1;
        }
        if (n == 0)
            break;
        len += (size_t)n;
    }
    gzclose(f);
    char why[256];
    int rc = qwbot_trace_decode(data, len, t, why, sizeof why);
    free(data);
    if (rc != 0) {
        set_error(err, errlen, "%s: %s", path, why);
        return -1;
    }
    return 0;
}
