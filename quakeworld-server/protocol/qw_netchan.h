/* The QuakeWorld netchan as pure functions over byte buffers (no sockets).
 * Packet header: int32 sequence (bit 31 = carries the reliable block), int32 acknowledged
 * incoming sequence (bit 31 = even/odd toggle of the last reliable block received), and from
 * clients only an int16 qport. Then the whole pending reliable block (if flagged), then
 * unreliable data. One reliable block is in flight; it is resent when the peer acknowledges a
 * packet sent after it without flipping the toggle, and freed when the toggle matches.
 *
 * Typical use:
 *   qw_netchan_init(&nc, is_client, qport);
 *   receive: if (qw_netchan_process(&nc, pkt, len, now, &rd)) parse rd (the payload)
 *   queue reliable data: qw_write_*(&nc.message, ...)   (check qw_netchan_reliable_overflowed)
 *   send: n = qw_netchan_transmit(&nc, unrel, unrel_len, now, out, sizeof out); sendto(out, n) */
#ifndef QW_NETCHAN_H
#define QW_NETCHAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "qw_msg.h"

typedef struct qw_netchan {
    bool is_client;              /* clients put their qport into every packet */
    int qport;

    int32_t incoming_sequence;   /* highest sequence accepted from the peer */
    int32_t incoming_acknowledged;
    int incoming_reliable_acknowledged; /* toggle the peer last acknowledged */
    int incoming_reliable_sequence;     /* toggle of the last reliable block received */

    int32_t outgoing_sequence;   /* sequence of the next packet we send */
    int reliable_sequence;       /* toggle of our reliable block in flight */
    int32_t last_reliable_sequence; /* sequence after the one that last carried it */

    int32_t dropped;             /* packets lost before the last accepted one */
    int32_t drop_count;          /* total gaps seen */
    int32_t stale_count;         /* duplicates / out-of-order packets rejected */
    int32_t bogus_count;         /* malformed headers or impossible acks rejected */
    double last_received;        /* time of the last accepted packet (caller's clock) */

    /* Reliable data queued by the user, moved into reliable_buf when nothing is in flight. */
    qw_sizebuf message;
    uint8_t message_buf[QW_MAX_MSGLEN];
    size_t reliable_length;      /* 0 = no reliable block in flight */
    uint8_t reliable_buf[QW_MAX_MSGLEN];
} qw_netchan;

/* How far ahead of the last accepted sequence a packet may be. A peer cannot have sent more
 * than QW_NETCHAN_MAX_RATE packets a second (13 times ezQuake's 77 at cl_maxfps 77), so after
 * S seconds without an accepted packet at most QW_NETCHAN_GAP_BASE + S * QW_NETCHAN_MAX_RATE
 * are missing, and never more than QW_NETCHAN_MAX_GAP (the 31-bit limit: the server answers
 * with the client's sequence). id's netchan, mvdsv's and ezQuake's accept any forward jump,
 * so one forged packet far ahead makes every real one after it stale; here a forged packet
 * during play (the last one accepted 13 ms ago) can jump about 77 packets, one second of a
 * player's moves, which the next second's real packets overtake. */
#define QW_NETCHAN_GAP_BASE 64
#define QW_NETCHAN_MAX_RATE 1000
#define QW_NETCHAN_MAX_GAP 65536

/* The largest forward jump nc accepts at `now` (the caller's clock, as in process). */
int32_t qw_netchan_max_gap(const qw_netchan *nc, double now);

void qw_netchan_init(qw_netchan *nc, bool is_client, int qport);

/* Accepts an incoming sequenced packet (not connectionless). On success returns true and
 * sets *payload to read the message after the header (servers: the qport is consumed and
 * returned in *qport_out if non-NULL). Returns false, changing nothing but a counter, for
 * truncated headers, another qport than nc's (servers), stale or duplicate sequences,
 * sequences more than qw_netchan_max_gap ahead, acknowledgements of packets never sent and
 * acknowledgements older than the last accepted one (a peer's acknowledgement only grows). */
bool qw_netchan_process(qw_netchan *nc, const uint8_t *pkt, size_t len, double now,
                        qw_msgreader *payload, int *qport_out);

/* Builds the next packet into out (outsize >= QW_MAX_PACKET is always enough): header,
 * the reliable block when due, then `unreliable` if it still fits. Returns its length. The
 * outgoing sequence stops at the 31-bit limit (2^31 - 1, after 320 days at 77 packets a
 * second): the peer then drops the packets as duplicates. */
size_t qw_netchan_transmit(qw_netchan *nc, const uint8_t *unreliable, size_t unreliable_len,
                           uint8_t *out, size_t outsize);

/* True if queued reliable data did not fit (the connection is then unusable: drop it). */
LIBTM_SAFE bool qw_netchan_reliable_overflowed(const qw_netchan *nc);
/* True when a reliable block would be sent now or is waiting for its acknowledgement. */
bool qw_netchan_reliable_pending(const qw_netchan *nc);

/* Reads just the qport of a client packet without changing any state (server side lookup);
 * returns -1 if the packet is too short. */
int qw_netchan_peek_qport(const uint8_t *pkt, size_t len);

#endif
