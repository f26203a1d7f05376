/* Remote console (see admin/rcon.h). */
#include "admin/rcon.h"

#include <nettle/sha1.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "admin/cvar.h"
#include "admin/interpreter.h"
#include "clock.h"
#include "log.h"
#include "net/socket.h"
#include "net/tokenize.h"
#include "server.h"

#define TRACKED_ADDRESSES 64

/* Wrong passwords per IP address (the port is not part of it: a guesser can change it). */
static struct {
    in_addr_t ip;
    double window_start;
    int fails;
    int ignored;
} tracked[TRACKED_ADDRESSES];

/* The entry of ip (a fresh one if it has none, replacing the oldest). */
static int track(in_addr_t ip, double now)
{
    int oldest = 0;
    for (int i = 0; i < TRACKED_ADDRESSES; i++) {
        if (tracked[i].fails && tracked[i].ip == ip)
            return i;
        if (tracked[i].window_start < tracked[oldest].window_start)
            oldest = i;
    }
    tracked[oldest].ip = ip;
    tracked[oldest].window_start = now;
    tracked[oldest].fails = 0;
    tracked[oldest].ignored = 0;
    return oldest;
}

/* Sends text as print packets of whole lines (a packet holds at most QW_MAX_PACKET bytes). */
static void reply(const struct sockaddr_in *to, const char *text)
{
    const size_t room = QW_MAX_PACKET - 64;
    do {
        size_t n = strlen(text);
        if (n > room) {
            n = room;
            for (size_t k = room; k > room / 2; k--)
                if (text[k - 1] == '\n') {
                    n = k;
                    break;
                }
        }
        char buf[QW_MAX_PACKET];
        buf[0] = QW_A2A_PRINT;
        memcpy(buf + 1, text, n);
        sv_net_send_oob(to, buf, n + 1);
        text += n;
    } while (*text);
}

/* Compares without stopping at the first difference. */
static bool same_password(const char *given, const char *expected)
{
    size_t lg = strlen(given), le = strlen(expected);
    unsigned diff = (unsigned)(lg != le);
    for (size_t i = 0; i < lg; i++)
        diff |= (unsigned)(given[i] ^ expected[i % (le ? le : 1)]);
    return diff == 0;
}

static int hex_digit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* The hashed form (sv_crypt_rcon 1, mvdsv's default; ezQuake sends it with cl_crypt_rcon 1):
 * the password word is 40 hex digits of SHA-1 followed by T, 16 hex digits: the client's
 * time() as 8 bytes, lowest first. The SHA-1 covers "rcon " + password + T + " " and then
 * every word of the command followed by a space, so the password never travels and a
 * captured packet is refused once its time is sv_timestamplen seconds off. */
static bool hashed_matches(const char *word, const char *password, const char *command,
                           const char **why)
{
    *why = "wrong password";
    if (strlen(word) != 2 * SHA1_DIGEST_SIZE + 16) {
        *why = "not a hashed password (sv_crypt_rcon is 1: send SHA-1 + time, as ezQuake's "
               "cl_crypt_rcon 1 does)";
        return false;
    }
    const char *stamp = word + 2 * SHA1_DIGEST_SIZE;
    uint64_t client_time = 0;
    for (int i = 0; i < 8; i++) {
        int hi = hex_digit(stamp[2 * i]), lo = hex_digit(stamp[2 * i + 1]);
        if (hi < 0 || lo < 0)
            return false;
        client_time |= (uint64_t)(hi * 16 + lo) << (8 * i);
    }
    double window = sv_cvar_number("sv_timestamplen");
    double skew = (double)time(NULL) - (double)(int64_t)client_time;
    if (window > 0 && (skew > window || skew < -window)) {
        *why = "time stamp too far from the server's clock (sv_timestamplen)";
        return false;
    }
    sv_args a;
    if (!sv_tokenize(command, &a))
        return false;
    struct sha1_ctx ctx;
    sha1_init(&ctx);
    sha1_update(&ctx, 5, (const uint8_t *)"rcon ");
    sha1_update(&ctx, strlen(password), (const uint8_t *)password);
    sha1_update(&ctx, 16, (const uint8_t *)stamp);
    sha1_update(&ctx, 1, (const uint8_t *)" ");
    for (int i = 0; i < a.argc; i++) {
        sha1_update(&ctx, strlen(a.argv[i]), (const uint8_t *)a.argv[i]);
        sha1_update(&ctx, 1, (const uint8_t *)" ");
    }
    uint8_t digest[SHA1_DIGEST_SIZE];
    sha1_digest(&ctx, sizeof digest, digest);
    unsigned diff = 0;
    for (int i = 0; i < SHA1_DIGEST_SIZE; i++) {
        int hi = hex_digit(word[2 * i]), lo = hex_digit(word[2 * i + 1]);
        diff |= (unsigned)(hi < 0 || lo < 0) | (unsigned)((hi * 16 + lo) ^ digest[i]);
    }
    return diff == 0;
}

/* Splits "rcon PASSWORD COMMAND..." (the password may be quoted). */
static bool split(const char *packet, char *password, size_t size, const char **command)
{
    const char *p = packet + 4;
    if (*p != ' ' && *p != '\t')
        return false;
    p += strspn(p, " \t");
    size_t n;
    if (*p == '"') {
        p++;
        n = strcspn(p, "\"");
        if (p[n] != '"')
            return false;
    } else {
        n = strcspn(p, " \t\n");
    }
    if (!n || n >= size)
        return false;
    memcpy(password, p, n);
    password[n] = 0;
    p += n + (p[n] == '"');
    *command = p + strspn(p, " \t");
    return true;
}

void sv_rcon_packet(const struct sockaddr_in *from, const char *packet)
{
    char addr[64], password[256];
    const char *command;
    sv_addr_str(from, addr, sizeof addr);
    double now = sv_clock();
    int t = track(from->sin_addr.s_addr, now);
    if (now - tracked[t].window_start >= sv_cvar_number("sv_rcon_window")) {
        tracked[t].window_start = now;
        tracked[t].fails = 0;
        tracked[t].ignored = 0;
    }
    if (tracked[t].fails >= (int)sv_cvar_number("sv_rcon_maxfails")) {
        if (tracked[t].ignored++ == 0)
            sv_log("rcon from %s ignored: %d wrong passwords within %s s (sv_rcon_maxfails, "
                   "sv_rcon_window); its rcon packets are dropped until the window ends",
                   addr, tracked[t].fails, sv_cvar_string("sv_rcon_window"));
        return;
    }
    if (!split(packet, password, sizeof password, &command)) {
        reply(from, "usage: rcon PASSWORD COMMAND\n");
        sv_log_bad_packet(from, "rcon without a password and a command");
        return;
    }
    const char *expected = sv_cvar_string("rcon_password");
    const char *why = "rcon_password is not set";
    bool ok = false;
    if (expected[0] && sv_cvar_number("sv_crypt_rcon") != 0)
        ok = hashed_matches(password, expected, command, &why);
    else if (expected[0]) {
        ok = same_password(password, expected);
        why = "wrong password";
    }
    if (!ok) {
        tracked[t].fails++;
        if (tracked[t].fails == 1)
            tracked[t].window_start = now;
        /* worded as mvdsv does, so existing log watchers (fail2ban, ...) match it */
        sv_log("Bad rcon from %s: %.200s (%s; %d of sv_rcon_maxfails %s in this window)", addr,
               command, why, tracked[t].fails, sv_cvar_string("sv_rcon_maxfails"));
        reply(from, "Bad rcon_password.\n");
        return;
    }
    sv_log("rcon from %s: %.200s", addr, command);
    static char output[16384];
    char source[96];
    snprintf(source, sizeof source, "rcon from %s", addr);
    sv_cmd_set_source(source);
    sv_cmd_redirect_begin(output, sizeof output);
    sv_cmd_execute(command, NULL);
    sv_cmd_redirect_end();
    sv_cmd_set_source("console");
    reply(from, output[0] ? output : "\n");
}
