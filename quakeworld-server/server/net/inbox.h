/* The request-processing work of one client (its worker, RP): netchan, parsing, then its
 * string commands and movement commands, each movement command one CS_MOVE_COMMAND. */
#ifndef SV_NET_INBOX_H
#define SV_NET_INBOX_H

#include "server.h"

/* Netchan, parse and execute every queued packet of cl, then empty its inbox. In a job of
 * -sched lpt it stops at the first step that must wait for the serial phase (cl->resume
 * says where; the inbox is kept until then). */
void sv_client_process_inbox(sv_client *cl);
/* The serial phase: runs what a job left of cl's packets, then empties its inbox. */
void sv_client_resume(sv_client *cl);

#endif
