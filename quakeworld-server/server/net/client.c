/* Client slots (see net/client.h). */
#include "net/client.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game/game.h"
#include "log.h"
#include "net/reliable.h"
#include "net/scoreboard.h"
#include "net/socket.h"
#include "net/userinfo.h"

void sv_client_init(sv_client *cl, const struct sockaddr_in *from, int qport,
                    const char *userinfo)
{
    int slot = (int)(cl - sv.clients);
    sv_reliable_clear(cl); /* its queue no longer counts as tight */
    memset(cl, 0, sizeof *cl);
    sv_slots_note_used(slot);
    cl->slot = slot;
    cl->state = CL_CONNECTED;
    cl->addr = *from;
    cl->qport = qport;
    cl->userid = ++sv.next_userid;
    cl->worker = sv.next_worker++ % sv.opt.threads;
    snprintf(cl->userinfo, sizeof cl->userinfo, "%s", userinfo);
    sv_client_apply_userinfo(cl);
    cl->bigslots = sv_userinfo_wants_bigslots(userinfo);
    qw_netchan_init(&cl->netchan, false, qport);
    cl->netchan.last_received = sv.realtime;
    cl->connect_time = sv.realtime;
    cl->delta_sequence = -1;
    cl->events_sent_frame = sv.framenum;
    cl->bad_log_time = -10;
}

void sv_client_free(sv_client *cl, const char *reason)
{
    if (cl->state == CL_FREE)
        return;
    bool was_spawned = cl->state == CL_SPAWNED;
    if (reason && !cl->replay) {
        /* tell the client, unreliably (it may be gone) */
        uint8_t msg[1] = {svc_disconnect}, pkt[QW_MAX_PACKET];
        sv_reliable_clear(cl);
        qw_sizebuf_clear(&cl->netchan.message);
        cl->netchan.reliable_length = 0;
        size_t n = qw_netchan_transmit(&cl->netchan, msg, 1, pkt, sizeof pkt);
        sv_net_send(&cl->addr, pkt, n);
    }
    if (reason)
        sv_log("%s dropped: %s", cl->name, reason);
    if (was_spawned || sv.players[cl->slot].active)
        sv_game->remove_player(cl->slot);
    cl->state = CL_FREE;
    if (was_spawned && reason && !sv_game->own_messages_and_rotation) { /* QuakeWorld's game says it (ClientDisconnect) */
        char text[128];
        snprintf(text, sizeof text, "%s left the game\n", cl->name);
        sv_broadcast_print(PRINT_HIGH, text);
    }
    /* even a client that never entered was on the scoreboards of those who signed on
     * meanwhile; a reconnect (reason NULL) clears it too, until it enters again */
    sv_scoreboard_announce_leave(cl);
    free(cl->download);
    cl->download = NULL;
}

void sv_client_count(int *players, int *spectators)
{
    *players = *spectators = 0;
    for (int i = 0; i < SV_CLIENT_SLOTS; i++)
        if (sv.clients[i].state >= CL_CONNECTED)
            ++*(sv.clients[i].spectator ? spectators : players);
}

sv_client *sv_client_in_play(const struct sockaddr_in *from, int qport)
{
    int used = sv_slots_used();
    for (int i = 0; i < used; i++) {
        sv_client *cl = &sv.clients[i];
        if (cl->state >= CL_CONNECTED && cl->qport == qport &&
            cl->addr.sin_addr.s_addr == from->sin_addr.s_addr &&
            cl->addr.sin_port == from->sin_port)
            return cl;
    }
    return NULL;
}

sv_client *sv_client_for_packet(const struct sockaddr_in *from, const uint8_t *pkt, size_t len)
{
    int used = sv_slots_used();
    for (int i = 0; i < used; i++) {
        sv_client *cl = &sv.clients[i];
        if (cl->state >= CL_CONNECTED && cl->addr.sin_addr.s_addr == from->sin_addr.s_addr &&
            cl->addr.sin_port == from->sin_port)
            return cl;
    }
    /* Another port of a client's address with its qport: a NAT may have moved it. The port is
     * taken only when the netchan accepts the packet (net/inbox.c), never here. */
    int qport = qw_netchan_peek_qport(pkt, len);
    if (qport < 0)
        return NULL;
    for (int i = 0; i < used; i++) {
        sv_client *cl = &sv.clients[i];
        if (cl->state >= CL_CONNECTED && cl->addr.sin_addr.s_addr == from->sin_addr.s_addr &&
            cl->qport == qport)
            return cl;
    }
    return NULL;
}
