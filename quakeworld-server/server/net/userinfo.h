/* A client's userinfo string turned into what the game shows: its name and colours. */
#ifndef SV_NET_USERINFO_H
#define SV_NET_USERINFO_H

#include <stdbool.h>

struct sv_client;

/* Sets cl->name, topcolor, bottomcolor and spectator from cl->userinfo and cl->slot (master
 * at connect, or a worker on a private copy before CS_USERINFO publishes the result). */
void sv_client_apply_userinfo(struct sv_client *cl);
/* Whether a connecting client may take a slot from 32 on: a player (not a spectator) whose
 * userinfo says "bigslots 1" (qwbot does; QuakeWorld clients know 32 slots and would stop at
 * a message about slot 32). */
bool sv_userinfo_wants_bigslots(const char *userinfo);

#endif
