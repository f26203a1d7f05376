/* The server's one UDP socket. */
#ifndef SV_NET_SOCKET_H
#define SV_NET_SOCKET_H

#include <netinet/in.h>
#include <stdbool.h>
#include <stddef.h>

/* Opens a non-blocking UDP socket bound to ip:port (ip NULL = any). -1 with err on failure. */
int sv_net_open(const char *ip, int port, char *err, size_t errlen);
/* Sends one datagram (sendto on a UDP socket is thread-safe). */
void sv_net_send(const struct sockaddr_in *to, const void *data, size_t len);
/* Sends 0xFFFFFFFF + data (connectionless). */
void sv_net_send_oob(const struct sockaddr_in *to, const void *data, size_t len);
bool sv_addr_equal(const struct sockaddr_in *a, const struct sockaddr_in *b);
const char *sv_addr_str(const struct sockaddr_in *a, char *buf, size_t size);

#endif
