/* S phase: building and sending one client's reply datagram (its worker, or the master). */
#ifndef SV_NET_SEND_H
#define SV_NET_SEND_H

#include "server.h"

void sv_send_client(sv_client *cl);

#endif
