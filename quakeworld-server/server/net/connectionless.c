/* Connectionless packets (see net/connectionless.h). */
#include "net/connectionless.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "admin/rcon.h"
#include "log.h"
#include "net/client.h"
#include "net/socket.h"
#include "net/tokenize.h"
#include "net/userinfo.h"
#include "qw_info.h"
#include "server.h"

#define SV_CHALLENGES ((int)(sizeof sv.challenges / sizeof sv.challenges[0]))

static void reply_print(const struct sockaddr_in *to, const char *text)
{
    char buf[QW_MAX_MSGLEN];
    int n = snprintf(buf, sizeof buf, "%c%s", QW_A2A_PRINT, text);
    if (n >= (int)sizeof buf)
        n = sizeof buf - 1;
    sv_net_send_oob(to, buf, (size_t)n);
}

static void do_status(const struct sockaddr_in *from)
{
    char text[QW_MAX_MSGLEN];
    size_t n = (size_t)snprintf(text, sizeof text, "%s\n", sv.serverinfo);
    for (int i = 0; i < SV_MAX_CLIENTS && n < sizeof text; i++) {
        sv_client *cl = &sv.clients[i];
        if (cl->state != CL_CONNECTED && cl->state != CL_SPAWNED)
            continue;
        char skin[64];
        qw_info_get(cl->userinfo, "skin", skin, sizeof skin);
        int ping = (int)cl->ping_ms;
        char line[160];
        int len = snprintf(line, sizeof line, "%d %d %d %d \"%s\" \"%.32s\" %d %d\n",
                           cl->userid, sv.players[i].frags,
                           (int)((sv.realtime - cl->connect_time) / 60), ping, cl->name, skin,
                           cl->topcolor, cl->bottomcolor);
        if (len < 0 || n + (size_t)len >= sizeof text)
            break; /* only whole lines: a cut line would confuse the parser at the other end */
        memcpy(text + n, line, (size_t)len + 1);
        n += (size_t)len;
    }
    if (n >= sizeof text)
        n = sizeof text - 1;
    text[n] = 0;
    reply_print(from, text);
}

static void do_getchallenge(const struct sockaddr_in *from)
{
    int slot = -1, oldest = 0;
    for (int i = 0; i < SV_CHALLENGES; i++) {
        if (sv_addr_equal(&sv.challenges[i].addr, from)) {
            slot = i;
            break;
        }
        if (sv.challenges[i].time < sv.challenges[oldest].time)
            oldest = i;
    }
    if (slot < 0) {
        slot = oldest;
        sv.challenges[slot].addr = *from;
        sv.challenge_seed = sv.challenge_seed * 1103515245u + 12345u;
        sv.challenges[slot].challenge = (int)((sv.challenge_seed >> 1) & 0x7fffffff);
    }
    sv.challenges[slot].time = sv.realtime;
    char buf[32];
    int n = snprintf(buf, sizeof buf, "%c%d", QW_S2C_CHALLENGE, sv.challenges[slot].challenge);
    sv_net_send_oob(from, buf, (size_t)n);
}

static void do_connect(const struct sockaddr_in *from, const sv_args *a)
{
    char addrs[64];
    if (a->argc < 5) {
        reply_print(from, "\nusage: connect 28 <qport> <challenge> \"<userinfo>\"\n");
        sv_log_bad_packet(from, "connect with too few arguments");
        return;
    }
    if (atoi(sv_arg(a, 1)) != QW_PROTOCOL_VERSION) {
        reply_print(from, "\nServer is protocol version 28.\n");
        sv_log("rejected %s: protocol version %s", sv_addr_str(from, addrs, sizeof addrs),
               sv_arg(a, 1));
        return;
    }
    int qport = atoi(sv_arg(a, 2)) & 0xffff;
    int challenge = atoi(sv_arg(a, 3));
    bool known = false;
    for (int i = 0; i < SV_CHALLENGES; i++)
        if (sv_addr_equal(&sv.challenges[i].addr, from) &&
            sv.challenges[i].challenge == challenge && sv.challenges[i].time > 0) {
            known = true;
            break;
        }
    if (!known) {
        reply_print(from, "\nBad challenge.\n");
        sv_log_bad_packet(from, "connect with a bad challenge");
        return;
    }
    const char *userinfo = sv_arg(a, 4);
    if (!qw_info_validate(userinfo, QW_MAX_INFO_STRING)) {
        reply_print(from, "\nInvalid userinfo string.\n");
        sv_log_bad_packet(from, "connect with an invalid userinfo");
        return;
    }

    /* slots from 32 on only for clients that know them (sv_userinfo_wants_bigslots) */
    int slots = sv.opt.maxclients;
    if (slots > QW_MAX_CLIENTS && !sv_userinfo_wants_bigslots(userinfo))
        slots = QW_MAX_CLIENTS;
    /* a reconnect from the same address and qport reuses its slot */
    sv_client *cl = NULL;
    for (int i = 0; i < sv.opt.maxclients; i++) {
        sv_client *c = &sv.clients[i];
        if (c->state != CL_FREE && sv_addr_equal(&c->addr, from)) {
            sv_log("%s reconnected", c->name);
            sv_client_free(c, NULL);
            cl = c;
            break;
        }
    }
    if (cl && cl - sv.clients >= slots)
        cl = NULL; /* back without "bigslots" from a big slot: a slot below 32, or none */
    if (!cl)
        for (int i = 0; i < slots; i++)
            if (sv.clients[i].state == CL_FREE) {
                cl = &sv.clients[i];
                break;
            }
    if (!cl) {
        reply_print(from, "\nserver is full\n");
        sv_log("rejected %s: server is full (%d clients)", sv_addr_str(from, addrs, sizeof addrs),
               sv.opt.maxclients);
        return;
    }
    sv_client_init(cl, from, qport, userinfo);
    char reply[2] = {QW_S2C_CONNECTION, 0};
    sv_net_send_oob(from, reply, 1);
    sv_log("%s connected from %s (slot %d, worker %d)", cl->name,
           sv_addr_str(from, addrs, sizeof addrs), cl->slot, cl->worker);
}

void sv_connectionless(const struct sockaddr_in *from, const uint8_t *data, size_t len)
{
    char line[1024];
    qw_msgreader r;
    qw_reader_init(&r, data + 4, len - 4);
    qw_read_string_or_end(&r, line, sizeof line);
    if (r.bad) {
        sv_log_bad_packet(from, "connectionless text too long");
        return;
    }
    if (line[0] == QW_A2A_PING && (line[1] == 0 || line[1] == '\n')) {
        uint8_t ack = QW_A2A_ACK;
        sv_net_send(from, &ack, 1);
        return;
    }
    if (!strncmp(line, "rcon", 4) && (line[4] == ' ' || line[4] == '\t' || !line[4])) {
        sv_rcon_packet(from, line); /* before tokenizing: a command may have many words */
        return;
    }
    sv_args a;
    if (!sv_tokenize(line, &a) || a.argc == 0) {
        sv_log_bad_packet(from, "unparsable connectionless command");
        return;
    }
    const char *cmd = a.argv[0];
    if (!strcmp(cmd, "ping")) {
        uint8_t ack = QW_A2A_ACK;
        sv_net_send(from, &ack, 1);
    } else if (!strcmp(cmd, "status")) {
        do_status(from);
    } else if (!strcmp(cmd, "getchallenge")) {
        do_getchallenge(from);
    } else if (!strcmp(cmd, "connect")) {
        do_connect(from, &a);
    } else {
        sv_log_bad_packet(from, "unknown connectionless command");
    }
}
