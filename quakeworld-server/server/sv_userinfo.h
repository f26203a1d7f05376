/* A client's userinfo string turned into what the game shows: its name and colours. */
#ifndef SV_USERINFO_H
#define SV_USERINFO_H

struct sv_client;

/* Sets cl->name, topcolor, bottomcolor and spectator from cl->userinfo and cl->slot (master
 * at connect, or a worker on a private copy before CS_USERINFO publishes the result). */
void sv_client_apply_userinfo(struct sv_client *cl);

#endif
