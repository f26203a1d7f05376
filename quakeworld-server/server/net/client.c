/* Client slots (see net/client.h). */
#include "net/client.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game/game.h"
#include "log.h"
#include "net/reliable.h"
#include "net/socket.h"
#include "net/userinfo.h"

/* Slots above the highest one ever used are free: the packet lookup stops there. */
static int slots_used;

void sv_client_init(sv_client *cl, const struct sockaddr_in *from, int qport,
                    const char *userinfo)
{
    int slot = (int)(cl - sv.clients);
    sv_reliable_clear(cl); /* its queue no longer counts as tight */
    memset(cl, 0, sizeof *cl);
    if (slot >= slots_used)
        slots_used = slot + 1;
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
    if (reason) {
        /* tell the client, unreliably (it may be gone) */
        uint8_t msg[1] = {svc_disconnect}, pkt[QW_MAX_PACKET];
        sv_reliable_clear(cl);
        qw_sizebuf_clear(&cl->netchan.message);
        cl->netchan.reliable_length = 0;
        size_t n = qw_netchan_transmit(&cl->netchan, msg, 1, pkt, sizeof pkt);
        sv_net_send(&cl->addr, pkt, n);
        sv_log("%s dropped: %s", cl->name, reason);
    }
    if (was_spawned || sv.players[cl->slot].active) {
        sv_game_remove_player(cl->slot);
        if (reason) {
            char text[128];
            snprintf(text, sizeof text, "%s left the game\n", cl->name);
            cl->state = CL_FREE;
            sv_broadcast_print(PRINT_HIGH, text);
            uint8_t frags[4] = {svc_updatefrags, (uint8_t)cl->slot, 0, 0};
            sv_reliable_broadcast_about(cl->slot, frags, sizeof frags);
        }
    }
    free(cl->download);
    cl->download = NULL;
    cl->state = CL_FREE;
}

sv_client *sv_client_for_packet(const struct sockaddr_in *from, const uint8_t *pkt, size_t len)
{
    for (int i = 0; i < slots_used; i++) {
        sv_client *cl = &sv.clients[i];
        if (cl->state >= CL_CONNECTED && cl->addr.sin_addr.s_addr == from->sin_addr.s_addr &&
            cl->addr.sin_port == from->sin_port)
            return cl;
    }
    int qport = qw_netchan_peek_qport(pkt, len);
    if (qport < 0)
        return NULL;
    for (int i = 0; i < slots_used; i++) {
        sv_client *cl = &sv.clients[i];
        if (cl->state >= CL_CONNECTED && cl->addr.sin_addr.s_addr == from->sin_addr.s_addr &&
            cl->qport == qport) {
            cl->addr.sin_port = from->sin_port; /* the NAT changed the port */
            return cl;
        }
    }
    return NULL;
}
