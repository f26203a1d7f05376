/* Message writer and bounds-checked reader (see qw_msg.h). */
#include "qw_msg.h"

#include <string.h>

LIBTM_SAFE void qw_sizebuf_init(qw_sizebuf *sb, uint8_t *data, size_t maxsize)
{
    sb->data = data;
    sb->maxsize = maxsize;
    sb->cursize = 0;
    sb->overflowed = false;
}

LIBTM_SAFE void qw_sizebuf_clear(qw_sizebuf *sb)
{
    sb->cursize = 0;
    sb->overflowed = false;
}

LIBTM_SAFE uint8_t *qw_sizebuf_reserve(qw_sizebuf *sb, size_t len)
{
    if (len > sb->maxsize - sb->cursize) {
        sb->overflowed = true;
        return NULL;
    }
    uint8_t *p = sb->data + sb->cursize;
    sb->cursize += len;
    return p;
}

LIBTM_SAFE size_t qw_sizebuf_free_space(const qw_sizebuf *sb)
{
    return sb->maxsize - sb->cursize;
}

LIBTM_SAFE void qw_write_byte(qw_sizebuf *sb, int c)
{
    uint8_t *p = qw_sizebuf_reserve(sb, 1);
    if (p)
        p[0] = (uint8_t)c;
}

LIBTM_SAFE void qw_write_char(qw_sizebuf *sb, int c)
{
    qw_write_byte(sb, c);
}

LIBTM_SAFE void qw_write_short(qw_sizebuf *sb, int c)
{
    uint8_t *p = qw_sizebuf_reserve(sb, 2);
    if (p) {
        p[0] = (uint8_t)(c & 0xff);
        p[1] = (uint8_t)((c >> 8) & 0xff);
    }
}

LIBTM_SAFE void qw_write_long(qw_sizebuf *sb, int32_t c)
{
    uint8_t *p = qw_sizebuf_reserve(sb, 4);
    if (p) {
        uint32_t u = (uint32_t)c;
        p[0] = (uint8_t)u;
        p[1] = (uint8_t)(u >> 8);
        p[2] = (uint8_t)(u >> 16);
        p[3] = (uint8_t)(u >> 24);
    }
}

LIBTM_SAFE void qw_write_float(qw_sizebuf *sb, float f)
{
    union { float f; int32_t i; } u;
    u.f = f;
    qw_write_long(sb, u.i);
}

LIBTM_SAFE size_t qw_strlen(const char *s)
{
    size_t n = 0;
    while (s[n])
        n++;
    return n;
}

LIBTM_SAFE size_t qw_strlcpy(char *dst, const char *src, size_t size)
{
    size_t n = 0;
    while (src[n] && n + 1 < size) {
        dst[n] = src[n];
        n++;
    }
    dst[n] = 0;
    return n;
}

LIBTM_SAFE void qw_write_string(qw_sizebuf *sb, const char *s)
{
    if (!s)
        s = "";
    qw_write_data(sb, s, qw_strlen(s) + 1);
}

/* Quake converts with C truncation toward zero; keep that so both ends agree bit for bit. */
LIBTM_SAFE void qw_write_coord(qw_sizebuf *sb, float f)
{
    qw_write_short(sb, (int)(f * 8.0f));
}

LIBTM_SAFE void qw_write_angle8(qw_sizebuf *sb, float degrees)
{
    qw_write_byte(sb, ((int)(degrees * 256.0f / 360.0f)) & 255);
}

LIBTM_SAFE void qw_write_angle16(qw_sizebuf *sb, float degrees)
{
    qw_write_short(sb, ((int)(degrees * 65536.0f / 360.0f)) & 65535);
}

LIBTM_SAFE void qw_write_data(qw_sizebuf *sb, const void *data, size_t len)
{
    uint8_t *p = qw_sizebuf_reserve(sb, len);
    if (p && len)
        memcpy(p, data, len);
}

void qw_reader_init(qw_msgreader *r, const void *data, size_t size)
{
    r->data = data;
    r->size = size;
    r->pos = 0;
    r->bad = false;
}

size_t qw_reader_remaining(const qw_msgreader *r)
{
    return r->bad ? 0 : r->size - r->pos;
}

/* True when n more bytes can be read; otherwise marks the reader bad. */
static bool reader_has(qw_msgreader *r, size_t n)
{
    if (r->bad || n > r->size - r->pos) {
        r->bad = true;
        return false;
    }
    return true;
}

int qw_read_byte(qw_msgreader *r)
{
    if (!reader_has(r, 1))
        return -1;
    return r->data[r->pos++];
}

int qw_read_char(qw_msgreader *r)
{
    if (!reader_has(r, 1))
        return -1;
    return (int8_t)r->data[r->pos++];
}

int qw_read_short(qw_msgreader *r)
{
    if (!reader_has(r, 2))
        return -1;
    const uint8_t *p = r->data + r->pos;
    r->pos += 2;
    return (int16_t)(uint16_t)(p[0] | (p[1] << 8));
}

int32_t qw_read_long(qw_msgreader *r)
{
    if (!reader_has(r, 4))
        return -1;
    const uint8_t *p = r->data + r->pos;
    r->pos += 4;
    return (int32_t)((uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) |
                     ((uint32_t)p[3] << 24));
}

float qw_read_float(qw_msgreader *r)
{
    union { float f; int32_t i; } u;
    u.i = qw_read_long(r);
    return r->bad ? 0.0f : u.f;
}

float qw_read_coord(qw_msgreader *r)
{
    int v = qw_read_short(r);
    return r->bad ? 0.0f : v * (1.0f / 8.0f);
}

float qw_read_angle8(qw_msgreader *r)
{
    int v = qw_read_char(r);
    return r->bad ? 0.0f : v * (360.0f / 256.0f);
}

float qw_read_angle16(qw_msgreader *r)
{
    int v = qw_read_short(r);
    return r->bad ? 0.0f : v * (360.0f / 65536.0f);
}

static const char *read_string_common(qw_msgreader *r, char *buf, size_t bufsize, bool end_ok)
{
    buf[0] = 0;
    if (r->bad)
        return buf;
    size_t n = 0;
    for (;;) {
        if (r->pos >= r->size) {
            if (end_ok)
                break;
            r->bad = true;
            buf[0] = 0;
            return buf;
        }
        uint8_t c = r->data[r->pos++];
        if (c == 0)
            break;
        if (n + 1 >= bufsize) {
            r->bad = true;
            buf[0] = 0;
            return buf;
        }
        buf[n++] = (char)c;
    }
    buf[n] = 0;
    return buf;
}

const char *qw_read_string(qw_msgreader *r, char *buf, size_t bufsize)
{
    return read_string_common(r, buf, bufsize, false);
}

const char *qw_read_string_or_end(qw_msgreader *r, char *buf, size_t bufsize)
{
    return read_string_common(r, buf, bufsize, true);
}

bool qw_read_data(qw_msgreader *r, void *out, size_t len)
{
    if (!reader_has(r, len))
        return false;
    if (len)
        memcpy(out, r->data + r->pos, len);
    r->pos += len;
    return true;
}

const char *qw_read_string_ref(qw_msgreader *r, size_t limit)
{
    if (r->bad)
        return "";
    const uint8_t *start = r->data + r->pos;
    const uint8_t *nul = memchr(start, 0, r->size - r->pos);
    if (!nul || (size_t)(nul - start) + 1 > limit) {
        r->bad = true;
        return "";
    }
    r->pos += (size_t)(nul - start) + 1;
    return (const char *)start;
}

const uint8_t *qw_read_ref(qw_msgreader *r, size_t len)
{
    if (!reader_has(r, len))
        return NULL;
    const uint8_t *p = r->data + r->pos;
    r->pos += len;
    return p;
}
