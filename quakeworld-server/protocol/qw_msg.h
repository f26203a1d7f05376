/* Message buffers: a writer with an overflow flag and a bounds-checked reader.
 * Encoding (little-endian): coord = int16 in 1/8 unit, angle8 = one byte of 360/256 degrees,
 * angle16 = int16 of 360/65536 degrees, strings NUL-terminated.
 * Writers are transaction_safe so the server can fill message buffers inside atomic blocks. */
#ifndef QW_MSG_H
#define QW_MSG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "qw_protocol.h"

/* Writer over caller-owned memory. A write that does not fit writes nothing and sets
 * `overflowed`; later writes are still attempted (a smaller one may fit), so callers check
 * `overflowed` once after building a message. */
typedef struct qw_sizebuf {
    uint8_t *data;
    size_t maxsize;
    size_t cursize;
    bool overflowed;
} qw_sizebuf;

LIBTM_SAFE void qw_sizebuf_init(qw_sizebuf *sb, uint8_t *data, size_t maxsize);
LIBTM_SAFE void qw_sizebuf_clear(qw_sizebuf *sb);
/* Room for len bytes, or NULL (and overflowed set) when it does not fit. */
LIBTM_SAFE uint8_t *qw_sizebuf_reserve(qw_sizebuf *sb, size_t len);
LIBTM_SAFE size_t qw_sizebuf_free_space(const qw_sizebuf *sb);

LIBTM_SAFE void qw_write_byte(qw_sizebuf *sb, int c);
LIBTM_SAFE void qw_write_char(qw_sizebuf *sb, int c);
LIBTM_SAFE void qw_write_short(qw_sizebuf *sb, int c);
LIBTM_SAFE void qw_write_long(qw_sizebuf *sb, int32_t c);
LIBTM_SAFE void qw_write_float(qw_sizebuf *sb, float f);
/* Writes s and its NUL (NULL writes just the NUL). */
LIBTM_SAFE void qw_write_string(qw_sizebuf *sb, const char *s);
LIBTM_SAFE void qw_write_coord(qw_sizebuf *sb, float f);
LIBTM_SAFE void qw_write_angle8(qw_sizebuf *sb, float degrees);
LIBTM_SAFE void qw_write_angle16(qw_sizebuf *sb, float degrees);
LIBTM_SAFE void qw_write_data(qw_sizebuf *sb, const void *data, size_t len);

/* Length of a NUL-terminated string without strlen (which is not transaction_safe). */
LIBTM_SAFE size_t qw_strlen(const char *s);
/* Copies at most size-1 chars and always terminates (size > 0). Returns the length copied. */
LIBTM_SAFE size_t qw_strlcpy(char *dst, const char *src, size_t size);

/* Reader. Every read past the end sets `bad` and returns -1 (integers), 0 (floats) or ""
 * (strings); once bad, all later reads fail the same way, so a parser may check once. */
typedef struct qw_msgreader {
    const uint8_t *data;
    size_t size;
    size_t pos;
    bool bad;
} qw_msgreader;

void qw_reader_init(qw_msgreader *r, const void *data, size_t size);
size_t qw_reader_remaining(const qw_msgreader *r);
int qw_read_byte(qw_msgreader *r);      /* 0..255 or -1 */
int qw_read_char(qw_msgreader *r);      /* -128..127 or -1 (check bad to tell -1 apart) */
int qw_read_short(qw_msgreader *r);     /* signed 16-bit or -1 */
int32_t qw_read_long(qw_msgreader *r);  /* -1 on error */
float qw_read_float(qw_msgreader *r);
float qw_read_coord(qw_msgreader *r);
float qw_read_angle8(qw_msgreader *r);
float qw_read_angle16(qw_msgreader *r);
/* Reads a NUL-terminated string into buf (bufsize > 0) and returns buf. A string longer than
 * bufsize-1 or missing its NUL sets bad and returns "" (a parser drops such packets). */
const char *qw_read_string(qw_msgreader *r, char *buf, size_t bufsize);
/* Reads up to a NUL or the end of the message (for connectionless text lines). */
const char *qw_read_string_or_end(qw_msgreader *r, char *buf, size_t bufsize);
/* Copies len bytes; sets bad (and copies nothing) when fewer remain. */
bool qw_read_data(qw_msgreader *r, void *out, size_t len);
/* In place (valid as long as the message is): the string at the read position, checked as
 * qw_read_string checks it with a buffer of `limit` bytes ("" and bad when it fails), and
 * len bytes (NULL and bad when fewer remain). */
const char *qw_read_string_ref(qw_msgreader *r, size_t limit);
const uint8_t *qw_read_ref(qw_msgreader *r, size_t len);

#endif
