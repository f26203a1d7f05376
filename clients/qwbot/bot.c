/* One bot's link to its server: its state, sending (connectionless text, string commands,
 * moves on the netchan), timing the acknowledgements of its moves, failing and the clean
 * "drop" at the end. What the bot does with the link is session.c's. */
#include "bot.h"

#include <errno.h>
#include <event2/event.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "qw_clc_move.h"
#include "run.h"

const char *qwbot_state_name(qwbot_state s)
{
    static const char *const names[] = {"challenge", "connecting", "signon", "spawned",
                                        "playing", "finishing", "done", "failed"};
    return (unsigned)s < sizeof names / sizeof names[0] ? names[s] : "?";
}

void qwbot_bot_set_state(qwbot_bot *b, qwbot_state s)
{
    b->state = s;
    b->state_since = qwbot_now();
}

void qwbot_bot_log(qwbot_bot *b, const char *fmt, ...)
{
    if (!b->run->opt.verbose)
        return;
    char msg[2300];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fprintf(stderr, "[%8.3f] %s: %s\n", qwbot_now() - b->run->start_time, b->name, msg);
}

void qwbot_bot_schedule(qwbot_bot *b, double seconds)
{
    if (!b->timer_event)   /* stopped */
        return;
    if (seconds < 0)
        seconds = 0;
    struct timeval tv = {(time_t)seconds, (suseconds_t)((seconds - (time_t)seconds) * 1e6)};
    evtimer_add(b->timer_event, &tv);
}

static void send_raw(qwbot_bot *b, const uint8_t *data, size_t len)
{
    if (b->fd < 0)
        return;
    ssize_t n = send(b->fd, data, len, 0);
    if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != ECONNREFUSED)
        qwbot_bot_log(b, "send failed: %s", strerror(errno));
    b->packets_sent++;
    b->bytes_sent += len;
}

void qwbot_bot_send_connectionless(qwbot_bot *b, const char *text)
{
    uint8_t buf[1024];
    size_t n = strlen(text);
    if (n > sizeof buf - 4)
        n = sizeof buf - 4;
    memcpy(buf, QW_CONNECTIONLESS_PREFIX, 4);
    memcpy(buf + 4, text, n);
    send_raw(b, buf, n + 4);
}

void qwbot_bot_stringcmd(qwbot_bot *b, const char *fmt, ...)
{
    char text[1100];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    qwbot_bot_log(b, "-> %s", text);
    qw_write_byte(&b->nc.message, clc_stringcmd);
    qw_write_string(&b->nc.message, text);
    if (qw_netchan_reliable_overflowed(&b->nc))
        qwbot_bot_fail(b, "reliable message buffer overflowed (the server does not "
                       "acknowledge our commands)");
}

/* Forget a sent move that can no longer be acknowledged on its own. */
static void count_unresolved(qwbot_bot *b, qwbot_sent *e)
{
    if (e->sequence > 0 && !e->resolved) {
        e->resolved = true;
        if (e->is_move)
            b->moves_unacked++;
    }
}

void qwbot_bot_send_packet(qwbot_bot *b, const uint8_t *unreliable, size_t len, bool is_move)
{
    uint8_t out[QW_MAX_PACKET + 16];
    int32_t seq = b->nc.outgoing_sequence;
    size_t n = qw_netchan_transmit(&b->nc, unreliable, len, out, sizeof out);
    qwbot_sent *e = &b->sent[seq & QW_UPDATE_MASK];
    count_unresolved(b, e);
    e->sequence = seq;
    e->time = qwbot_now();
    e->is_move = is_move;
    e->resolved = false;
    send_raw(b, out, n);
}

/* Sends one packet carrying `cmd` as the newest of the three usercmds of a clc_move. */
void qwbot_bot_send_move(qwbot_bot *b, const qw_rec_cmd *cmd, bool is_move)
{
    b->history[0] = b->history[1];
    b->history[1] = b->history[2];
    b->history[2] = *cmd;
    uint8_t buf[128];
    qw_sizebuf sb;
    qw_sizebuf_init(&sb, buf, sizeof buf);
    qw_clc_write_move(&sb, b->run->chktbl, b->nc.outgoing_sequence, 0, b->history);
    /* -movers reads whole entity lists (movers.h): no delta asked for */
    if (b->valid_sequence && !b->visitor &&
        b->nc.outgoing_sequence - b->valid_sequence < QW_UPDATE_BACKUP - 1)
        qw_clc_write_delta(&sb, b->valid_sequence);
    qwbot_bot_send_packet(b, buf, sb.cursize, is_move);
}

void qwbot_bot_resolve_acks(qwbot_bot *b, int32_t ack, double now)
{
    if (ack <= b->resolved_upto)
        return;
    int32_t from = b->resolved_upto + 1;
    if (ack - from >= QW_UPDATE_BACKUP)
        from = ack - QW_UPDATE_BACKUP + 1;   /* older slots were counted when reused */
    for (int32_t s = from; s <= ack; s++) {
        qwbot_sent *e = &b->sent[s & QW_UPDATE_MASK];
        if (e->sequence != s || e->resolved)
            continue;
        if (s == ack) {
            e->resolved = true;
            if (e->is_move) {
                b->moves_acked++;
                double rtt = (now - e->time) * 1e6;
                qwbot_latency_add(&b->run->latency, rtt < 0 ? 0 : (uint32_t)rtt);
            }
        } else if (s >= ack - b->choke_reported) {
            /* the server says it answered it with this packet, as QuakeWorld clients read
             * svc_chokecount: not lost */
            e->resolved = true;
            if (e->is_move)
                b->moves_choked++;
        } else {
            count_unresolved(b, e);
        }
    }
    b->choke_reported = 0;
    b->resolved_upto = ack;
}

void qwbot_bot_close_socket(qwbot_bot *b)
{
    if (b->read_event) {
        event_free(b->read_event);
        b->read_event = NULL;
    }
    if (b->timer_event) {
        event_free(b->timer_event);
        b->timer_event = NULL;
    }
    if (b->fd >= 0) {
        close(b->fd);
        b->fd = -1;
    }
}

bool qwbot_bot_netchan_up(const qwbot_bot *b)
{
    return b->state >= BOT_SIGNON && b->state <= BOT_FINISHING && b->fd >= 0;
}

static void send_drop(qwbot_bot *b)
{
    /* like a real client: "drop" three times, unreliably, and go */
    static const uint8_t drop[] = {clc_stringcmd, 'd', 'r', 'o', 'p', 0};
    for (int i = 0; i < 3; i++)
        qwbot_bot_send_packet(b, drop, sizeof drop, false);
}

void qwbot_bot_stop(qwbot_bot *b)
{
    if (b->state == BOT_DONE || b->state == BOT_FAILED) {
        qwbot_bot_close_socket(b);
        return;
    }
    if (qwbot_bot_netchan_up(b))
        send_drop(b);
    for (int i = 0; i < QW_UPDATE_BACKUP; i++)
        count_unresolved(b, &b->sent[i]);
    qwbot_bot_close_socket(b);
    qwbot_bot_set_state(b, BOT_DONE);
}

void qwbot_bot_fail(qwbot_bot *b, const char *fmt, ...)
{
    if (b->state == BOT_DONE || b->state == BOT_FAILED)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(b->fail_reason, sizeof b->fail_reason, fmt, ap);
    va_end(ap);
    fprintf(stderr, "qwbot: %s (%s): %s\n", b->name, qwbot_state_name(b->state),
            b->fail_reason);
    if (qwbot_bot_netchan_up(b))
        send_drop(b);
    for (int i = 0; i < QW_UPDATE_BACKUP; i++)
        count_unresolved(b, &b->sent[i]);
    /* the socket is closed by the caller's loop or at the end (events may be running) */
    if (b->read_event)
        event_del(b->read_event);
    if (b->timer_event)
        event_del(b->timer_event);
    qwbot_bot_set_state(b, BOT_FAILED);
}

bool qwbot_bot_completed(const qwbot_bot *b)
{
    return b->state == BOT_DONE && b->spawned_once &&
           (b->moves_sent == b->moves_target || b->out_of_time);
}
