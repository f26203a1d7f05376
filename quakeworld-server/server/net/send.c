/* Reply datagrams (see net/send.h). Nobody writes game state during S, so this reads
 * players and entities freely; it writes only the client it serves (its netchan, frames,
 * reliable queue). */
#include "net/send.h"

#include <string.h>

#include "game/game.h"
#include "net/events.h"
#include "net/reliable.h"
#include "net/replay.h"
#include "net/socket.h"
#include "qw_playerinfo.h"
#include "server.h"
#include "stats/game_work.h"

static bool visible(const uint8_t *pvs, const qw_area_object *obj)
{
    if (obj->num_leafs < 0)
        return true;
    for (int i = 0; i < obj->num_leafs; i++)
        if (qw_pvs_row_has(pvs, obj->leafnums[i]))
            return true;
    return false;
}

static void write_stats(sv_client *cl)
{
    int stats[QW_MAX_CL_STATS];
    sv_game->player_stats(cl->slot, stats);
    if (cl->replay)
        sv_replay_saw_health(cl, stats[STAT_HEALTH]);
    for (int i = 0; i < QW_MAX_CL_STATS; i++) {
        if (cl->stats_valid && stats[i] == cl->sent_stats[i])
            continue;
        uint8_t msg[8];
        qw_sizebuf sb;
        qw_sizebuf_init(&sb, msg, sizeof msg);
        if (stats[i] >= 0 && stats[i] <= 255) {
            qw_write_byte(&sb, svc_updatestat);
            qw_write_byte(&sb, i);
            qw_write_byte(&sb, stats[i]);
        } else {
            qw_write_byte(&sb, svc_updatestatlong);
            qw_write_byte(&sb, i);
            qw_write_long(&sb, stats[i]);
        }
        if (!sv_reliable_write(cl, msg, sb.cursize))
            return;
        cl->sent_stats[i] = stats[i];
    }
    cl->stats_valid = true;
}

/* Room kept for the entities and events after the other players: with more than 32 players
 * in view (big slots) not all fit one datagram, and those that do not are left out rather
 * than the whole unreliable part. */
#define ROOM_AFTER_PLAYERS 512

static void write_players(sv_client *cl, qw_sizebuf *sb, const uint8_t *pvs)
{
    for (int j = 0; j < SV_MAX_CLIENTS; j++) {
        sv_player *p = &sv.players[j];
        sv_client *owner = &sv.clients[j];
        if (!p->active || owner->state != CL_SPAWNED || (j >= QW_MAX_CLIENTS && !cl->bigslots))
            continue;
        if (j != cl->slot && (!visible(pvs, &p->link) ||
                              qw_sizebuf_free_space(sb) < ROOM_AFTER_PLAYERS))
            continue;
        if (cl->replay)
            sv_replay_saw_player(cl, j, p->origin, p->dead);
        qw_playerinfo pi;
        memset(&pi, 0, sizeof pi);
        pi.slot = j;
        memcpy(pi.origin, p->origin, sizeof pi.origin);
        pi.frame = sv_game->player_frame(j);
        double stale = (sv.time - owner->last_cmd_time) * 1000.0;
        pi.msec = stale < 0 ? 0 : stale > 255 ? 255 : (int)stale;
        pi.command = owner->lastcmd;
        if (p->dead) {
            pi.command.angles[0] = 0;
            pi.command.buttons = 0;
            pi.command.impulse = 0;
        }
        memcpy(pi.velocity, p->velocity, sizeof pi.velocity);
        pi.modelindex = sv.model_player;
        pi.effects = p->effects;
        pi.weaponframe = p->weaponframe;
        pi.dead = p->dead;
        qw_playerinfo_write(sb, &pi, j == cl->slot, sv.model_player);
    }
}

static void entity_state(const sv_entity *e, qw_entity_state *s)
{
    memset(s, 0, sizeof *s);
    s->number = e->number;
    memcpy(s->origin, e->origin, sizeof s->origin);
    memcpy(s->angles, e->angles, sizeof s->angles);
    s->modelindex = e->modelindex;
    s->frame = e->frame;
    s->skinnum = e->skinnum;
    s->effects = e->effects;
}

static void write_entities(sv_client *cl, qw_sizebuf *sb, const uint8_t *pvs)
{
    sv_client_frame *to = &cl->frames[cl->netchan.outgoing_sequence & QW_UPDATE_MASK];
    to->num_entities = 0;
    for (int n = SV_FIRST_NONPLAYER; n < sv.num_entities; n++) {
        const sv_entity *e = &sv.entities[n];
        if (e->kind == ENT_FREE || !e->modelindex || !e->visible)
            continue;
        if (!visible(pvs, &e->link))
            continue;
        if (to->num_entities == QW_MAX_PACKET_ENTITIES)
            break;
        entity_state(e, &to->entities[to->num_entities++]);
    }

    /* delta against a frame the client says it has, if we still hold it */
    const sv_client_frame *from = NULL;
    int delta = cl->delta_sequence;
    if (delta >= 0) {
        const sv_client_frame *f = &cl->frames[delta & QW_UPDATE_MASK];
        if ((f->sequence & 0xff) == delta && f->sequence < cl->netchan.outgoing_sequence &&
            cl->netchan.outgoing_sequence - f->sequence < QW_UPDATE_BACKUP - 1)
            from = f;
    }
    if (from) {
        qw_write_byte(sb, svc_deltapacketentities);
        qw_write_byte(sb, delta);
    } else {
        qw_write_byte(sb, svc_packetentities);
    }
    int oldmax = from ? from->num_entities : 0;
    int oldi = 0, newi = 0;
    while (newi < to->num_entities || oldi < oldmax) {
        int newnum = newi < to->num_entities ? to->entities[newi].number : 9999;
        int oldnum = oldi < oldmax ? from->entities[oldi].number : 9999;
        if (newnum == oldnum) {
            qw_entity_delta_write(sb, &from->entities[oldi], &to->entities[newi], false);
            oldi++;
            newi++;
        } else if (newnum < oldnum) {
            qw_entity_delta_write(sb, &sv.entities[newnum].baseline, &to->entities[newi], true);
            newi++;
        } else {
            qw_entity_delta_write_remove(sb, oldnum);
            oldi++;
        }
    }
    qw_write_short(sb, 0);
}

/* The round trip of the frame the client's last packet acknowledges, and the packet loss
 * its moves report. Measured and copied here in S by the client's own worker: in RP others
 * read them (scoreboards, net/scoreboard.h). */
static void update_ping(sv_client *cl)
{
    cl->packet_loss = cl->loss_reported;
    sv_client_frame *acked = &cl->frames[cl->netchan.incoming_acknowledged & QW_UPDATE_MASK];
    if (acked->senttime > 0) {
        double rtt = (sv.realtime - acked->senttime) * 1000.0;
        cl->ping_ms = cl->ping_ms ? cl->ping_ms * 0.9 + rtt * 0.1 : rtt;
        acked->senttime = 0;
    }
}

void sv_send_client(sv_client *cl)
{
    if (!cl->send_reply || cl->state < CL_CONNECTED)
        return;
    cl->send_reply = false;
    /* Several packets this frame get one reply, numbered as the last (below): the client
     * acknowledges only that one, and a QuakeWorld client counts a move without its own
     * reply as lost (ezQuake's "pl") unless svc_chokecount says it was answered together
     * with a later one. */
    if (cl->packets_this_frame > 1)
        cl->chokecount += cl->packets_this_frame - 1;
    cl->packets_this_frame = 0;
    update_ping(cl);
    /* answer with the sequence of the packet we got, so frame slots line up on both sides */
    if (cl->netchan.incoming_sequence >= cl->netchan.outgoing_sequence)
        cl->netchan.outgoing_sequence = cl->netchan.incoming_sequence;
    else
        return;

    uint8_t data[QW_MAX_DATAGRAM];
    qw_sizebuf sb;
    qw_sizebuf_init(&sb, data, sizeof data);
    sv_client_frame *frame = &cl->frames[cl->netchan.outgoing_sequence & QW_UPDATE_MASK];
    frame->sequence = cl->netchan.outgoing_sequence;
    frame->num_entities = 0;
    if (cl->state == CL_SPAWNED) {
        sv_player *p = &sv.players[cl->slot];
        if (!p->spectator) {
            write_stats(cl);
            sv_game_work_note_player(cl);
        }
        if (p->dmg_take || p->dmg_save) {
            qw_write_byte(&sb, svc_damage);
            qw_write_byte(&sb, p->dmg_save > 255 ? 255 : p->dmg_save);
            qw_write_byte(&sb, p->dmg_take > 255 ? 255 : p->dmg_take);
            for (int i = 0; i < 3; i++)
                qw_write_coord(&sb, p->dmg_origin[i]);
            p->dmg_take = p->dmg_save = 0;
        }
        if (p->setangle) {
            qw_write_byte(&sb, svc_setangle);
            for (int i = 0; i < 3; i++)
                qw_write_angle8(&sb, p->angles[i]);
            p->setangle = false;
        }
        uint8_t pvs[4096];
        float eye[3] = {p->origin[0], p->origin[1], p->origin[2] + 22};
        if (sv.pvs->row_bytes <= (int)sizeof pvs)
            qw_pvs_fat(sv.pvs, eye, pvs);
        else
            memset(pvs, 0xff, sizeof pvs);
        write_players(cl, &sb, pvs);
        write_entities(cl, &sb, pvs);
        sv_events_copy_for(p->origin, &cl->events_sent_frame, &sb);
        if (cl->chokecount) {
            qw_write_byte(&sb, svc_chokecount);
            qw_write_byte(&sb, cl->chokecount > 255 ? 255 : cl->chokecount);
            cl->chokecount = 0;
        }
    }
    if (sb.overflowed)
        sb.cursize = 0; /* too much unreliable data: send only the reliable part this time */
    sv_reliable_to_netchan(cl);
    if (cl->reliable.overflowed || qw_netchan_reliable_overflowed(&cl->netchan))
        sv_client_request_drop(cl, "reliable message overflow");
    frame->senttime = sv.realtime;
    uint8_t pkt[QW_MAX_PACKET];
    size_t n = qw_netchan_transmit(&cl->netchan, data, sb.cursize, pkt, sizeof pkt);
    if (cl->replay)
        sv_replay_receive(cl, pkt, n); /* a virtual client's: counted, not sent */
    else
        sv_net_send(&cl->addr, pkt, n);
}
