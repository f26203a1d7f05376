/* Connectionless packets (0xFFFFFFFF prefix): ping, status, getchallenge, connect.
 * Handled by the master thread while no worker runs (they create and reuse client slots). */
#ifndef SV_NET_CONNECTIONLESS_H
#define SV_NET_CONNECTIONLESS_H

#include <netinet/in.h>
#include <stddef.h>
#include <stdint.h>

void sv_connectionless(const struct sockaddr_in *from, const uint8_t *data, size_t len);

#endif
