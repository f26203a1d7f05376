/* One bot's session: getchallenge and connect, receiving the server's packets, signing on,
 * then sending its command stream on a timer (at the recorded pace or in closed loop) until
 * it is done; a scripted bot stuck inside another player gets out. The link it talks through
 * is bot.c's. */
#include "session.h"

#include <errno.h>
#include <event2/event.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "run.h"
#include "server_parse.h"

#define RETRY_SECONDS 1.0        /* getchallenge / connect resend period */
#define FINISH_WAIT_SECONDS 1.0  /* how long to wait for the acks of the last moves */
#define CLOSED_LOOP_TIMEOUT 0.1  /* -closedloop: send the next move anyway after this long */
#define STUCK_PACKETS 20         /* server packets inside another player before "kill" */
#define UNSTICK_PERIOD 2.0       /* seconds between two such "kill"s */

static void closed_loop_tick(qwbot_bot *b);
static void unstick(qwbot_bot *b, double now);

/* rate 100000: servers that pace replies by the client's rate (mvdsv) must not choke 32
 * players' worth of updates at 77 packets/s; real clients ask for 25000-30000. bigslots 1:
 * on a qwsv with more than 32 slots, the bot may take a slot from 32 on (others ignore it). */
static void send_connect(qwbot_bot *b)
{
    char text[512], models[64] = "";
    int color = (int)(b->index % 14);
    /* the model checksums spare mvdsv its "missing player/eyes model checksum" warning */
    if (b->run->pmodel >= 0 && b->run->emodel >= 0)
        snprintf(models, sizeof models, "\\pmodel\\%ld\\emodel\\%ld", b->run->pmodel,
                 b->run->emodel);
    snprintf(text, sizeof text,
             "connect %d %d %d \"\\name\\%s\\topcolor\\%d\\bottomcolor\\%d\\rate\\100000"
             "\\msg\\1\\bigslots\\1%s\"\n",
             QW_PROTOCOL_VERSION, b->qport, b->challenge, b->name, color, color, models);
    qwbot_bot_send_connectionless(b, text);
}

/* ---- receiving ---- */

static void handle_connectionless(qwbot_bot *b, const uint8_t *data, size_t len)
{
    char text[1024];
    size_t n = len < sizeof text - 1 ? len : sizeof text - 1;
    memcpy(text, data, n);
    text[n] = 0;
    if (n == 0)
        return;
    switch (text[0]) {
    case QW_S2C_CHALLENGE:
        if (b->state != BOT_CHALLENGE)
            return;
        b->challenge = (int32_t)strtol(text + 1, NULL, 10);   /* extension tail ignored */
        qwbot_bot_set_state(b, BOT_CONNECTING);
        b->attempts = 0;
        send_connect(b);
        qwbot_bot_schedule(b, RETRY_SECONDS);
        break;
    case QW_S2C_CONNECTION:
        if (b->state != BOT_CONNECTING)
            return;
        qw_netchan_init(&b->nc, true, b->qport);
        b->resolved_upto = 0;
        b->last_server_packet = qwbot_now();
        qwbot_bot_set_state(b, BOT_SIGNON);
        qwbot_bot_log(b, "connected (qport %d)", b->qport);
        qwbot_bot_stringcmd(b, "new");
        qwbot_bot_schedule(b, 0);
        break;
    case QW_A2A_PRINT: {
        char *msg = text + 1;
        while (*msg == '\n')
            msg++;
        size_t m = strlen(msg);
        while (m && msg[m - 1] == '\n')
            msg[--m] = 0;
        qwbot_bot_log(b, "server says: %s", msg);
        if (b->state == BOT_CONNECTING || b->state == BOT_CHALLENGE)
            qwbot_bot_fail(b, "server refused the connection: %s", msg);
        break;
    }
    default:
        break;   /* pings, extension replies: not for us */
    }
}

static void handle_sequenced(qwbot_bot *b, const uint8_t *data, size_t len, double now)
{
    qw_msgreader payload;
    if (!qw_netchan_process(&b->nc, data, len, now, &payload, NULL)) {
        b->stale_packets++;
        return;
    }
    b->packets_received++;
    b->bytes_received += len;
    b->last_server_packet = now;
    bool answered = b->state == BOT_PLAYING && b->run->opt.closed_loop &&
                    b->nc.incoming_acknowledged >= b->last_move_sequence;
    b->choke_reported = 0;
    if (!qwbot_parse_server_message(b, &payload))
        b->bad_messages++;
    /* after the message: its svc_chokecount tells which earlier moves it answers too */
    qwbot_bot_resolve_acks(b, b->nc.incoming_acknowledged, now);
    if (b->state == BOT_FAILED || b->state == BOT_DONE)
        return;
    unstick(b, now);
    if (b->begin_sent && !b->in_game && !qw_netchan_reliable_pending(&b->nc)) {
        b->in_game = true;
        b->spawned_once = true;
        qwbot_bot_log(b, "in the game (slot %d)", b->playernum);
        if (b->state == BOT_SIGNON)
            qwbot_bot_set_state(b, BOT_SPAWNED);
    }
    if (answered && b->state == BOT_PLAYING) {
        event_del(b->timer_event);
        closed_loop_tick(b);
    }
}

static void on_readable(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    qwbot_bot *b = arg;
    uint8_t buf[8192];
    for (int i = 0; i < 256 && b->fd >= 0 && b->state != BOT_FAILED; i++) {
        ssize_t n = recv(b->fd, buf, sizeof buf, 0);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            if (errno == ECONNREFUSED)   /* nobody on that port (yet): retries go on */
                continue;
            break;
        }
        double now = qwbot_now();
        if (n >= 4 && memcmp(buf, QW_CONNECTIONLESS_PREFIX, 4) == 0)
            handle_connectionless(b, buf + 4, (size_t)n - 4);
        else if (qwbot_bot_netchan_up(b))
            handle_sequenced(b, buf, (size_t)n, now);
    }
    if (b->state == BOT_FAILED)
        qwbot_bot_close_socket(b);
}

/* ---- sending on the timer ---- */

static void record_sent(qwbot_bot *b, const qw_rec_record *r)
{
    if (!b->recording)
        return;
    int rc = r->kind == QW_REC_MOVE
                 ? qw_rec_stream_add_move(b->recording, r->time_ms, &r->cmd)
                 : qw_rec_stream_add_string(b->recording, r->time_ms, r->text);
    if (rc != 0)
        qwbot_bot_fail(b, "cannot record the command stream (out of memory)");
}

/* Records a string command the bot sent on its own (not from its stream), stamped with the
 * time of the last record, so that a replay sends it at the same point of the stream. */
static void record_extra_string(qwbot_bot *b, const char *text)
{
    if (!b->recording)
        return;
    const qw_rec_stream *s = b->recording;
    uint32_t t = s->count ? s->records[s->count - 1].time_ms : 0;
    if (qw_rec_stream_add_string(b->recording, t, text) != 0)
        qwbot_bot_fail(b, "cannot record the command stream (out of memory)");
}

/* -fight: appends the live script's next move (and a chat line when it wants one) to the
 * bot's stream, one interval after the previous move. */
static void generate_live(qwbot_bot *b)
{
    unsigned interval = b->run->interval_ms;
    uint32_t t = b->live->moves * interval;
    qw_rec_cmd cmd;
    char say[64], text[80];
    uint8_t msec = (uint8_t)(interval > 250 ? 250 : interval);
    if (b->visitor)
        qwbot_movers_next(b, msec, &cmd, text, sizeof text);
    else
        qwbot_fight_next(&b->fighter, b, msec, &cmd, say, sizeof say);
    int rc = 0;
    if (b->visitor) {
        if (text[0])
            rc = qw_rec_stream_add_string(b->live, t, text);
    } else if (say[0]) {
        snprintf(text, sizeof text, "say %s", say);
        rc = qw_rec_stream_add_string(b->live, t, text);
    }
    if (rc == 0)
        rc = qw_rec_stream_add_move(b->live, t, &cmd);
    if (rc != 0)
        qwbot_bot_fail(b, "out of memory for the live command stream");
}

/* The next record to send (generated now in -fight mode), or NULL when the stream is done. */
static const qw_rec_record *peek_record(qwbot_bot *b)
{
    if (b->live && b->next_record >= b->live->count && b->live->moves < b->moves_target &&
        b->state == BOT_PLAYING)
        generate_live(b);
    return b->next_record < b->source->count ? &b->source->records[b->next_record] : NULL;
}

/* Scripted modes: a bot that spawned inside another player (KTX puts a player in the way of
 * someone it moves off a full spawn spot) cannot move out; like a player, it types "kill"
 * and respawns elsewhere. Inside = another living player's box overlaps ours and our origin
 * stays where it is, packet after packet, while we try to run. A replay sends only what
 * its trace holds (a recording holds these "kill"s). */
static void unstick(qwbot_bot *b, double now)
{
    if (b->state != BOT_PLAYING || b->run->opt.replay || b->health <= 0)
        return;
    bool still = memcmp(b->stuck_origin, b->origin, sizeof b->origin) == 0;
    memcpy(b->stuck_origin, b->origin, sizeof b->origin);
    bool running = b->history[2].forwardmove || b->history[2].sidemove;
    bool inside = false;
    for (int i = 0; i < QWBOT_MAX_SLOTS && !inside; i++) {
        const qwbot_other *o = &b->others[i];
        inside = i != b->playernum && o->alive && o->seen == b->nc.incoming_sequence &&
                 fabsf(o->origin[0] - b->origin[0]) < 32 &&
                 fabsf(o->origin[1] - b->origin[1]) < 32 &&
                 fabsf(o->origin[2] - b->origin[2]) < 56;
    }
    if (!inside || !still)
        b->inside_other = 0;
    else if (running)
        b->inside_other++;
    if (b->inside_other >= STUCK_PACKETS && now - b->last_unstick >= UNSTICK_PERIOD) {
        qwbot_bot_log(b, "stuck inside another player: kill");
        qwbot_bot_stringcmd(b, "kill");
        record_extra_string(b, "kill");
        b->last_unstick = now;
        b->inside_other = 0;
    }
}

static bool time_is_up(qwbot_bot *b)
{
    double limit = b->run->opt.duration;
    if (limit > 0 && qwbot_now() - b->run->play_start >= limit) {
        b->out_of_time = true;
        return true;
    }
    return false;
}

static void enter_finishing(qwbot_bot *b)
{
    qwbot_bot_set_state(b, BOT_FINISHING);
    qwbot_bot_schedule(b, FINISH_WAIT_SECONDS);
}

/* Sends one record of the stream and records what was sent (-aim: a move turned to the
 * nearest opponent in view). */
static void send_record(qwbot_bot *b, const qw_rec_record *r)
{
    if (r->kind == QW_REC_STRING) {
        qwbot_bot_stringcmd(b, "%s", r->text);
        record_sent(b, r);
        return;
    }
    qw_rec_record sent = *r;
    if (b->run->opt.aim)
        qwbot_fight_aim(b, sent.cmd.angles);
    qwbot_bot_send_move(b, &sent.cmd, true);
    b->moves_sent++;
    record_sent(b, &sent);
}

/* -closedloop: sends the records up to and including the next move, then waits for its
 * answer (handle_sequenced calls back) or CLOSED_LOOP_TIMEOUT. */
static void closed_loop_tick(qwbot_bot *b)
{
    const qw_rec_record *r;
    while (b->moves_sent < b->moves_target && b->state == BOT_PLAYING &&
           (r = peek_record(b))) {
        if (r->kind == QW_REC_MOVE)
            b->last_move_sequence = b->nc.outgoing_sequence;
        send_record(b, r);
        b->next_record++;
        if (r->kind == QW_REC_MOVE)
            break;
    }
    if (b->state != BOT_PLAYING)
        return;
    if (b->moves_sent >= b->moves_target || !peek_record(b) || time_is_up(b)) {
        enter_finishing(b);
        return;
    }
    qwbot_bot_schedule(b, CLOSED_LOOP_TIMEOUT);
}

static void play_tick(qwbot_bot *b, double now)
{
    if (b->run->opt.closed_loop) {
        closed_loop_tick(b);
        return;
    }
    double speed = b->run->opt.speed;
    double elapsed_ms = (now - b->run->play_start) * 1000.0 * speed;
    const qw_rec_record *r;
    while (b->moves_sent < b->moves_target && b->state == BOT_PLAYING &&
           (r = peek_record(b))) {
        if ((double)r->time_ms > elapsed_ms)
            break;
        send_record(b, r);
        b->next_record++;
    }
    if (b->state != BOT_PLAYING)
        return;
    if (b->moves_sent >= b->moves_target || !(r = peek_record(b)) || time_is_up(b)) {
        enter_finishing(b);
        return;
    }
    double due = b->run->play_start + r->time_ms / 1000.0 / speed;
    qwbot_bot_schedule(b, due - now);
}

static void on_timer(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    qwbot_bot *b = arg;
    double now = qwbot_now();
    double idle_period = b->run->interval_ms / 1000.0;
    switch (b->state) {
    case BOT_CHALLENGE:
        b->attempts++;
        qwbot_bot_send_connectionless(b, "getchallenge\n");
        qwbot_bot_schedule(b, RETRY_SECONDS);
        break;
    case BOT_CONNECTING:
        b->attempts++;
        send_connect(b);
        qwbot_bot_schedule(b, RETRY_SECONDS);
        break;
    case BOT_SIGNON:
        if (!b->begin_sent) {
            /* only the netchan: carries and acknowledges the reliable sign-on messages */
            qwbot_bot_send_packet(b, NULL, 0, false);
            qwbot_bot_schedule(b, idle_period);
            break;
        }
        /* after "begin" the server expects moves, as from a real client */
        __attribute__((fallthrough));
    case BOT_SPAWNED: {
        /* idle moves keep the player alive in the game until every bot is in */
        qw_rec_cmd idle = {0};
        idle.msec = (uint8_t)(b->run->interval_ms > 250 ? 250 : b->run->interval_ms);
        idle.angles[1] = b->history[2].angles[1];
        qwbot_bot_send_move(b, &idle, false);
        qwbot_bot_schedule(b, idle_period);
        break;
    }
    case BOT_PLAYING:
        play_tick(b, now);
        break;
    case BOT_FINISHING:
        qwbot_bot_stop(b);
        break;
    default:
        break;
    }
    if (b->state == BOT_FAILED)
        qwbot_bot_close_socket(b);
}

/* Called after each ack: a finishing bot leaves as soon as its last move is answered. */
static void check_finished(qwbot_bot *b)
{
    if (b->state != BOT_FINISHING)
        return;
    for (int i = 0; i < QW_UPDATE_BACKUP; i++)
        if (b->sent[i].is_move && !b->sent[i].resolved && b->sent[i].sequence > 0)
            return;
    qwbot_bot_stop(b);
}

static void on_readable_then_check(evutil_socket_t fd, short what, void *arg)
{
    on_readable(fd, what, arg);
    check_finished(arg);
}

void qwbot_bot_begin_play(qwbot_bot *b, double now)
{
    if (b->state != BOT_SPAWNED)
        return;
    qwbot_bot_set_state(b, BOT_PLAYING);
    b->next_record = 0;
    b->moves_sent = 0;
    event_del(b->timer_event);
    play_tick(b, now);
}

int qwbot_bot_start(qwbot_bot *b)
{
    qwbot_run *run = b->run;
    b->fd = socket(run->server_addr.ss_family, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (b->fd < 0) {
        fprintf(stderr, "qwbot: %s: cannot create a UDP socket: %s (too many bots for the "
                "open-file limit? see ulimit -n)\n", b->name, strerror(errno));
        return -1;
    }
    int size = 1 << 18;
    setsockopt(b->fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof size);
    /* connect() so that only the server's packets reach this socket and send() needs no
     * address */
    if (connect(b->fd, (struct sockaddr *)&run->server_addr, run->server_addrlen) != 0) {
        fprintf(stderr, "qwbot: %s: cannot reach %s: %s\n", b->name, run->opt.server,
                strerror(errno));
        close(b->fd);
        b->fd = -1;
        return -1;
    }
    b->read_event = event_new(run->base, b->fd, EV_READ | EV_PERSIST, on_readable_then_check, b);
    b->timer_event = evtimer_new(run->base, on_timer, b);
    if (!b->read_event || !b->timer_event || event_add(b->read_event, NULL) != 0) {
        fprintf(stderr, "qwbot: %s: cannot register with libevent\n", b->name);
        qwbot_bot_close_socket(b);
        return -1;
    }
    qwbot_bot_set_state(b, BOT_CHALLENGE);
    b->attempts = 1;
    qwbot_bot_send_connectionless(b, "getchallenge\n");
    qwbot_bot_schedule(b, RETRY_SECONDS);
    return 0;
}
