/* Virtual clients replaying a trace (see net/replay.h). */
#include "net/replay.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "log.h"
#include "net/client.h"
#include "qw_clc_move.h"
#include "qw_recording.h"
#include "qw_svc.h"
#include "stats/counters.h"

/* qwbot -aim turns to players shown in its last two replies */
#define AIM_SEEN_WITHIN 2

typedef struct sv_replay_client {
    qw_netchan nc;                    /* its side of the connection */
    const qw_rec_stream *stream;
    uint32_t next;                    /* its next record */
    double loop_ms;                   /* the stream's times go on by this after each loop */
    double origin_time;               /* -replayspeed F: when its schedule's time 0 was */
    bool playing;                     /* in the game: moves from now on */
    int spawncount;                   /* of its sign-on, as serverdata said */
    uint32_t unclocked_ms;            /* closed loop: the msec of its moves sent since the game
                                       * clock last advanced (sv_replay_game_seconds) */
    qw_rec_cmd history[3];            /* the last three moves sent, oldest first */
    int32_t valid_sequence;           /* the last frame it got, for clc_delta (0: none) */
    /* what its replies showed: itself, and the players in its view */
    float origin[3];
    int health;
    int others_end;                   /* slots below this were shown */
    struct {
        float origin[3];
        int32_t seen;                 /* the reply that showed it last (0: never) */
        bool alive;
    } others[SV_MAX_CLIENTS];
} __attribute__((aligned(64))) sv_replay_client;

static qw_recording trace;
static sv_replay_client replayed[SV_MAX_CLIENTS]; /* by slot */
static int slots[SV_MAX_CLIENTS], count;

bool sv_replay_load(char *err, size_t errlen)
{
    if (qw_recording_load(sv.opt.replay, &trace, err, errlen) != 0)
        return false;
    for (uint32_t i = 0; i < trace.bot_count; i++)
        if (trace.bots[i].moves == 0) {
            snprintf(err, errlen, "-replay %s: stream %u has no moves to replay (record one "
                                  "with qwbot -record)", sv.opt.replay, i);
            return false;
        }
    if (trace.bot_count == 0) {
        snprintf(err, errlen, "-replay %s: the trace holds no bots", sv.opt.replay);
        return false;
    }
    return true;
}

bool sv_replay_running(void)
{
    return count > 0;
}

/* Appends a packet to cl's inbox, as the receive phase does with one from the socket. */
static void queue_packet(sv_client *cl, const uint8_t *pkt, size_t len)
{
    if (cl->inbox_count == SV_INBOX)
        return; /* as a network packet then: lost (the netchan counts the gap) */
    sv_inbox_packet *p = &cl->inbox[cl->inbox_count++];
    memcpy(p->data, pkt, len);
    p->len = (uint16_t)len;
    p->port = cl->addr.sin_port;
}

static void transmit(sv_client *cl, sv_replay_client *vc, const uint8_t *unreliable, size_t len)
{
    uint8_t pkt[QW_MAX_PACKET];
    size_t n = qw_netchan_transmit(&vc->nc, unreliable, len, pkt, sizeof pkt);
    queue_packet(cl, pkt, n);
}

static void stringcmd(sv_replay_client *vc, const char *text)
{
    qw_write_byte(&vc->nc.message, clc_stringcmd);
    qw_write_string(&vc->nc.message, text);
}

/* qwbot -aim: the move turned to the nearest living player shown lately, if any. */
static void aim(const sv_replay_client *vc, qw_rec_cmd *cmd)
{
    if (vc->health <= 0)
        return;
    int best = -1;
    float best_dist = 1e30f;
    for (int i = 0; i < vc->others_end; i++) {
        const __typeof__(vc->others[0]) *o = &vc->others[i];
        if (!o->seen || !o->alive || vc->nc.incoming_sequence - o->seen > AIM_SEEN_WITHIN)
            continue;
        float d[3] = {o->origin[0] - vc->origin[0], o->origin[1] - vc->origin[1],
                      o->origin[2] - vc->origin[2]};
        float dist = sqrtf(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
        if (dist > 1 && dist < best_dist) {
            best_dist = dist;
            best = i;
        }
    }
    if (best < 0)
        return;
    float yaw, pitch;
    qw_aim_degrees(vc->origin, vc->others[best].origin, &yaw, &pitch);
    cmd->angles[0] = qw_angle_to_wire(pitch);
    cmd->angles[1] = qw_angle_to_wire(yaw);
    cmd->angles[2] = 0;
}

/* The record after `next`, going round the stream (its times then go on). */
static const qw_rec_record *take_record(sv_replay_client *vc)
{
    const qw_rec_stream *s = vc->stream;
    if (vc->next == s->count) {
        vc->next = 0;
        vc->loop_ms += s->records[s->count - 1].time_ms + trace.interval_ms;
    }
    return &s->records[vc->next++];
}

/* When the next move is due (-replayspeed F), on the server's clock. */
static double next_move_due(const sv_replay_client *vc)
{
    const qw_rec_stream *s = vc->stream;
    double loop = vc->loop_ms;
    for (uint32_t i = vc->next, seen = 0; seen < s->count; i++, seen++) {
        if (i == s->count) {
            i = 0;
            loop += s->records[s->count - 1].time_ms + trace.interval_ms;
        }
        if (s->records[i].kind == QW_REC_MOVE)
            return vc->origin_time + (s->records[i].time_ms + loop) / 1000.0 / sv.opt.replay_speed;
    }
    return vc->origin_time;
}

/* Sends the stream's records up to and including its next move, in one packet (qwbot sends
 * string commands on the reliable channel with the next move). */
static void send_next_move(sv_client *cl, sv_replay_client *vc)
{
    const qw_rec_record *r;
    while ((r = take_record(vc))->kind == QW_REC_STRING)
        stringcmd(vc, r->text);
    qw_rec_cmd cmd = r->cmd;
    vc->unclocked_ms += cmd.msec;
    aim(vc, &cmd);
    vc->history[0] = vc->history[1];
    vc->history[1] = vc->history[2];
    vc->history[2] = cmd;
    uint8_t buf[128];
    qw_sizebuf sb;
    qw_sizebuf_init(&sb, buf, sizeof buf);
    qw_clc_write_move(&sb, sv.have_chktbl ? &sv.chktbl : NULL, vc->nc.outgoing_sequence, 0,
                      vc->history);
    if (vc->valid_sequence && vc->nc.outgoing_sequence - vc->valid_sequence < QW_UPDATE_BACKUP - 1)
        qw_clc_write_delta(&sb, vc->valid_sequence);
    transmit(cl, vc, buf, sb.cursize);
}

/* The sign-on, as qwbot and every client walk it: serverdata -> the sound and model lists, page
 * by page -> prespawn with the map's checksum -> the chunks the server asks for ("cmd ...")
 * -> "skins" -> begin. */
static bool signon_message(void *ctx, const qw_svc *m)
{
    sv_replay_client *vc = ctx;
    char text[64];
    switch (m->id) {
    case svc_serverdata:
        vc->spawncount = m->u.serverdata.spawncount;
        snprintf(text, sizeof text, "soundlist %d 0", vc->spawncount);
        stringcmd(vc, text);
        break;
    case svc_soundlist:
    case svc_modellist:
        if (m->u.list.next)
            snprintf(text, sizeof text, "%s %d %d", m->id == svc_soundlist ? "soundlist"
                     : "modellist", vc->spawncount, m->u.list.next);
        else if (m->id == svc_soundlist)
            snprintf(text, sizeof text, "modellist %d 0", vc->spawncount);
        else
            snprintf(text, sizeof text, "prespawn %d 0 %d", vc->spawncount,
                     (int32_t)sv.bsp_checksum2); /* it has the map */
        stringcmd(vc, text);
        break;
    case svc_stufftext:
        for (const char *line = m->u.text; *line; line += strcspn(line, "\n"), line += !!*line) {
            size_t n = strcspn(line, "\n");
            if (n > 4 && n < sizeof text && !strncmp(line, "cmd ", 4)) {
                snprintf(text, sizeof text, "%.*s", (int)n - 4, line + 4);
                stringcmd(vc, text);
            } else if (n == 5 && !strncmp(line, "skins", 5)) {
                snprintf(text, sizeof text, "begin %d", vc->spawncount);
                stringcmd(vc, text);
            }
        }
        break;
    default:
        break;
    }
    return true;
}

bool sv_replay_start(char *err, size_t errlen)
{
    int n = sv.opt.replay_clients ? sv.opt.replay_clients : (int)trace.bot_count;
    int players, spectators;
    sv_client_count(&players, &spectators);
    if (players + n > sv.opt.maxclients) {
        snprintf(err, errlen, "-replayclients %d: maxclients is %d (raise it: -maxclients N)",
                 n, sv.opt.maxclients);
        return false;
    }
    if (trace.map[0] && strcmp(trace.map, sv.mapname))
        sv_log("-replay %s was recorded on %s, the server runs %s: the moves go elsewhere",
               sv.opt.replay, trace.map, sv.mapname);
    int limit = sv_client_slot_limit(true);
    for (int i = 0; i < n; i++) {
        int slot = 0;
        while (slot < limit && sv.clients[slot].state != CL_FREE)
            slot++;
        if (slot == limit) {
            snprintf(err, errlen, "-replayclients %d: no free slot for virtual client %d", n,
                     i + 1);
            return false;
        }
        char info[128];
        snprintf(info, sizeof info, "\\name\\replay%d\\topcolor\\%d\\bottomcolor\\%d\\bigslots\\1",
                 i + 1, i % 14, (i / 14) % 14);
        /* no datagram comes from 0.0.0.0:0: the socket never finds this client */
        struct sockaddr_in nowhere = {.sin_family = AF_INET};
        sv_client *cl = &sv.clients[slot];
        int qport = 0x7000 + i;
        sv_client_init(cl, &nowhere, qport, info);
        sv_replay_client *vc = &replayed[slot];
        memset(vc, 0, sizeof *vc);
        qw_netchan_init(&vc->nc, true, qport);
        vc->stream = &trace.bots[i % (int)trace.bot_count];
        cl->replay = vc;
        slots[count++] = slot;
        stringcmd(vc, "new");
        transmit(cl, vc, NULL, 0);
    }
    sv_log("-replay %s: %d virtual clients (streams of %u bots, %s), slots %d..%d",
           sv.opt.replay, n, trace.bot_count,
           sv.opt.replay_speed > 0 ? "at the trace's pace" : "closed loop", slots[0],
           slots[count - 1]);
    return true;
}

/* The virtual client in slot `slot`, unless the slot was freed (dropped) since. */
static sv_replay_client *still_replaying(int slot)
{
    sv_client *cl = &sv.clients[slot];
    return cl->state != CL_FREE && cl->replay == &replayed[slot] ? cl->replay : NULL;
}

double sv_replay_game_seconds(double real_seconds)
{
    if (count == 0 || sv.opt.replay_speed > 0)
        return real_seconds;
    uint64_t ms = 0;
    int movers = 0;
    for (int i = 0; i < count; i++) {
        sv_replay_client *vc = still_replaying(slots[i]);
        if (!vc || !vc->unclocked_ms)
            continue;
        ms += vc->unclocked_ms;
        movers++;
        vc->unclocked_ms = 0;
    }
    return movers ? ms / 1000.0 / movers : real_seconds;
}

double sv_replay_queue_due(double now)
{
    if (count == 0)
        return 1e9;
    uint64_t t0 = sv_stats_ticks();
    double wait = 1e9;
    for (int i = 0; i < count; i++) {
        sv_client *cl = &sv.clients[slots[i]];
        sv_replay_client *vc = still_replaying(slots[i]);
        if (!vc || cl->resume.pending)
            continue; /* a packet of a -sched lpt job waits for the serial phase */
        if (!vc->playing || sv.opt.replay_speed <= 0) {
            /* signing on, or closed loop: the client's worker queued the next packet with
             * the reply, unless a job's deferred packet was in the way (then here) */
            if (cl->inbox_count == 0) {
                if (vc->playing)
                    send_next_move(cl, vc);
                else
                    transmit(cl, vc, NULL, 0);
            }
            wait = 0;
            continue;
        }
        double due;
        while ((due = next_move_due(vc)) <= now && cl->inbox_count < SV_INBOX)
            send_next_move(cl, vc);
        if (cl->inbox_count)
            wait = 0;
        else if (due - now < wait)
            wait = due - now;
    }
    sv_stats_thread()->replay_ticks += sv_stats_ticks() - t0;
    return wait;
}

/* The virtual client's side of a reply (timed as replay_seconds by the caller). */
static void receive(sv_client *cl, const uint8_t *pkt, size_t len)
{
    sv_replay_client *vc = cl->replay;
    qw_msgreader payload;
    if (!qw_netchan_process(&vc->nc, pkt, len, sv.realtime, &payload, NULL))
        return;
    if (!vc->playing) {
        /* signing on: what the reply says is read (only then: in the game the server reads
         * its game state, not its replies; aim comes from sv_replay_saw_*) */
        qw_svc_walk(&payload, signon_message, vc, NULL);
        if (cl->state == CL_SPAWNED) {
            vc->playing = true;
            vc->origin_time = sv.realtime;
        }
    }
    if (vc->playing)
        vc->valid_sequence = vc->nc.incoming_sequence; /* the frame's entities came with it */
    /* the next packet at once (closed loop; while signing on, the next step or just the
     * acknowledgement), unless a -sched lpt job left packets for the serial phase, which
     * empties the inbox: then from the receive phase once it ran */
    if (cl->resume.pending || (vc->playing && sv.opt.replay_speed > 0))
        return;
    if (vc->playing)
        send_next_move(cl, vc);
    else
        transmit(cl, vc, NULL, 0);
}

void sv_replay_receive(sv_client *cl, const uint8_t *pkt, size_t len)
{
    sv_thread_stats *st = sv_stats_thread();
    uint64_t t0 = sv_stats_ticks();
    st->replayed_replies++;
    st->replayed_bytes += len;
    receive(cl, pkt, len);
    st->replay_ticks += sv_stats_ticks() - t0;
}

void sv_replay_saw_player(sv_client *cl, int slot, const float origin[3], bool dead)
{
    sv_replay_client *vc = cl->replay;
    if (slot == cl->slot) {
        memcpy(vc->origin, origin, sizeof vc->origin);
        return;
    }
    memcpy(vc->others[slot].origin, origin, sizeof vc->others[slot].origin);
    vc->others[slot].alive = !dead;
    vc->others[slot].seen = cl->netchan.outgoing_sequence;
    if (slot >= vc->others_end)
        vc->others_end = slot + 1;
}

void sv_replay_saw_health(sv_client *cl, int health)
{
    cl->replay->health = health;
}
