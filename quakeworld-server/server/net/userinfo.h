/* A client's userinfo string turned into what the game and the others' scoreboards show:
 * its name, colours, team and skin. */
#ifndef SV_NET_USERINFO_H
#define SV_NET_USERINFO_H

#include <stdbool.h>
#include <stddef.h>

struct sv_client;

/* What others see of a client (the keys mvdsv passes on, its "short" userinfo). */
typedef struct sv_public_userinfo {
    char name[32];
    char team[16];
    char skin[32];
    int topcolor, bottomcolor;
} sv_public_userinfo;

/* Reads them from a userinfo: printable names only (they end up in logs and console
 * commands), "player<slot>" for an empty one, colours 0..13. */
void sv_userinfo_read_public(const char *userinfo, int slot, sv_public_userinfo *out);
/* Sets cl's public fields and its spectator flag from cl->userinfo and cl->slot (master, at
 * connect). */
void sv_client_apply_userinfo(struct sv_client *cl);
/* The userinfo others are sent: the public keys, and "*spectator 1" for a spectator. */
void sv_userinfo_write_public(char *out, size_t size, const sv_public_userinfo *pub,
                              bool spectator);
/* Whether a key's change is shown to everybody (svc_setinfo). */
bool sv_userinfo_key_is_public(const char *key);
/* Whether a connecting client may take a slot from 32 on: a player (not a spectator) whose
 * userinfo says "bigslots 1" (qwbot does; QuakeWorld clients know 32 slots and would stop at
 * a message about slot 32). */
bool sv_userinfo_wants_bigslots(const char *userinfo);
/* Whether a userinfo asks to watch ("spectator" set and not "0"). */
bool sv_userinfo_wants_spectator(const char *userinfo);

#endif
