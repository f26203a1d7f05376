/* Connectionless packets (0xFFFFFFFF prefix): ping, status, getchallenge, connect.
 * Handled by the master thread while no worker runs (they create and reuse client slots). */
#ifndef SV_OOB_H
#define SV_OOB_H

#include <netinet/in.h>
#include <stddef.h>
#include <stdint.h>

struct sv_client;
void sv_connectionless(const struct sockaddr_in *from, const uint8_t *data, size_t len);
/* Applies a client's userinfo to its name and colours (master or inside CS_USERINFO). */
void sv_client_apply_userinfo(struct sv_client *cl);

#endif
