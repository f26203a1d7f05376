/* Name, colours, team and skin from a userinfo string (see net/userinfo.h). */
#include "net/userinfo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qw_info.h"
#include "server.h"

/* Keeps printable characters only, and none that would break a console command. */
static void printable(char *out, size_t size, const char *in)
{
    size_t n = 0;
    for (const char *p = in; *p && n + 1 < size; p++)
        if ((unsigned char)*p >= 32 && *p != '"' && *p != '\\' && *p != ';')
            out[n++] = *p;
    out[n] = 0;
}

static int colour(const char *userinfo, const char *key)
{
    char v[16];
    int c = atoi(qw_info_get(userinfo, key, v, sizeof v)) & 15;
    return c > 13 ? 13 : c;
}

void sv_userinfo_read_public(const char *userinfo, int slot, sv_public_userinfo *out)
{
    char v[QW_MAX_INFO_STRING];
    printable(out->name, sizeof out->name, qw_info_get(userinfo, "name", v, sizeof v));
    if (!out->name[0])
        snprintf(out->name, sizeof out->name, "player%d", slot);
    printable(out->team, sizeof out->team, qw_info_get(userinfo, "team", v, sizeof v));
    printable(out->skin, sizeof out->skin, qw_info_get(userinfo, "skin", v, sizeof v));
    out->topcolor = colour(userinfo, "topcolor");
    out->bottomcolor = colour(userinfo, "bottomcolor");
}

void sv_client_apply_userinfo(sv_client *cl)
{
    sv_public_userinfo pub;
    sv_userinfo_read_public(cl->userinfo, cl->slot, &pub);
    memcpy(cl->name, pub.name, sizeof cl->name);
    memcpy(cl->team, pub.team, sizeof cl->team);
    memcpy(cl->skin, pub.skin, sizeof cl->skin);
    cl->topcolor = pub.topcolor;
    cl->bottomcolor = pub.bottomcolor;
    cl->spectator = sv_userinfo_wants_spectator(cl->userinfo);
}

void sv_userinfo_write_public(char *out, size_t size, const sv_public_userinfo *pub,
                              bool spectator)
{
    char v[16];
    out[0] = 0;
    qw_info_set(out, size, "name", pub->name);
    qw_info_set(out, size, "team", pub->team); /* empty: left out */
    qw_info_set(out, size, "skin", pub->skin);
    snprintf(v, sizeof v, "%d", pub->topcolor);
    qw_info_set(out, size, "topcolor", v);
    snprintf(v, sizeof v, "%d", pub->bottomcolor);
    qw_info_set(out, size, "bottomcolor", v);
    if (spectator)
        qw_info_set(out, size, "*spectator", "1");
}

bool sv_userinfo_key_is_public(const char *key)
{
    static const char *const keys[] = {"name", "team", "skin", "topcolor", "bottomcolor"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        if (!strcmp(key, keys[i]))
            return true;
    return false;
}

bool sv_userinfo_wants_spectator(const char *userinfo)
{
    char v[16];
    qw_info_get(userinfo, "spectator", v, sizeof v);
    return v[0] && strcmp(v, "0") != 0;
}

bool sv_userinfo_wants_bigslots(const char *userinfo)
{
    char v[16];
    if (sv_userinfo_wants_spectator(userinfo))
        return false;
    return atoi(qw_info_get(userinfo, "bigslots", v, sizeof v)) == 1;
}
