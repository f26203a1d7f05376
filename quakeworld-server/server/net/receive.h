/* Reading the socket (master, workers parked): each datagram goes to the inbox of the client
 * it belongs to, or to net/connectionless.h. A flood must not cost the players their moves:
 *
 * - a client in play's packets (its own address and port, its qport: sv_client_in_play) are
 *   never charged to a budget and take any slot of its inbox;
 * - every other packet (connectionless, from an unknown address, or from another port or
 *   with another qport than a client's) is first charged to the budget of its source
 *   address (net/source_budget.h) and dropped unprocessed when over it; one that names a
 *   client may hold at most SV_INBOX_FOREIGN slots of its inbox, and gives its slot up to
 *   the client's own packets when the inbox is full;
 * - at most SV_RECEIVE_PER_FRAME datagrams are read per call, so that a flood that keeps
 *   the socket busy cannot keep the frame from running (the rest wait in the kernel).
 * The counters say where every dropped packet came from (sv_net_receive_report). */
#ifndef SV_NET_RECEIVE_H
#define SV_NET_RECEIVE_H

#include <stdint.h>

#define SV_RECEIVE_PER_FRAME 2048
#define SV_INBOX_FOREIGN 2

typedef struct sv_receive_counts {
    uint64_t client_packets;  /* queued for clients in play */
    uint64_t client_dropped;  /* of theirs dropped: inbox full (frames further apart than
                                 SV_INBOX packets of the client) */
    uint64_t other_packets;   /* charged to a source's budget */
    uint64_t over_budget;     /* of those, dropped over their source's budget (or all
                                 sources' together) */
    uint64_t foreign_dropped; /* naming a client, dropped beyond SV_INBOX_FOREIGN or
                                 given up for the client's own */
    uint64_t kernel_dropped;  /* dropped by the kernel, the socket's buffer full
                                 (SO_RXQ_OVFL): nobody's in particular */
} sv_receive_counts;

/* Reads and dispatches what the socket holds, up to SV_RECEIVE_PER_FRAME datagrams; returns
 * how many it read. */
int sv_net_receive(void);
/* The counters so far. */
sv_receive_counts sv_net_receive_counts(void);
/* At shutdown: logs the floods still going on and one line of the counters:
 * "receive: clients in play N packets, D dropped; other sources N, B over budget, F beyond
 *  their share of an inbox; kernel dropped K". */
void sv_net_receive_report(void);

#endif
