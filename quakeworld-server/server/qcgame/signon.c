/* The QuakeC game's sign-on (see qcgame/signon.h). */
#include <string.h>

#include "qcgame/signon.h"
#include "server.h"

/* The sign-on, written while the map spawns, cut into chunks afterwards. */
static uint8_t signon[32 * 1100];
static size_t signon_len;

LIBTM_SAFE void qcg_signon_write(const void *data, size_t len)
{
    if (signon_len + len > sizeof signon)
        return; /* the sign-on is full: the rest is not sent (as an overflowing one) */
    memcpy(signon + signon_len, data, len);
    signon_len += len;
}

/* Cuts the sign-on into the chunks "prespawn" sends, at message boundaries (the lengths of
 * the messages are remembered as they are written). */
static int message_ends[4096];
static int num_message_ends;

void qcg_signon_mark_end(void)
{
    if (num_message_ends < (int)(sizeof message_ends / sizeof message_ends[0]))
        message_ends[num_message_ends++] = (int)signon_len;
}

static void emit_chunk(int start, int end)
{
    if (sv.num_signon_chunks == 32)
        return; /* the sign-on is full */
    int len = end - start;
    if (len > (int)sizeof sv.signon_data[0])
        len = (int)sizeof sv.signon_data[0];
    memcpy(sv.signon_data[sv.num_signon_chunks], signon + start, (size_t)len);
    sv.signon_len[sv.num_signon_chunks++] = (uint16_t)len;
}

void qcg_signon_cut(void)
{
    const int room = (int)sizeof sv.signon_data[0] - 64;
    sv.num_signon_chunks = 0;
    qcg_signon_mark_end();
    int start = 0, prev = 0;
    for (int i = 0; i < num_message_ends; i++) {
        int end = message_ends[i];
        if (end - start > room && prev > start) {
            emit_chunk(start, prev);
            start = prev;
        }
        prev = end;
    }
    if (prev > start || sv.num_signon_chunks == 0)
        emit_chunk(start, prev);
}

void qcg_signon_begin(void)
{
    signon_len = 0;
    num_message_ends = 0;
}
