/* The commands of the server console and rcon: status, map, kick, say, serverinfo, quit,
 * set, exec, cvarlist, cmdlist (the table is sv_admin_commands; admin/interpreter.c runs
 * it). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "admin/cvar.h"
#include "admin/interpreter.h"
#include "admin/map_change.h"
#include "admin/stdin_console.h"
#include "frame.h"
#include "log.h"
#include "net/client.h"
#include "net/client_commands.h"
#include "net/reliable.h"
#include "net/scoreboard.h"
#include "net/socket.h"
#include "qw_info.h"
#include "server.h"

static void cmd_status(const sv_args *a)
{
    (void)a;
    int players, spectators;
    sv_client_count(&players, &spectators);
    double on_map = sv_mapchange_map_seconds();
    sv_cmd_printf("hostname : %s\naddress  : %s:%d\nmap      : %s (%d:%02d on it; timelimit "
                  "%s min, fraglimit %s)\nplayers  : %d of %d, spectators %d of %d\n"
                  "userid frags ping  time name             address",
                  sv_cvar_string("hostname"), sv.opt.ip ? sv.opt.ip : "0.0.0.0", sv.opt.port,
                  sv.mapname, (int)on_map / 60, (int)on_map % 60, sv_cvar_string("timelimit"),
                  sv_cvar_string("fraglimit"), players, sv.opt.maxclients, spectators,
                  sv.opt.maxspectators);
    for (int i = 0; i < SV_CLIENT_SLOTS; i++) {
        sv_client *cl = &sv.clients[i];
        if (cl->state < CL_CONNECTED)
            continue;
        char addr[64], name[160];
        int secs = (int)(sv.realtime - cl->connect_time);
        sv_cmd_printf("%6d %5d %4d %2d:%02d %-16s %s%s", cl->userid, sv_scoreboard_frags(i),
                      sv_scoreboard_ping(cl), secs / 60, secs % 60,
                      sv_log_escape(cl->name, name, sizeof name),
                      sv_addr_str(&cl->addr, addr, sizeof addr),
                      cl->spectator ? " (spectator)"
                      : cl->state == CL_CONNECTED ? " (signing on)" : "");
    }
}

static void cmd_map(const sv_args *a)
{
    if (a->argc == 1) {
        if (sv.bsp)
            sv_cmd_printf("map %s", sv.mapname);
        else
            sv_cmd_printf("map %s (not loaded yet)", sv_mapchange_pending());
        return;
    }
    if (a->argc > 2) {
        sv_cmd_error("usage: map NAME (one map name, such as crateprefab_dm)");
        return;
    }
    char err[1024];
    if (!sv_mapchange_request(a->argv[1], err, sizeof err)) {
        sv_cmd_error("map %s: %s", a->argv[1], err);
        return;
    }
    if (sv.bsp)
        sv_cmd_printf("changing to map %s (requested by %s)", a->argv[1], sv_cmd_source());
}

/* A client by userid (a number) or by name. */
static sv_client *find_client(const char *who)
{
    char *end;
    long id = strtol(who, &end, 10);
    for (int i = 0; i < SV_CLIENT_SLOTS; i++) {
        sv_client *cl = &sv.clients[i];
        if (cl->state >= CL_CONNECTED && !*end && *who && cl->userid == id)
            return cl;
    }
    for (int i = 0; i < SV_CLIENT_SLOTS; i++) {
        sv_client *cl = &sv.clients[i];
        if (cl->state >= CL_CONNECTED && !strcmp(cl->name, who))
            return cl;
    }
    return NULL;
}

static void cmd_kick(const sv_args *a)
{
    if (a->argc < 2) {
        sv_cmd_error("usage: kick USERID|NAME [REASON] (status lists the userids)");
        return;
    }
    sv_client *cl = find_client(a->argv[1]);
    if (!cl) {
        sv_cmd_error("kick: no client with userid or name \"%s\" (status lists them)",
                     a->argv[1]);
        return;
    }
    /* the reason: the rest of the line after the client's userid or name */
    const char *why = a->rest;
    if (*why == '"')
        why = strchr(why + 1, '"') ? strchr(why + 1, '"') + 1 : "";
    else
        why += strcspn(why, " \t");
    why += strspn(why, " \t");
    char text[160], reason[128];
    snprintf(text, sizeof text, "%s was kicked%s%.100s\n", cl->name, *why ? ": " : "", why);
    sv_reliable_print(cl, PRINT_HIGH, "You were kicked from the game\n");
    sv_broadcast_print(PRINT_HIGH, text);
    char shown[480];
    text[strlen(text) - 1] = 0;
    sv_cmd_printf("%s", sv_log_escape(text, shown, sizeof shown));
    snprintf(reason, sizeof reason, "kicked by %.60s%s%.50s", sv_cmd_source(), *why ? ": " : "",
             why);
    sv_client_free(cl, reason);
}

static void cmd_say(const sv_args *a)
{
    if (a->argc < 2) {
        sv_cmd_error("usage: say TEXT");
        return;
    }
    char text[256];
    sv_chat_line(text, sizeof text, "console", a->rest, 200);
    sv_broadcast_print(PRINT_CHAT, text);
    sv_log("chat: %.*s", (int)strlen(text) - 1, text);
}

static void print_pair(const char *key, const char *value, void *arg)
{
    (void)arg;
    sv_cmd_printf("%-16s %s", key, value);
}

static void cmd_serverinfo(const sv_args *a)
{
    if (a->argc == 1) {
        sv_info_each(sv.serverinfo, print_pair, NULL);
        return;
    }
    if (a->argc != 3) {
        sv_cmd_error("usage: serverinfo [KEY VALUE] (without arguments: list the keys)");
        return;
    }
    char err[256];
    if (!sv_cvar_set_serverinfo(a->argv[1], a->argv[2], err, sizeof err))
        sv_cmd_error("%s", err);
}

static void cmd_quit(const sv_args *a)
{
    (void)a;
    sv_log("quit requested by %s", sv_cmd_source());
    sv_console_stopping();
    sv_frame_request_quit();
}

static void cmd_set(const sv_args *a)
{
    if (a->argc != 3) {
        sv_cmd_error("usage: set NAME VALUE (quote a value with spaces; cvarlist lists the "
                     "names)");
        return;
    }
    char err[256];
    if (!sv_cvar_set(a->argv[1], a->argv[2], err, sizeof err))
        sv_cmd_error("%s", err);
}

static void cmd_exec(const sv_args *a)
{
    if (a->argc != 2) {
        sv_cmd_error("usage: exec FILE (a file of commands in the game directory)");
        return;
    }
    sv_cmd_exec_file(a->argv[1], false);
}

static void print_cvar_line(const sv_cvar *cv, void *arg)
{
    (void)arg;
    sv_cmd_printf("%-16s \"%s\"  %s", cv->name,
                  cv->secret ? (cv->value[0] ? "(set)" : "") : cv->value, cv->help);
}

static void cmd_cvarlist(const sv_args *a)
{
    (void)a;
    sv_cvar_each(print_cvar_line, NULL);
}

static void cmd_cmdlist(const sv_args *a)
{
    (void)a;
    for (const sv_cmd *c = sv_admin_commands; c->name; c++)
        sv_cmd_printf("%s", c->usage);
}

const sv_cmd sv_admin_commands[] = {
    {"status", cmd_status, "status: the map and the clients (userid, frags, ping, address)"},
    {"map", cmd_map, "map NAME: change to map NAME now (clients follow); map: the current map"},
    {"changelevel", cmd_map, "changelevel NAME: the same as map NAME"},
    {"kick", cmd_kick, "kick USERID|NAME [REASON]: drop a client"},
    {"say", cmd_say, "say TEXT: a chat line to everybody, as \"console: TEXT\""},
    {"serverinfo", cmd_serverinfo, "serverinfo [KEY VALUE]: list the serverinfo, or set a key"},
    {"quit", cmd_quit, "quit: stop the server (clients are told, statistics printed)"},
    {"set", cmd_set, "set NAME VALUE: set a cvar (also: NAME VALUE; NAME prints it)"},
    {"exec", cmd_exec, "exec FILE: run the commands of a file in the game directory"},
    {"cvarlist", cmd_cvarlist, "cvarlist: every cvar with its value and meaning"},
    {"cmdlist", cmd_cmdlist, "cmdlist: these commands"},
    {"help", cmd_cmdlist, "help: the same as cmdlist"},
    {NULL, NULL, NULL},
};
