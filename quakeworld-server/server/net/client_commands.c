/* String commands from clients (RP, run by the client's worker): the sign-on sequence
 * (new, soundlist, modellist, prespawn, spawn, begin), chat (and the chat line the console's
 * "say" shares), setinfo, pings (net/scoreboard.h), downloads, drop, kill: one table
 * {name, handler, when}, as mvdsv's ucmds[]; a name not in it goes to the game.
 * Replies are built in local buffers outside any section, then appended to the client's
 * reliable queue in a small CS_CLIENT_MESSAGE (others may be printing to it meanwhile). */
#include "net/client_commands.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "admin/cvar.h"
#include "game/game.h"
#include "log.h"
#include "net/reliable.h"
#include "net/scoreboard.h"
#include "net/tokenize.h"
#include "net/userinfo.h"
#include "qw_info.h"
#include "server.h"
#include "sync/region.h"

/* Appends a finished message to cl's reliable queue; false (and a drop request) on overflow. */
static bool send_reliable(sv_client *cl, const qw_sizebuf *sb)
{
    bool ok;
    if (sb->overflowed) {
        sv_client_request_drop(cl, "sign-on message too large");
        return false;
    }
    CRITICAL_SECTION_CANCELLABLE(CS_CLIENT_MESSAGE, ok, sv_reliable_write(cl, sb->data, sb->cursize));
    if (!ok)
        sv_client_request_drop(cl, "reliable message overflow");
    return ok;
}

static void stufftext(qw_sizebuf *sb, const char *fmt, int a, int b)
{
    char text[128];
    snprintf(text, sizeof text, fmt, a, b);
    qw_write_byte(sb, svc_stufftext);
    qw_write_string(sb, text);
}

static void cmd_new(sv_client *cl, const sv_args *a)
{
    (void)a;
    if (cl->state == CL_SPAWNED) {
        /* restarting the sign-on in the game is not supported: the client reconnects */
        sv_client_request_drop(cl, "restarted the sign-on while in the game");
        return;
    }
    uint8_t buf[QW_MAX_MSGLEN];
    qw_sizebuf sb;
    qw_sizebuf_init(&sb, buf, sizeof buf);
    cl->spawncount = sv.spawncount;
    qw_write_byte(&sb, svc_serverdata);
    qw_write_long(&sb, QW_PROTOCOL_VERSION);
    qw_write_long(&sb, sv.spawncount);
    qw_write_string(&sb, sv_cvar_string("sv_gamedir"));
    qw_write_byte(&sb, cl->slot | (cl->spectator ? 128 : 0)); /* bit 7: a spectator */
    qw_write_string(&sb, sv.level_title);
    const qw_movevars *mv = &sv.movevars;
    qw_write_float(&sb, mv->gravity);
    qw_write_float(&sb, mv->stopspeed);
    qw_write_float(&sb, mv->maxspeed);
    qw_write_float(&sb, mv->spectatormaxspeed);
    qw_write_float(&sb, mv->accelerate);
    qw_write_float(&sb, mv->airaccelerate);
    qw_write_float(&sb, mv->wateraccelerate);
    qw_write_float(&sb, mv->friction);
    qw_write_float(&sb, mv->waterfriction);
    qw_write_float(&sb, mv->entgravity);
    qw_write_byte(&sb, svc_cdtrack);
    qw_write_byte(&sb, 0);
    char text[QW_MAX_SERVERINFO_STRING + 32];
    snprintf(text, sizeof text, "fullserverinfo \"%s\"\n", sv.serverinfo);
    qw_write_byte(&sb, svc_stufftext);
    qw_write_string(&sb, text);
    send_reliable(cl, &sb);
}

static bool check_spawncount(sv_client *cl, const sv_args *a)
{
    if (atoi(sv_arg(a, 1)) == sv.spawncount)
        return true;
    /* a stale sign-on: start again */
    uint8_t buf[64];
    qw_sizebuf sb;
    qw_sizebuf_init(&sb, buf, sizeof buf);
    stufftext(&sb, "cmd new\n", 0, 0);
    send_reliable(cl, &sb);
    return false;
}

/* soundlist/modellist: names from index start+1 until half a message is used. */
static void send_list(sv_client *cl, const sv_args *a, bool models)
{
    int n = atoi(sv_arg(a, 2));
    int count = models ? sv.num_models : sv.num_sounds;
    if (n < 0 || n >= count) {
        sv_log_bad_client_packet(cl, models ? "modellist index out of range"
                                            : "soundlist index out of range");
        return;
    }
    uint8_t buf[QW_MAX_MSGLEN];
    qw_sizebuf sb;
    qw_sizebuf_init(&sb, buf, sizeof buf);
    qw_write_byte(&sb, models ? svc_modellist : svc_soundlist);
    qw_write_byte(&sb, n);
    int i = n + 1;
    for (; i < count && sb.cursize < QW_MAX_MSGLEN / 2; i++)
        qw_write_string(&sb, models ? sv.model_names[i] : sv.sound_names[i]);
    qw_write_byte(&sb, 0);
    qw_write_byte(&sb, i < count ? i - 1 : 0);
    send_reliable(cl, &sb);
}

static void cmd_soundlist(sv_client *cl, const sv_args *a)
{
    send_list(cl, a, false);
}

static void cmd_modellist(sv_client *cl, const sv_args *a)
{
    send_list(cl, a, true);
}

static void cmd_prespawn(sv_client *cl, const sv_args *a)
{
    int chunk = atoi(sv_arg(a, 2));
    if (chunk < 0 || chunk >= sv.num_signon_chunks) {
        sv_log_bad_client_packet(cl, "prespawn chunk out of range");
        return;
    }
    if (chunk == 0 && a->argc > 3) {
        uint32_t check = (uint32_t)strtoll(sv_arg(a, 3), NULL, 10);
        if (check != sv.bsp_checksum2 && check != sv.bsp_checksum) {
            uint8_t buf[256];
            qw_sizebuf sb;
            qw_sizebuf_init(&sb, buf, sizeof buf);
            qw_write_byte(&sb, svc_print);
            qw_write_byte(&sb, PRINT_HIGH);
            qw_write_string(&sb, "Map model file does not match; you may need a new version "
                                 "of the map.\n");
            send_reliable(cl, &sb);
            sv_log("%s has a different %s.bsp (checksum %u, server %u)", cl->name, sv.mapname,
                   check, sv.bsp_checksum2);
            sv_client_request_drop(cl, "map checksum mismatch");
            return;
        }
    }
    uint8_t buf[QW_MAX_MSGLEN];
    qw_sizebuf sb;
    qw_sizebuf_init(&sb, buf, sizeof buf);
    qw_write_data(&sb, sv.signon_data[chunk], sv.signon_len[chunk]);
    if (chunk + 1 < sv.num_signon_chunks)
        stufftext(&sb, "cmd prespawn %d %d\n", sv.spawncount, chunk + 1);
    else
        stufftext(&sb, "cmd spawn %d 0\n", sv.spawncount, 0);
    send_reliable(cl, &sb);
}

static void cmd_spawn(sv_client *cl, const sv_args *a)
{
    (void)a;
    uint8_t buf[QW_MAX_MSGLEN];
    qw_sizebuf sb;
    sv_scoreboard_entry board[SV_MAX_CLIENTS];
    int n = sv_scoreboard_snapshot(cl, board);
    /* one message per slot so each fits a reliable block whole; a client's scoreboard is
     * empty after serverdata, so free slots need none (160 of them would crowd the queue of
     * a bot joining with 160 others) */
    for (int i = 0; i < n; i++) {
        if (!board[i].here)
            continue;
        qw_sizebuf_init(&sb, buf, sizeof buf);
        sv_scoreboard_write_update(&sb, i, &board[i]);
        if (!send_reliable(cl, &sb))
            return;
    }
    qw_sizebuf_init(&sb, buf, sizeof buf);
    for (int i = 0; i < QW_MAX_LIGHTSTYLES; i++) {
        qw_write_byte(&sb, svc_lightstyle);
        qw_write_byte(&sb, i);
        qw_write_string(&sb, sv_game->lightstyle(i));
    }
    qw_write_byte(&sb, svc_stufftext);
    qw_write_string(&sb, "skins\n");
    send_reliable(cl, &sb);
    cl->stats_valid = false;
}

/* "pings": a client showing its scoreboard asks for everybody's ping and packet loss. */
static void cmd_pings(sv_client *cl, const sv_args *a)
{
    (void)a;
    uint8_t buf[QW_MAX_MSGLEN];
    qw_sizebuf sb;
    sv_scoreboard_entry board[SV_MAX_CLIENTS];
    int n = sv_scoreboard_snapshot(cl, board);
    qw_sizebuf_init(&sb, buf, sizeof buf);
    for (int i = 0; i < n; i++) {
        if (!board[i].here)
            continue;
        if (qw_sizebuf_free_space(&sb) < 8) {
            if (!send_reliable(cl, &sb))
                return;
            qw_sizebuf_init(&sb, buf, sizeof buf);
        }
        sv_scoreboard_write_ping(&sb, i, &board[i]);
    }
    if (sb.cursize)
        send_reliable(cl, &sb);
}

/* Puts the player into the world and marks the client spawned, in one section: other
 * workers look at client states when they print to everybody. */
static bool enter_world(sv_client *cl)
{
    if (cl->spectator)
        sv_game->spawn_spectator(cl->slot);
    else if (!sv_game->spawn_player(cl->slot))
        return false;
    sv_reliable_mark_spawned(cl);
    return true;
}

static void cmd_begin(sv_client *cl, const sv_args *a)
{
    (void)a;
    bool ok;
    CRITICAL_SECTION_CANCELLABLE(CS_SPAWN_PLAYER, ok, enter_world(cl));
    if (!ok) {
        sv_game->failed(cl, true);
        return;
    }
    cl->delta_sequence = -1;
    cl->last_cmd_time = sv.time;
    char text[96];
    snprintf(text, sizeof text, "%s %s\n", cl->name,
             cl->spectator ? "entered as a spectator" : "entered the game");
    /* everybody's scoreboard gets the newcomer (mvdsv sends its full update to all) */
    sv_scoreboard_entry me;
    sv_scoreboard_entry_of(cl, &me);
    cl->frags_announced = me.frags;
    uint8_t buf[QW_MAX_MSGLEN];
    qw_sizebuf sb;
    qw_sizebuf_init(&sb, buf, sizeof buf);
    sv_scoreboard_write_update(&sb, cl->slot, &me);
    /* QuakeWorld's game in QuakeC says who entered itself (ClientConnect) */
    CRITICAL_SECTION(CS_BROADCAST, if (!sv_game->own_messages_and_rotation) sv_broadcast_print(PRINT_HIGH, text);
                     sv_reliable_broadcast_about(cl->slot, buf, sb.cursize););
    sv_log("%.*s", (int)strlen(text) - 1, text);
}

void sv_chat_line(char *out, size_t size, const char *speaker, const char *message,
                  size_t max_len)
{
    size_t len = strlen(message);
    /* "say "text"" arrives with the quotes */
    if (len >= 2 && message[0] == '"' && message[len - 1] == '"') {
        message++;
        len -= 2;
    }
    if (len > max_len)
        len = max_len;
    snprintf(out, size, "%s: %.*s\n", speaker, (int)len, message);
    for (char *p = out; *p; p++)
        if ((unsigned char)*p < 32 && *p != '\n')
            *p = ' ';
}

static void cmd_say(sv_client *cl, const sv_args *a)
{
    char text[256], speaker[48];
    snprintf(speaker, sizeof speaker, "%s%s", cl->spectator ? "[SPEC] " : "", cl->name);
    sv_chat_line(text, sizeof text, speaker, a->rest, 160);
    CRITICAL_SECTION(CS_BROADCAST, sv_broadcast_print(PRINT_CHAT, text););
    sv_log("chat: %.*s", (int)strlen(text) - 1, text);
}

static void cmd_setinfo(sv_client *cl, const sv_args *a)
{
    if (a->argc != 3)
        return;
    const char *key = sv_arg(a, 1);
    if (key[0] == '*')
        return; /* server-only keys */
    char newinfo[QW_MAX_INFO_STRING];
    snprintf(newinfo, sizeof newinfo, "%s", cl->userinfo);
    if (!qw_info_set(newinfo, sizeof newinfo, key, sv_arg(a, 2))) {
        sv_log_bad_client_packet(cl, "setinfo with an invalid or oversized key/value");
        return;
    }
    /* others read the name and colours when building scoreboards and obituaries */
    CRITICAL_SECTION(CS_USERINFO, memcpy(cl->userinfo, newinfo, sizeof newinfo););
    if (!sv_userinfo_key_is_public(key))
        return;
    sv_public_userinfo pub;
    sv_userinfo_read_public(newinfo, cl->slot, &pub);
    char renamed[96] = "";
    if (cl->state == CL_SPAWNED && strcmp(pub.name, cl->name))
        snprintf(renamed, sizeof renamed, "%s changed name to %s\n", cl->name, pub.name);
    CRITICAL_SECTION(CS_USERINFO, memcpy(cl->name, pub.name, sizeof pub.name);
                     memcpy(cl->team, pub.team, sizeof pub.team);
                     memcpy(cl->skin, pub.skin, sizeof pub.skin);
                     cl->topcolor = pub.topcolor; cl->bottomcolor = pub.bottomcolor;);
    /* everybody sees the value as the server keeps it (a name cleaned, a colour clamped) */
    char shown[QW_MAX_INFO_STRING], value[QW_MAX_INFO_STRING];
    sv_userinfo_write_public(shown, sizeof shown, &pub, cl->spectator);
    qw_info_get(shown, key, value, sizeof value);
    uint8_t buf[QW_MAX_MSGLEN];
    qw_sizebuf sb;
    qw_sizebuf_init(&sb, buf, sizeof buf);
    qw_write_byte(&sb, svc_setinfo);
    qw_write_byte(&sb, cl->slot);
    qw_write_string(&sb, key);
    qw_write_string(&sb, value);
    CRITICAL_SECTION(CS_BROADCAST, sv_reliable_broadcast_about(cl->slot, buf, sb.cursize);
                     if (renamed[0]) sv_broadcast_print(PRINT_HIGH, renamed););
    if (renamed[0])
        sv_log("%.*s", (int)strlen(renamed) - 1, renamed);
}

/* Suicide (a frag less), handled like a move command's damage. */
static void cmd_kill(sv_client *cl, const sv_args *a)
{
    (void)a;
    bool ok;
    if (sv_sync == SYNC_REGION) {
        sv_reach reach;
        sv_game->command_reach(cl->slot, NULL, &reach);
        sv_region_plan_move(cl->slot, &reach);
    }
    CRITICAL_SECTION_CANCELLABLE(CS_MOVE_COMMAND, ok, sv_game->client_kill(cl->slot));
    if (!ok)
        sv_game->failed(cl, false);
}

/* "nextdl": sends the next chunk of the file being downloaded. */
static void cmd_nextdl(sv_client *cl, const sv_args *a)
{
    (void)a;
    if (!cl->download)
        return;
    uint8_t buf[QW_DOWNLOAD_CHUNK + 8];
    qw_sizebuf sb;
    qw_sizebuf_init(&sb, buf, sizeof buf);
    int r = cl->download_size - cl->download_pos;
    if (r > QW_DOWNLOAD_CHUNK)
        r = QW_DOWNLOAD_CHUNK;
    qw_write_byte(&sb, svc_download);
    qw_write_short(&sb, r);
    int done = cl->download_pos + r;
    qw_write_byte(&sb, (int)((long)done * 100 / (cl->download_size ? cl->download_size : 1)));
    qw_write_data(&sb, cl->download + cl->download_pos, (size_t)r);
    if (!send_reliable(cl, &sb))
        return;
    cl->download_pos = done;
    if (cl->download_pos >= cl->download_size) {
        free(cl->download);
        cl->download = NULL;
    }
}

static bool download_allowed(const char *name)
{
    /* only maps: the item boxes (maps/b_*.bsp) and the current map */
    if (strstr(name, "..") || strchr(name, '\\') || name[0] == '/' || strlen(name) > 60)
        return false;
    if (!strncmp(name, "maps/b_", 7) && strchr(name + 5, '/') == NULL) {
        size_t n = strlen(name);
        return n > 11 && !strcmp(name + n - 4, ".bsp");
    }
    char current[96];
    snprintf(current, sizeof current, "maps/%s.bsp", sv.mapname);
    return !strcmp(name, current);
}

static void cmd_download(sv_client *cl, const sv_args *a)
{
    const char *name = sv_arg(a, 1);
    uint8_t buf[8];
    qw_sizebuf sb;
    qw_sizebuf_init(&sb, buf, sizeof buf);
    free(cl->download);
    cl->download = NULL;
    FILE *f = NULL;
    char path[700];
    if (download_allowed(name)) {
        snprintf(path, sizeof path, "%s/id1/%s", sv.opt.basedir, name);
        f = fopen(path, "rb");
    }
    long size = -1;
    if (f) {
        fseek(f, 0, SEEK_END);
        size = ftell(f);
        fseek(f, 0, SEEK_SET);
        if (size > 0 && size < (16L << 20)) {
            cl->download = malloc((size_t)size);
            if (cl->download && fread(cl->download, 1, (size_t)size, f) != (size_t)size) {
                free(cl->download);
                cl->download = NULL;
            }
        }
        fclose(f);
    }
    if (!cl->download) {
        qw_write_byte(&sb, svc_download);
        qw_write_short(&sb, -1);
        qw_write_byte(&sb, 0);
        send_reliable(cl, &sb);
        sv_log("%s: download of %s refused", cl->name, name);
        return;
    }
    cl->download_size = (int)size;
    cl->download_pos = 0;
    sv_log("%s downloads %s (%ld bytes)", cl->name, name, size);
    cmd_nextdl(cl, a);
}

static void cmd_stopdl(sv_client *cl, const sv_args *a)
{
    (void)a;
    free(cl->download);
    cl->download = NULL;
}

static void cmd_drop(sv_client *cl, const sv_args *a)
{
    (void)a;
    sv_client_request_drop(cl, "disconnected");
}

/* When a command may run; otherwise it is ignored, as id's server ignores it. */
typedef enum {
    WHEN_ANY,      /* connected or in the game */
    WHEN_SIGN_ON,  /* connected, not yet in the game, and signing on to this map (a stale
                    * spawn count restarts the sign-on with "cmd new") */
    WHEN_PLAYING,  /* in the game as a player, not a spectator */
} cmd_when;

typedef struct client_cmd {
    const char *name;
    void (*fn)(sv_client *cl, const sv_args *a); /* NULL: accepted and ignored */
    cmd_when when;
} client_cmd;

static const client_cmd client_cmds[] = {
    {"new", cmd_new, WHEN_ANY},
    {"soundlist", cmd_soundlist, WHEN_SIGN_ON},
    {"modellist", cmd_modellist, WHEN_SIGN_ON},
    {"prespawn", cmd_prespawn, WHEN_SIGN_ON},
    {"spawn", cmd_spawn, WHEN_SIGN_ON},
    {"begin", cmd_begin, WHEN_SIGN_ON},
    {"drop", cmd_drop, WHEN_ANY},
    {"disconnect", cmd_drop, WHEN_ANY},
    {"say", cmd_say, WHEN_ANY},
    {"say_team", cmd_say, WHEN_ANY},
    {"setinfo", cmd_setinfo, WHEN_ANY},
    {"download", cmd_download, WHEN_ANY},
    {"nextdl", cmd_nextdl, WHEN_ANY},
    {"stopdl", cmd_stopdl, WHEN_ANY},
    {"kill", cmd_kill, WHEN_PLAYING},
    {"pings", cmd_pings, WHEN_ANY},
    /* no protocol extensions, no tracking of a player by a spectator */
    {"pext", NULL, WHEN_ANY},
    {"ptrack", NULL, WHEN_ANY},
    {"serverinfo", NULL, WHEN_ANY},
    {"info", NULL, WHEN_ANY},
};

static bool allowed(sv_client *cl, const sv_args *a, cmd_when when)
{
    switch (when) {
    case WHEN_SIGN_ON:
        return cl->state == CL_CONNECTED && check_spawncount(cl, a);
    case WHEN_PLAYING:
        return cl->state == CL_SPAWNED && !cl->spectator;
    case WHEN_ANY:
        break;
    }
    return true;
}

void sv_execute_stringcmd(sv_client *cl, const char *text)
{
    sv_args a;
    if (!sv_tokenize(text, &a)) {
        sv_log_bad_client_packet(cl, "string command with too many or too long words");
        return;
    }
    if (a.argc == 0)
        return;
    for (size_t i = 0; i < sizeof client_cmds / sizeof client_cmds[0]; i++) {
        const client_cmd *c = &client_cmds[i];
        if (strcmp(c->name, a.argv[0]))
            continue;
        if (c->fn && allowed(cl, &a, c->when))
            c->fn(cl, &a);
        return;
    }
    /* then the game's own commands */
    if (!sv_game->client_command || !sv_game->client_command(cl, &a))
        sv_log_bad_client_packet(cl, "unknown string command");
}
