/* Trace files (recordings, -record and -replay): the command stream each bot sent, so that a
 * run can be replayed exactly. (Not world/trace.h, the collision traces of the map library.)
 *
 * A trace holds, for every bot, the records it sent after spawning: usercmds (one per clc_move,
 * i.e. one "interaction") and string commands, each stamped with its time in milliseconds since
 * the start of play. Times are the bot's schedule, not measured clock readings, so replaying a
 * trace with -record produces a byte-identical file.
 *
 * File format, version 1. The whole file is one gzip stream (zlib's gzwrite; `zcat FILE | xxd`
 * shows the raw bytes). All integers are little-endian.
 *
 *   header
 *     8 bytes   magic "QWBTRACE"
 *     u32       format version (QW_REC_VERSION = 1)
 *     u32       number of bot streams B (1..QW_REC_MAX_BOTS)
 *     u32       move interval in ms the recording script used (informational)
 *     u32       seed of the recording script (informational)
 *     u16 + n   map name: length n (0..63) then n bytes, no NUL (informational)
 *   B streams, one per bot, in bot order
 *     u32       number of records R (0..QW_REC_MAX_RECORDS)
 *     R records, times never decreasing
 *       u8      kind: 1 = move, 2 = string command
 *       u32     time in ms since the start of play
 *       move (15 bytes):
 *         u8    msec (duration of the command)
 *         u16   angles[3] in wire units (65536 per turn): pitch, yaw, roll
 *         i16   forwardmove, sidemove, upmove
 *         u8    buttons (1 attack, 2 jump, 4 use), u8 impulse
 *       string command:
 *         u16   length n (1..QW_REC_MAX_STRING), then n bytes (no NUL, no control chars)
 *   trailer
 *     8 bytes   "QWBTEND\0" (detects truncated files)
 *
 * Readers reject anything else (other magic, other version, out-of-range counts, unknown kinds,
 * times going backwards, trailing bytes) with a message naming the file and the offset. */
#ifndef QW_RECORDING_H
#define QW_RECORDING_H

#include <stddef.h>
#include <stdint.h>

#define QW_REC_MAGIC "QWBTRACE"
#define QW_REC_END "QWBTEND"
#define QW_REC_VERSION 1u
#define QW_REC_MAX_BOTS 1024u
#define QW_REC_MAX_RECORDS 10000000u
#define QW_REC_MAX_STRING 1000u
#define QW_REC_MAX_MAPNAME 63u

enum { QW_REC_MOVE = 1, QW_REC_STRING = 2 };

/* A usercmd exactly as it goes on the wire. */
typedef struct qw_rec_cmd {
    uint8_t msec;
    uint16_t angles[3];
    int16_t forwardmove, sidemove, upmove;
    uint8_t buttons, impulse;
} qw_rec_cmd;

typedef struct qw_rec_record {
    uint8_t kind;
    uint32_t time_ms;
    qw_rec_cmd cmd;         /* kind == QW_REC_MOVE */
    char *text;             /* kind == QW_REC_STRING: owned, NUL-terminated */
} qw_rec_record;

typedef struct qw_rec_stream {
    qw_rec_record *records;
    uint32_t count, capacity;
    uint32_t moves;         /* records of kind MOVE */
} qw_rec_stream;

typedef struct qw_recording {
    uint32_t interval_ms;
    uint32_t seed;
    char map[QW_REC_MAX_MAPNAME + 1];
    uint32_t bot_count;
    qw_rec_stream *bots;    /* bot_count streams */
} qw_recording;

/* An empty trace with `bots` streams (0 on success, -1 if out of memory or too many bots). */
int qw_recording_init(qw_recording *t, uint32_t bots, uint32_t interval_ms, uint32_t seed,
                      const char *map);
void qw_recording_free(qw_recording *t);

/* Appends a record to one stream; returns 0, or -1 (out of memory, string too long or with
 * control characters, time going backwards, too many records). */
int qw_rec_stream_add_move(qw_rec_stream *s, uint32_t time_ms, const qw_rec_cmd *cmd);
int qw_rec_stream_add_string(qw_rec_stream *s, uint32_t time_ms, const char *text);

/* Appends to `dst` the records of `src` up to its max_moves-th move (0 = all), `loops` times;
 * each copy is shifted to start `gap_ms` after the previous copy's last record. 0 or -1. */
int qw_rec_stream_repeat(qw_rec_stream *dst, const qw_rec_stream *src, uint32_t max_moves,
                         uint32_t loops, uint32_t gap_ms);

/* Serialises to the uncompressed byte layout above (malloc'ed into *out). 0 or -1. */
int qw_recording_encode(const qw_recording *t, uint8_t **out, size_t *outlen);
/* Parses the uncompressed layout; on error returns -1 with a message in err. */
int qw_recording_decode(const uint8_t *data, size_t len, qw_recording *t, char *err, size_t errlen);

/* File level: gzip-compressed encode/decode. Errors name the path. */
int qw_recording_save(const qw_recording *t, const char *path, char *err, size_t errlen);
int qw_recording_load(const char *path, qw_recording *t, char *err, size_t errlen);

#endif
