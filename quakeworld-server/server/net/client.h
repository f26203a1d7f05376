/* Client slots: creation and removal (master only) and lookup of the slot a sequenced packet
 * belongs to (master). A worker asks for a drop with server.h. */
#ifndef SV_NET_CLIENT_H
#define SV_NET_CLIENT_H

#include "net/slots.h"
#include "server.h"

void sv_client_init(sv_client *cl, const struct sockaddr_in *from, int qport,
                    const char *userinfo);
/* Removes a client and its player, and clears its slot on everybody's scoreboard (reason
 * NULL = without telling the client, e.g. a reconnect reusing the slot). */
void sv_client_free(sv_client *cl, const char *reason);
/* Connected players and spectators (counted against maxclients and maxspectators). */
void sv_client_count(int *players, int *spectators);
/* The client a sequenced packet comes from (address, or address + qport after a NAT port
 * change), or NULL. */
sv_client *sv_client_for_packet(const struct sockaddr_in *from, const uint8_t *pkt, size_t len);
/* The client in play whose packets come from exactly `from` (address and port) with `qport`,
 * or NULL: the packets that no other source's flood may crowd out (net/receive.h). */
sv_client *sv_client_in_play(const struct sockaddr_in *from, int qport);

#endif
