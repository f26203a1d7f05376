/* Per-client reliable queues (QuakeWorld's "backbuf"). Any worker may append to any
 * client's queue, so every append happens inside a critical section (these functions are
 * transaction_safe); only the owner moves blocks into its netchan, in the S phase.
 * A message is never split between blocks. When the backlog is full the queue is marked
 * overflowed and the client is dropped. */
#ifndef SV_NET_RELIABLE_H
#define SV_NET_RELIABLE_H

#include "server.h"

/* Appends one whole message. False if it does not fit (queue marked overflowed). */
LIBTM_SAFE bool sv_reliable_write(sv_client *cl, const void *data, size_t len);
/* A client entering the game: broadcasts look at its state (under its queue's lock in
 * -sync region). */
LIBTM_SAFE void sv_reliable_mark_spawned(sv_client *cl);
/* svc_print / svc_stufftext helpers (build the message on the stack, then append). */
LIBTM_SAFE bool sv_reliable_print(sv_client *cl, int level, const char *text);
LIBTM_SAFE bool sv_reliable_stufftext(sv_client *cl, const char *text);
/* Appends the message to every client in the game (connected or spawned); false if some
 * queue overflowed (that client will be dropped). Inside a job of -sched lpt it waits in the
 * worker's outbox for S (false when the outbox is full). */
LIBTM_SAFE bool sv_reliable_broadcast(const void *data, size_t len);
/* The same for a message about player `slot` (its frags, its userinfo): clients that know
 * only 32 slots do not get it when the slot is a big one. */
LIBTM_SAFE bool sv_reliable_broadcast_about(int slot, const void *data, size_t len);
LIBTM_SAFE bool sv_broadcast_print(int level, const char *text);

/* S phase (owner only): moves queued blocks into the netchan when it can take them, and
 * notes whether the queue is tight. */
void sv_reliable_to_netchan(sv_client *cl);
/* RP: whether every queue had room to spare at the end of the last S (the move commands of
 * one frame add far less than SV_RELIABLE_SPARE blocks to any queue). */
bool sv_reliable_queues_roomy(void);
void sv_reliable_clear(sv_client *cl);
/* -sched lpt: RP (each worker, its own outbox, before its jobs run): empties the outbox of
 * the last frame. S (the client's own worker): appends every worker's outbox to cl's queue. */
void sv_reliable_clear_outbox(void);
void sv_reliable_deliver_outboxes(sv_client *cl);

#endif
