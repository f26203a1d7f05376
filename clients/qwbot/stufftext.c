/* Console text stuffed by the server (svc_stufftext). A real client runs it through its
 * console; a bot only needs the commands that drive the sign-on and ignores the rest
 * (aliases, client settings) and reads in "fullserverinfo" only how many slots there are. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qw_info.h"
#include "stufftext.h"

/* "packet <addr> \"<text>\"": the server asks for <text> as a connectionless packet (the
 * real-IP check). We only ever talk to our server, so the address is not needed. */
static void run_packet(qwbot_bot *b, const char *args)
{
    const char *open = strchr(args, '"');
    if (!open)
        return;
    const char *close = strrchr(open + 1, '"');
    if (!close)
        return;
    char text[512];
    size_t n = (size_t)(close - open - 1);
    if (n >= sizeof text)
        return;
    memcpy(text, open + 1, n);
    text[n] = 0;
    qwbot_bot_send_connectionless(b, text);
}

/* serverdata's slot byte with bit 7 set: QuakeWorld's mark of a spectator, unless the server
 * has more than 128 player slots (qwsv with -maxclients above 128, which gives a bot that
 * asked for "bigslots" its slot as the whole byte). */
static void note_slot(qwbot_bot *b, const char *args)
{
    if (!b->slot_bit7)
        return;
    char info[1024], value[16];
    size_t n = strlen(args);
    if (n >= 2 && args[0] == '"' && args[n - 1] == '"')
        snprintf(info, sizeof info, "%.*s", (int)(n - 2), args + 1);
    else
        snprintf(info, sizeof info, "%s", args);
    if (atoi(qw_info_get(info, "maxclients", value, sizeof value)) > 128) {
        b->playernum += 128;
        b->slot_bit7 = false;
    } else {
        qwbot_bot_fail(b, "the server made the bot a spectator (no free player slot?)");
    }
}

static void run_command(qwbot_bot *b, char *line)
{
    while (*line == ' ' || *line == '\t')
        line++;
    size_t n = strlen(line);
    while (n && (line[n - 1] == ' ' || line[n - 1] == '\t' || line[n - 1] == '\r'))
        line[--n] = 0;
    if (!*line)
        return;
    char *args = line + strcspn(line, " \t");
    if (*args)
        *args++ = 0;
    while (*args == ' ' || *args == '\t')
        args++;

    if (!strcmp(line, "cmd")) {
        /* "cmd pext": the server offers protocol extensions; an empty answer takes none. */
        if (!strcmp(args, "pext"))
            qwbot_bot_stringcmd(b, "pext");
        else if (*args)
            qwbot_bot_stringcmd(b, "%s", args);
    } else if (!strcmp(line, "fullserverinfo")) {
        note_slot(b, args);
    } else if (!strcmp(line, "skins")) {
        /* the last step of the sign-on: the client has loaded skins and enters the game */
        if (b->slot_bit7) {
            qwbot_bot_fail(b, "the server made the bot a spectator (no free player slot?)");
            return;
        }
        qwbot_bot_stringcmd(b, "begin %d", b->spawncount);
        b->begin_sent = true;
    } else if (!strcmp(line, "reconnect")) {
        b->in_game = false;
        b->begin_sent = false;
        qwbot_bot_stringcmd(b, "new");
    } else if (!strcmp(line, "changing")) {
        b->in_game = false;
        b->begin_sent = false;
    } else if (!strcmp(line, "packet")) {
        run_packet(b, args);
    } else if (!strcmp(line, "disconnect")) {
        qwbot_bot_fail(b, "server asked the bot to disconnect");
    }
    /* everything else is client-side console state a bot does not have */
}

void qwbot_run_stufftext(qwbot_bot *b, const char *text)
{
    char line[2048];
    const char *p = text;
    while (*p) {
        /* one command ends at a newline, or at a ';' outside quotes */
        size_t n = 0;
        bool quoted = false;
        while (p[n] && p[n] != '\n' && (quoted || p[n] != ';')) {
            if (p[n] == '"')
                quoted = !quoted;
            n++;
        }
        if (n < sizeof line) {
            memcpy(line, p, n);
            line[n] = 0;
            qwbot_bot_log(b, "stufftext: %s", line);
            run_command(b, line);
        }
        p += n;
        if (*p)
            p++;
    }
}
