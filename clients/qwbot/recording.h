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
 *     u32       format version (QWBOT_TRACE_VERSION = 1)
 *     u32       number of bot streams B (1..QWBOT_TRACE_MAX_BOTS)
 *     u32       move interval in ms the recording script used (informational)
 *     u32       seed of the recording script (informational)
 *     u16 + n   map name: length n (0..63) then n bytes, no NUL (informational)
 *   B streams, one per bot, in bot order
 *     u32       number of records R (0..QWBOT_TRACE_MAX_RECORDS)
 *     R records, times never decreasing
 *       u8      kind: 1 = move, 2 = string command
 *       u32     time in ms since the start of play
 *       move (15 bytes):
 *         u8    msec (duration of the command)
 *         u16   angles[3] in wire units (65536 per turn): pitch, yaw, roll
 *         i16   forwardmove, sidemove, upmove
 *         u8    buttons (1 attack, 2 jump, 4 use), u8 impulse
 *       string command:
 *         u16   length n (1..QWBOT_TRACE_MAX_STRING), then n bytes (no NUL, no control chars)
 *   trailer
 *     8 bytes   "QWBTEND\0" (detects truncated files)
 *
 * Readers reject anything else (other magic, other version, out-of-range counts, unknown kinds,
 * times going backwards, trailing bytes) with a message naming the file and the offset. */
#ifndef QWBOT_RECORDING_H
#define QWBOT_RECORDING_H

#include <stddef.h>
#include <stdint.h>

#define QWBOT_TRACE_MAGIC "QWBTRACE"
#define QWBOT_TRACE_END "QWBTEND"
#define QWBOT_TRACE_VERSION 1u
#define QWBOT_TRACE_MAX_BOTS 1024u
#define QWBOT_TRACE_MAX_RECORDS 10000000u
#define QWBOT_TRACE_MAX_STRING 1000u
#define QWBOT_TRACE_MAX_MAPNAME 63u

enum { QWBOT_REC_MOVE = 1, QWBOT_REC_STRING = 2 };

/* A usercmd exactly as it goes on the wire. */
typedef struct qwbot_cmd {
    uint8_t msec;
    uint16_t angles[3];
    int16_t forwardmove, sidemove, upmove;
    uint8_t buttons, impulse;
} qwbot_cmd;

typedef struct qwbot_record {
    uint8_t kind;
    uint32_t time_ms;
    qwbot_cmd cmd;          /* kind == QWBOT_REC_MOVE */
    char *text;             /* kind == QWBOT_REC_STRING: owned, NUL-terminated */
} qwbot_record;

typedef struct qwbot_stream {
    qwbot_record *records;
    uint32_t count, capacity;
    uint32_t moves;         /* records of kind MOVE */
} qwbot_stream;

typedef struct qwbot_trace {
    uint32_t interval_ms;
    uint32_t seed;
    char map[QWBOT_TRACE_MAX_MAPNAME + 1];
    uint32_t bot_count;
    qwbot_stream *bots;     /* bot_count streams */
} qwbot_trace;

/* An empty trace with `bots` streams (0 on success, -1 if out of memory or too many bots). */
int qwbot_trace_init(qwbot_trace *t, uint32_t bots, uint32_t interval_ms, uint32_t seed,
                     const char *map);
void qwbot_trace_free(qwbot_trace *t);

/* Appends a record to one stream; returns 0, or -1 (out of memory, string too long or with
 * control characters, time going backwards, too many records). */
int qwbot_stream_add_move(qwbot_stream *s, uint32_t time_ms, const qwbot_cmd *cmd);
int qwbot_stream_add_string(qwbot_stream *s, uint32_t time_ms, const char *text);

/* Appends to `dst` the records of `src` up to its max_moves-th move (0 = all), `loops` times;
 * each copy is shifted to start `gap_ms` after the previous copy's last record. 0 or -1. */
int qwbot_stream_repeat(qwbot_stream *dst, const qwbot_stream *src, uint32_t max_moves,
                        uint32_t loops, uint32_t gap_ms);

/* Serialises to the uncompressed byte layout above (malloc'ed into *out). 0 or -1. */
int qwbot_trace_encode(const qwbot_trace *t, uint8_t **out, size_t *outlen);
/* Parses the uncompressed layout; on error returns -1 with a message in err. */
int qwbot_trace_decode(const uint8_t *data, size_t len, qwbot_trace *t, char *err, size_t errlen);

/* File level: gzip-compressed encode/decode. Errors name the path. */
int qwbot_trace_save(const qwbot_trace *t, const char *path, char *err, size_t errlen);
int qwbot_trace_load(const char *path, qwbot_trace *t, char *err, size_t errlen);

#endif
