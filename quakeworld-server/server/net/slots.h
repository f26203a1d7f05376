/* How many client slots there are, are in use, and are told to a client (master only). Below
 * the client slots (net/client.c) and the scoreboards (net/scoreboard.c), which both ask. */
#ifndef SV_NET_SLOTS_H
#define SV_NET_SLOTS_H

#include <stdbool.h>

#include "server.h"

/* Number of client slots there are (the most -maxclients allows). */
#define SV_CLIENT_SLOTS ((int)(sizeof sv.clients / sizeof sv.clients[0]))

/* A client took `slot`: slots above the highest one ever used are free. */
void sv_slots_note_used(int slot);
/* Slots 0 .. sv_slots_used() - 1 may hold clients (the packet lookup stops there). */
int sv_slots_used(void);
/* How many slots players and spectators may use together (maxclients + maxspectators),
 * for a client with big slots or one that knows QuakeWorld's 32 slots. */
int sv_client_slot_limit(bool bigslots);
/* The slots such a client is told about: the limit, or more while clients connected before
 * maxclients was lowered hold slots above it. */
int sv_client_slots_known(bool bigslots);

#endif
