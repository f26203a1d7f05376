/* Sequenced packets with one reliable block in flight (see qw_netchan.h). */
#include "qw_netchan.h"

#include <string.h>

void qw_netchan_init(qw_netchan *nc, bool is_client, int qport)
{
    memset(nc, 0, sizeof *nc);
    nc->is_client = is_client;
    nc->qport = qport & 0xffff;
    /* Start at 1: a peer rejects sequences <= its incoming_sequence, which starts at 0. */
    nc->outgoing_sequence = 1;
    qw_sizebuf_init(&nc->message, nc->message_buf, sizeof nc->message_buf);
}

int32_t qw_netchan_max_gap(const qw_netchan *nc, double now)
{
    double silent = now - nc->last_received;
    if (!(silent > 0)) /* nothing accepted yet at this clock, or a clock that went back */
        silent = 0;
    double gap = QW_NETCHAN_GAP_BASE + silent * QW_NETCHAN_MAX_RATE;
    return gap < QW_NETCHAN_MAX_GAP ? (int32_t)gap : QW_NETCHAN_MAX_GAP;
}

bool qw_netchan_process(qw_netchan *nc, const uint8_t *pkt, size_t len, double now,
                        qw_msgreader *payload, int *qport_out)
{
    qw_msgreader r;
    qw_reader_init(&r, pkt, len);
    uint32_t sequence = (uint32_t)qw_read_long(&r);
    uint32_t sequence_ack = (uint32_t)qw_read_long(&r);
    int qport = -1;
    if (!nc->is_client)
        qport = qw_read_short(&r) & 0xffff;
    if (r.bad) {
        nc->bogus_count++;
        return false;
    }
    int reliable_message = (int)(sequence >> 31);
    int reliable_ack = (int)(sequence_ack >> 31);
    int32_t seq = (int32_t)(sequence & 0x7fffffffu);
    int32_t ack = (int32_t)(sequence_ack & 0x7fffffffu);

    if (seq <= nc->incoming_sequence) {
        nc->stale_count++;
        return false;
    }
    /* A server's packets come from one client: another qport is somebody else's. */
    if (!nc->is_client && qport != nc->qport) {
        nc->bogus_count++;
        return false;
    }
    if (seq - nc->incoming_sequence > qw_netchan_max_gap(nc, now)) {
        nc->bogus_count++;
        return false;
    }
    /* The peer cannot acknowledge a packet we have not sent yet, nor less than it did in an
     * earlier packet (what it acknowledges is the highest sequence it has accepted). */
    if (ack >= nc->outgoing_sequence || ack < nc->incoming_acknowledged) {
        nc->bogus_count++;
        return false;
    }

    nc->dropped = seq - (nc->incoming_sequence + 1);
    if (nc->dropped > 0)
        nc->drop_count++;

    /* Our reliable block arrived when the peer's toggle matches ours. */
    if (reliable_ack == nc->reliable_sequence)
        nc->reliable_length = 0;

    nc->incoming_sequence = seq;
    nc->incoming_acknowledged = ack;
    nc->incoming_reliable_acknowledged = reliable_ack;
    if (reliable_message)
        nc->incoming_reliable_sequence ^= 1;
    nc->last_received = now;

    if (qport_out)
        *qport_out = qport;
    qw_reader_init(payload, pkt + r.pos, len - r.pos);
    return true;
}

size_t qw_netchan_transmit(qw_netchan *nc, const uint8_t *unreliable, size_t unreliable_len,
                           uint8_t *out, size_t outsize)
{
    bool send_reliable = false;

    /* The peer acknowledged a packet sent after our reliable block without flipping the
     * toggle: it was lost, send it again. */
    if (nc->reliable_length && nc->incoming_acknowledged >= nc->last_reliable_sequence &&
        nc->incoming_reliable_acknowledged != nc->reliable_sequence)
        send_reliable = true;

    /* Nothing in flight: the queued reliable data becomes the new block. */
    if (!nc->reliable_length && nc->message.cursize && !nc->message.overflowed) {
        memcpy(nc->reliable_buf, nc->message_buf, nc->message.cursize);
        nc->reliable_length = nc->message.cursize;
        nc->message.cursize = 0;
        nc->reliable_sequence ^= 1;
        send_reliable = true;
    }

    qw_sizebuf send;
    qw_sizebuf_init(&send, out, outsize);
    uint32_t w1 = (uint32_t)nc->outgoing_sequence | ((uint32_t)send_reliable << 31);
    uint32_t w2 = (uint32_t)nc->incoming_sequence |
                  ((uint32_t)nc->incoming_reliable_sequence << 31);
    if (nc->outgoing_sequence < INT32_MAX)
        nc->outgoing_sequence++;
    qw_write_long(&send, (int32_t)w1);
    qw_write_long(&send, (int32_t)w2);
    if (nc->is_client)
        qw_write_short(&send, nc->qport);

    if (send_reliable) {
        qw_write_data(&send, nc->reliable_buf, nc->reliable_length);
        nc->last_reliable_sequence = nc->outgoing_sequence;
    }
    /* Unreliable data only if it fits within one datagram's payload. */
    size_t header = nc->is_client ? 10 : 8;
    size_t limit = QW_MAX_MSGLEN + header;
    if (limit > outsize)
        limit = outsize;
    if (unreliable_len && send.cursize + unreliable_len <= limit)
        qw_write_data(&send, unreliable, unreliable_len);
    return send.cursize;
}

LIBTM_SAFE bool qw_netchan_reliable_overflowed(const qw_netchan *nc)
{
    return nc->message.overflowed;
}

bool qw_netchan_reliable_pending(const qw_netchan *nc)
{
    return nc->reliable_length != 0 || nc->message.cursize != 0;
}

int qw_netchan_peek_qport(const uint8_t *pkt, size_t len)
{
    if (len < 10)
        return -1;
    return pkt[8] | (pkt[9] << 8);
}
