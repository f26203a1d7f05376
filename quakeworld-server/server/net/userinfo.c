/* Name and colours from a userinfo string (see net/userinfo.h). */
#include "net/userinfo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qw_info.h"
#include "server.h"

void sv_client_apply_userinfo(sv_client *cl)
{
    char v[64];
    qw_info_get(cl->userinfo, "name", v, sizeof v);
    /* keep printable characters only: names end up in logs and in console commands */
    size_t n = 0;
    for (const char *p = v; *p && n + 1 < sizeof cl->name; p++)
        if ((unsigned char)*p >= 32 && *p != '"' && *p != '\\' && *p != ';')
            cl->name[n++] = *p;
    cl->name[n] = 0;
    if (!n)
        snprintf(cl->name, sizeof cl->name, "player%d", cl->slot);
    cl->topcolor = atoi(qw_info_get(cl->userinfo, "topcolor", v, sizeof v)) & 15;
    cl->bottomcolor = atoi(qw_info_get(cl->userinfo, "bottomcolor", v, sizeof v)) & 15;
    if (cl->topcolor > 13)
        cl->topcolor = 13;
    if (cl->bottomcolor > 13)
        cl->bottomcolor = 13;
    qw_info_get(cl->userinfo, "spectator", v, sizeof v);
    cl->spectator = v[0] && strcmp(v, "0") != 0;
}

bool sv_userinfo_wants_bigslots(const char *userinfo)
{
    char v[16];
    qw_info_get(userinfo, "spectator", v, sizeof v);
    if (v[0] && strcmp(v, "0") != 0)
        return false;
    return atoi(qw_info_get(userinfo, "bigslots", v, sizeof v)) == 1;
}
