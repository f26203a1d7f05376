/* A worker's request that the master drop one of its clients at the next U (only the master
 * frees slots: sv_client_free in sv_client.h, which also takes the player out of the game).
 * The game rules and the commands that find a reason to drop a client ask here, below both. */
#ifndef SV_DROP_REQUEST_H
#define SV_DROP_REQUEST_H

#include "server.h"

/* Notes the first reason given; later ones are ignored. */
void sv_client_request_drop(sv_client *cl, const char *reason);

#endif
