/* The request-processing work of one client (its worker, RP): netchan, parsing, then its
 * string commands and movement commands, each movement command one CS_MOVE_COMMAND. */
#ifndef SV_PACKET_H
#define SV_PACKET_H

#include "server.h"

/* Netchan, parse and execute every queued packet of cl, then empty its inbox. */
void sv_client_process_inbox(sv_client *cl);

#endif
