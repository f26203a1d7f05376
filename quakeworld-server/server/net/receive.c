/* Reading the socket, with budgets per source (see net/receive.h). */
#define _GNU_SOURCE /* recvmmsg */
#include "net/receive.h"

#include <arpa/inet.h>
#include <errno.h>
#include <string.h>
#include <sys/socket.h>

#include "log.h"
#include "net/client.h"
#include "net/connectionless.h"
#include "net/source_budget.h"
#include "server.h"
#include "stats/counters.h"

#define BATCH 64

static sv_receive_counts counts;
static uint32_t kernel_drops_seen; /* SO_RXQ_OVFL: the socket's drops since it opened */
static sv_source_budget budget;
static bool budget_ready;
static double next_sweep;

static const char *ip_str(uint32_t ip, char *buf, size_t size)
{
    struct in_addr a = {.s_addr = ip};
    inet_ntop(AF_INET, &a, buf, (socklen_t)size);
    return buf;
}

static void flood_ended(uint32_t ip, uint64_t dropped, double seconds, void *ctx)
{
    (void)ctx;
    char addr[INET_ADDRSTRLEN];
    if (ip)
        sv_log("flood from %s ended: %llu packets dropped in %.1f s", ip_str(ip, addr, sizeof addr),
               (unsigned long long)dropped, seconds);
    else
        sv_log("flood from many addresses ended: %llu packets dropped in %.1f s",
               (unsigned long long)dropped, seconds);
}

/* Whether a packet from `from` outside play is within its budget; logs a flood's start. */
static bool charge(const struct sockaddr_in *from)
{
    if (!budget_ready) {
        sv_source_budget_init(&budget, SV_SOURCE_RATE, SV_SOURCE_BURST, SV_SOURCES_RATE,
                              SV_SOURCES_BURST, flood_ended, NULL);
        budget_ready = true;
    }
    counts.other_packets++;
    bool begins;
    sv_source_verdict v = sv_source_take(&budget, from->sin_addr.s_addr, sv.realtime, &begins);
    if (v == SV_SOURCE_PASS)
        return true;
    counts.over_budget++;
    char addr[INET_ADDRSTRLEN];
    if (begins && v == SV_SOURCE_DROP)
        sv_log("flood from %s: over its budget of %.0f packets/s (%.0f at once) outside play: "
               "its packets are dropped unread", ip_str(from->sin_addr.s_addr, addr, sizeof addr),
               SV_SOURCE_RATE, SV_SOURCE_BURST);
    else if (begins)
        sv_log("flood from many addresses: over the budget of %.0f packets/s of all sources "
               "outside play together: their packets are dropped unread (clients in play are "
               "not)", SV_SOURCES_RATE);
    return false;
}

/* Whether inbox packet p is a client in play's own: from its port, with its qport. */
static bool own_packet(const sv_client *cl, const sv_inbox_packet *p)
{
    return p->port == cl->addr.sin_port && qw_netchan_peek_qport(p->data, p->len) == cl->qport;
}

/* The first inbox slot a packet may be removed from: a deferred job (-sched lpt) points at
 * the ones before cl->resume.packets. */
static int first_movable(const sv_client *cl)
{
    return cl->resume.pending ? cl->resume.packets : 0;
}

/* Removes a packet that is not cl's own from its inbox; false if there is none. */
static bool evict_foreign(sv_client *cl)
{
    for (int i = cl->inbox_count - 1; i >= first_movable(cl); i--)
        if (!own_packet(cl, &cl->inbox[i])) {
            memmove(&cl->inbox[i], &cl->inbox[i + 1],
                    (size_t)(cl->inbox_count - i - 1) * sizeof cl->inbox[0]);
            cl->inbox_count--;
            return true;
        }
    return false;
}

static int foreign_packets(const sv_client *cl)
{
    int n = 0;
    for (int i = 0; i < cl->inbox_count; i++)
        n += !own_packet(cl, &cl->inbox[i]);
    return n;
}

static void queue(sv_client *cl, const struct sockaddr_in *from, const uint8_t *data, size_t n,
                  bool own)
{
    if (!own && foreign_packets(cl) >= SV_INBOX_FOREIGN) {
        counts.foreign_dropped++;
        sv_stats_thread()->bad_packets++; /* rejected, as the netchan would have */
        sv_log_bad_client_packet(cl, "another port or qport than the client's: its inbox holds "
                                 "such packets already");
        return;
    }
    if (cl->inbox_count == SV_INBOX && !(own && evict_foreign(cl))) {
        if (own) {
            counts.client_dropped++;
        } else {
            counts.foreign_dropped++;
            sv_stats_thread()->bad_packets++;
        }
        sv_log_bad_client_packet(cl, "inbox full (client sends faster than frames run)");
        return;
    }
    if (own)
        counts.client_packets++;
    sv_inbox_packet *p = &cl->inbox[cl->inbox_count++];
    memcpy(p->data, data, n);
    p->len = (uint16_t)n;
    p->port = from->sin_port;
}

static void dispatch(const struct sockaddr_in *from, const uint8_t *buf, size_t n)
{
    if (n >= 4 && !memcmp(buf, QW_CONNECTIONLESS_PREFIX, 4)) {
        if (charge(from))
            sv_connectionless(from, buf, n);
        return;
    }
    if (n >= 10 && n <= QW_MAX_PACKET) {
        sv_client *cl = sv_client_in_play(from, qw_netchan_peek_qport(buf, n));
        if (cl) {
            queue(cl, from, buf, n, true);
            return;
        }
    }
    if (!charge(from))
        return;
    if (n > QW_MAX_PACKET) {
        sv_log_bad_packet(from, "oversized packet");
        return;
    }
    if (n < 10) {
        sv_log_bad_packet(from, "packet shorter than a netchan header");
        return;
    }
    sv_client *cl = sv_client_for_packet(from, buf, n);
    if (!cl) {
        sv_log_bad_packet(from, "sequenced packet from an unknown address");
        return;
    }
    queue(cl, from, buf, n, false);
}

/* The socket's drop counter, if the kernel sent one with this datagram. */
static void note_kernel_drops(struct msghdr *h)
{
    for (struct cmsghdr *c = CMSG_FIRSTHDR(h); c; c = CMSG_NXTHDR(h, c))
        if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SO_RXQ_OVFL) {
            uint32_t drops;
            memcpy(&drops, CMSG_DATA(c), sizeof drops);
            if (drops > kernel_drops_seen) {
                counts.kernel_dropped += drops - kernel_drops_seen;
                kernel_drops_seen = drops;
            }
        }
}

int sv_net_receive(void)
{
    static uint8_t bufs[BATCH][QW_MAX_PACKET + 64];
    /* a control buffer aligned as the headers CMSG_FIRSTHDR returns */
    static union {
        char buf[CMSG_SPACE(sizeof(uint32_t))];
        struct cmsghdr align;
    } control[BATCH];
    struct mmsghdr msgs[BATCH];
    struct iovec iov[BATCH];
    struct sockaddr_in from[BATCH];
    int got = 0;
    if (sv.realtime >= next_sweep && budget_ready) {
        sv_source_sweep(&budget, sv.realtime, false);
        next_sweep = sv.realtime + 1.0;
    }
    while (got < SV_RECEIVE_PER_FRAME) {
        for (int i = 0; i < BATCH; i++) {
            iov[i] = (struct iovec){bufs[i], sizeof bufs[i]};
            msgs[i].msg_hdr = (struct msghdr){.msg_name = &from[i], .msg_namelen = sizeof from[i],
                                              .msg_iov = &iov[i], .msg_iovlen = 1,
                                              .msg_control = control[i].buf,
                                              .msg_controllen = sizeof control[i].buf};
        }
        int n = recvmmsg(sv.sock, msgs, BATCH, MSG_DONTWAIT, NULL);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        for (int i = 0; i < n; i++) {
            note_kernel_drops(&msgs[i].msg_hdr);
            if (msgs[i].msg_hdr.msg_namelen != sizeof from[i] || from[i].sin_family != AF_INET)
                continue;
            /* a datagram longer than the buffer is cut (MSG_TRUNC): bigger than any packet */
            size_t len = msgs[i].msg_len;
            if (msgs[i].msg_hdr.msg_flags & MSG_TRUNC)
                len = sizeof bufs[i];
            dispatch(&from[i], bufs[i], len);
        }
        got += n;
        if (n < BATCH)
            break; /* the socket is empty */
    }
    return got;
}

sv_receive_counts sv_net_receive_counts(void)
{
    return counts;
}

void sv_net_receive_report(void)
{
    if (budget_ready)
        sv_source_sweep(&budget, sv.realtime, true);
    sv_log("receive: clients in play %llu packets, %llu dropped; other sources %llu packets, "
           "%llu over budget, %llu beyond their share of an inbox; kernel dropped %llu",
           (unsigned long long)counts.client_packets, (unsigned long long)counts.client_dropped,
           (unsigned long long)counts.other_packets, (unsigned long long)counts.over_budget,
           (unsigned long long)counts.foreign_dropped, (unsigned long long)counts.kernel_dropped);
}
