/* Console variables (see admin/cvar.h). */
#include "admin/cvar.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net/client.h"
#include "net/reliable.h"
#include "qw_info.h"
#include "server.h"
#include "version.h"

static sv_cvar cvars[] = {
    {.name = "hostname", .default_value = "qwsv Atomic Quake", .serverinfo_key = "hostname",
     .help = "the server's name in server browsers and quakestat"},
    {.name = "maxclients", .default_value = "16", .serverinfo_key = "maxclients",
     .numeric = true, .integer = true, .lo = 1, .hi = 0 /* set in sv_cvar_init */,
     .help = "player slots (clients already connected stay when it is lowered)"},
    {.name = "timelimit", .default_value = "0", .serverinfo_key = "timelimit", .numeric = true,
     .lo = 0, .hi = 100000,
     .help = "minutes a match lasts on a map (0 = no limit); then the next map of sv_maplist"},
    {.name = "fraglimit", .default_value = "0", .serverinfo_key = "fraglimit", .numeric = true,
     .integer = true, .lo = 0, .hi = 100000,
     .help = "frags that end the match (0 = no limit); then the next map of sv_maplist"},
    {.name = "rcon_password", .default_value = "", .secret = true,
     .help = "password of remote commands (rcon PASSWORD COMMAND); empty = rcon disabled"},
    {.name = "sv_crypt_rcon", .default_value = "1", .numeric = true, .integer = true, .lo = 0,
     .hi = 1,
     .help = "1: rcon proves the password with SHA-1 and a time stamp (mvdsv's default, "
             "ezQuake's cl_crypt_rcon 1); 0: the password is sent as it is"},
    {.name = "sv_timestamplen", .default_value = "60", .numeric = true, .lo = 0, .hi = 1e7,
     .help = "seconds a hashed rcon packet's time stamp may differ from the server's clock "
             "(0: not checked)"},
    {.name = "sv_gamedir", .default_value = "qw", .serverinfo_key = "*gamedir",
     .help = "the game directory announced to clients (serverinfo *gamedir, serverdata)"},
    {.name = "sv_maplist", .default_value = "",
     .help = "map rotation: names separated by spaces; at the time or frag limit the map "
             "after the current one is loaded (empty: the match restarts on the same map)"},
    {.name = "sv_rcon_maxfails", .default_value = "5", .numeric = true, .integer = true,
     .lo = 1, .hi = 1000000,
     .help = "wrong rcon passwords one address may send per sv_rcon_window seconds; after "
             "that, its rcon packets are ignored until the window ends"},
    {.name = "sv_rcon_window", .default_value = "60", .numeric = true, .lo = 0, .hi = 1e7,
     .help = "seconds of the rcon rate limit's window"},
};
#define NUM_CVARS (sizeof cvars / sizeof cvars[0])

static char extra_serverinfo[QW_MAX_SERVERINFO_STRING]; /* keys set with "serverinfo" */

sv_cvar *sv_cvar_find(const char *name)
{
    for (size_t i = 0; i < NUM_CVARS; i++)
        if (!strcasecmp(cvars[i].name, name))
            return &cvars[i];
    return NULL;
}

static bool valid_value(const sv_cvar *cv, const char *value, char *err, size_t errlen)
{
    if (strlen(value) >= sizeof cv->value) {
        snprintf(err, errlen, "%s: value longer than %zu characters", cv->name,
                 sizeof cv->value - 1);
        return false;
    }
    if (cv->serverinfo_key && strpbrk(value, "\\\";")) {
        snprintf(err, errlen, "%s: a serverinfo value may not contain \\, \" or ;", cv->name);
        return false;
    }
    if (!cv->numeric)
        return true;
    char *end;
    double x = strtod(value, &end);
    if (!*value || *end || !isfinite(x) || x < cv->lo || x > cv->hi ||
        (cv->integer && x != floor(x))) {
        snprintf(err, errlen, "%s needs %s from %g to %g (got \"%s\")", cv->name,
                 cv->integer ? "a whole number" : "a number", cv->lo, cv->hi, value);
        return false;
    }
    return true;
}

/* Copies the cvars the rest of the server reads into its options. */
static void apply(void)
{
    sv.opt.maxclients = (int)sv_cvar_number("maxclients");
    sv.opt.fraglimit = (int)sv_cvar_number("fraglimit");
}

void sv_cvar_init(void)
{
    for (size_t i = 0; i < NUM_CVARS; i++)
        snprintf(cvars[i].value, sizeof cvars[i].value, "%s", cvars[i].default_value);
    sv_cvar_find("maxclients")->hi = SV_CLIENT_SLOTS;
    apply();
}

/* Tells the connected clients about a changed serverinfo key (svc_serverinfo). */
static void send_serverinfo_change(const char *key, const char *value)
{
    uint8_t buf[QW_MAX_INFO_STRING * 2];
    qw_sizebuf sb;
    qw_sizebuf_init(&sb, buf, sizeof buf);
    qw_write_byte(&sb, svc_serverinfo);
    qw_write_string(&sb, key);
    qw_write_string(&sb, value);
    if (!sb.overflowed)
        sv_reliable_broadcast(sb.data, sb.cursize);
}

/* After a serverinfo change while a map runs: rebuild it and tell the clients. */
static void serverinfo_changed(const char *key, const char *value)
{
    if (!sv.bsp)
        return;
    sv_cvar_build_serverinfo();
    send_serverinfo_change(key, value);
}

bool sv_cvar_set(const char *name, const char *value, char *err, size_t errlen)
{
    sv_cvar *cv = sv_cvar_find(name);
    if (!cv) {
        snprintf(err, errlen, "unknown variable \"%s\" (cvarlist lists them)", name);
        return false;
    }
    if (!valid_value(cv, value, err, errlen))
        return false;
    snprintf(cv->value, sizeof cv->value, "%s", value);
    apply();
    if (cv->serverinfo_key)
        serverinfo_changed(cv->serverinfo_key, cv->value);
    return true;
}

const char *sv_cvar_string(const char *name)
{
    sv_cvar *cv = sv_cvar_find(name);
    return cv ? cv->value : "";
}

double sv_cvar_number(const char *name)
{
    return atof(sv_cvar_string(name));
}

void sv_cvar_each(void (*fn)(const sv_cvar *cv, void *arg), void *arg)
{
    for (size_t i = 0; i < NUM_CVARS; i++)
        fn(&cvars[i], arg);
}

bool sv_cvar_set_serverinfo(const char *key, const char *value, char *err, size_t errlen)
{
    for (size_t i = 0; i < NUM_CVARS; i++)
        if (cvars[i].serverinfo_key && !strcasecmp(cvars[i].serverinfo_key, key))
            return sv_cvar_set(cvars[i].name, value, err, errlen);
    if (key[0] == '*') {
        snprintf(err, errlen, "serverinfo %s: keys starting with * are set by the server", key);
        return false;
    }
    if (!*key || strlen(key) >= 64 || strlen(value) >= 64 || strpbrk(key, "\\\";") ||
        strpbrk(value, "\\\";")) {
        snprintf(err, errlen, "serverinfo %s: keys and values are 1-63 characters without "
                              "\\, \" or ;", key);
        return false;
    }
    char copy[sizeof extra_serverinfo];
    memcpy(copy, extra_serverinfo, sizeof copy);
    if (!qw_info_set(copy, sizeof copy, key, value)) {
        snprintf(err, errlen, "serverinfo %s: the serverinfo is full (%zu characters)", key,
                 sizeof copy - 1);
        return false;
    }
    memcpy(extra_serverinfo, copy, sizeof copy);
    serverinfo_changed(key, value);
    return true;
}

void sv_info_each(const char *info, void (*fn)(const char *key, const char *value, void *arg),
                  void *arg)
{
    const char *p = info;
    while (*p == '\\') {
        char key[QW_MAX_INFO_STRING], value[QW_MAX_INFO_STRING];
        const char *k = p + 1, *ke = strchr(k, '\\');
        if (!ke)
            break;
        const char *v = ke + 1, *ve = strchr(v, '\\');
        size_t vl = ve ? (size_t)(ve - v) : strlen(v);
        snprintf(key, sizeof key, "%.*s", (int)(ke - k), k);
        snprintf(value, sizeof value, "%.*s", (int)vl, v);
        fn(key, value, arg);
        p = v + vl;
    }
}

typedef struct info_out {
    char *info;
    size_t size;
} info_out;

static void add_pair(const char *key, const char *value, void *arg)
{
    info_out *out = arg;
    qw_info_set(out->info, out->size, key, value);
}

void sv_cvar_add_serverinfo(char *info, size_t size)
{
    for (size_t i = 0; i < NUM_CVARS; i++)
        if (cvars[i].serverinfo_key)
            qw_info_set(info, size, cvars[i].serverinfo_key, cvars[i].value);
    /* the admin's own keys */
    info_out out = {info, size};
    sv_info_each(extra_serverinfo, add_pair, &out);
}

void sv_cvar_build_serverinfo(void)
{
    sv.serverinfo[0] = 0;
    char v[32];
    /* hostname, maxclients, timelimit, fraglimit, *gamedir, ... */
    sv_cvar_add_serverinfo(sv.serverinfo, sizeof sv.serverinfo);
    /* spectators take player slots: as many as there are */
    snprintf(v, sizeof v, "%d", sv.opt.maxclients);
    qw_info_set(sv.serverinfo, sizeof sv.serverinfo, "maxspectators", v);
    qw_info_set(sv.serverinfo, sizeof sv.serverinfo, "map", sv.mapname);
    qw_info_set(sv.serverinfo, sizeof sv.serverinfo, "deathmatch", "1");
    qw_info_set(sv.serverinfo, sizeof sv.serverinfo, "teamplay", "0");
    qw_info_set(sv.serverinfo, sizeof sv.serverinfo, "maxfps", "77");
    qw_info_set(sv.serverinfo, sizeof sv.serverinfo, "*version", "qwsv-" SV_VERSION);
    snprintf(v, sizeof v, "%s-%d", sv_sync_name(sv.opt.sync), sv.opt.threads);
    qw_info_set(sv.serverinfo, sizeof sv.serverinfo, "*sync", v);
}
