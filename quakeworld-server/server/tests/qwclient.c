/* qwclient: a small protocol-28 test client built on libqwproto. It connects, completes the
 * whole sign-on, then walks forward (optionally shooting, chatting), parsing and checking
 * every server message on the way (walked by libqwproto's qw_svc_walk, as qwbot's are:
 * unknown ids, messages a server should not send us, truncated messages or bad entity
 * deltas fail the run). Exit 0 when the goal of the chosen mode is reached:
 *   default          signed on and its own origin moved by more than 32 units
 *   -expect-reject   the connect was refused ("n" reply), e.g. by a full server
 *   -spectator       signed on as a spectator (serverdata slot bit 7), in the game (entity
 *                    updates arriving after "begin") and never shown as a player
 * -expect-spectator NAME: another client, NAME, must be announced as a spectator (*spectator
 * in its userinfo) and never be sent to us as a player.
 * Usage: qwclient -port N [-host 127.0.0.1] [-name NAME] [-map FILE.bsp] [-chktbl FILE]
 *                 [-qport N] [-shoot] [-say TEXT] [-stay SECONDS] [-timeout SECONDS]
 *                 [-expect-reject] [-expect-chat TEXT [-expect-chat-count N]] [-reply TEXT]
 *                 [-expect-obituaries N]
 * Chat handshake: -expect-chat waits for N distinct chat lines containing TEXT; -reply
 * answers the first of them with a chat line of its own. -expect-obituaries waits until N
 * obituaries (medium-level prints: somebody died) went round. */
#include <arpa/inet.h>
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "qw_crc.h"
#include "qw_entity_delta.h"
#include "qw_info.h"
#include "qw_map_checksum.h"
#include "qw_msg.h"
#include "qw_netchan.h"
#include "qw_playerinfo.h"
#include "qw_protocol.h"
#include "qw_svc.h"
#include "qw_usercmd.h"

static struct {
    const char *host, *name, *map, *chktbl_path, *say, *expect_chat, *garbage_dir, *download;
    const char *reply, *expect_spectator;
    int port, qport, expect_chat_count, expect_obituaries;
    long download_size;
    bool shoot, expect_reject, vanish, spectator;
    double stay, timeout;
} opt = {.host = "127.0.0.1", .name = "tester", .timeout = 10, .download_size = -1,
         .expect_chat_count = 1};
static char heard[32][64]; /* distinct chat lines that matched -expect-chat */
static int num_heard;
static int num_obituaries;
static bool slot_flag_spectator, begin_sent, frames_after_begin;
static int spectator_slot = -1;     /* the slot of -expect-spectator NAME, once announced */
static bool replied;
static double replied_at;
static long download_got;
static bool download_done;

static int sock;
static struct sockaddr_in server;
static qw_netchan nc;
static qw_chktbl chktbl;
static bool have_chktbl;
static uint32_t map_checksum2;
static bool have_map;
static int spawncount = -1, my_slot = -1;
static bool spawned, moved, saw_chat;
static float first_origin[3], last_origin[3];
static bool have_origin;
static float others[32][3];      /* last origins of the other players we were told about */
static bool others_seen[32];

typedef struct { bool valid; int num; qw_entity_state ents[QW_MAX_PACKET_ENTITIES]; } frame_t;
static frame_t frames[QW_UPDATE_BACKUP];
static qw_entity_state baselines[512];
static int valid_sequence;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void die(const char *fmt, const char *arg)
{
    fprintf(stderr, "qwclient %s: FAIL: ", opt.name);
    fprintf(stderr, fmt, arg);
    fputc('\n', stderr);
    exit(1);
}

static void send_oob(const char *text)
{
    char buf[1500];
    int n = snprintf(buf, sizeof buf, "\xff\xff\xff\xff%s", text);
    sendto(sock, buf, (size_t)n, 0, (struct sockaddr *)&server, sizeof server);
}

/* waits for a connectionless reply; returns its length */
static int recv_oob(uint8_t *buf, size_t size, double timeout)
{
    double end = now() + timeout;
    while (now() < end) {
        struct pollfd p = {sock, POLLIN, 0};
        if (poll(&p, 1, 100) <= 0)
            continue;
        ssize_t n = recv(sock, buf, size - 1, 0);
        if (n >= 5 && !memcmp(buf, "\xff\xff\xff\xff", 4)) {
            buf[n] = 0;
            return (int)n;
        }
    }
    return -1;
}

static void stringcmd(const char *text)
{
    qw_write_byte(&nc.message, clc_stringcmd);
    qw_write_string(&nc.message, text);
}

/* svc_packetentities / svc_deltapacketentities: the new frame, from the old one (a delta
 * list) or the baselines, checked as a client would use it. */
static void parse_entities(qw_svc_entities list, bool delta)
{
    frame_t *from = NULL;
    if (delta) {
        from = &frames[list.from & QW_UPDATE_MASK];
        if (!from->valid)
            die("deltapacketentities from a frame we do not have (%s)", "server bug");
    }
    frame_t *to = &frames[nc.incoming_sequence & QW_UPDATE_MASK];
    frame_t newf = {.valid = true, .num = 0};
    int oldi = 0, oldnum;
    qw_entity_delta d;
    while (qw_svc_next_entity(&list, &d)) {
        int num = d.number;
        /* copy unchanged older entities */
        while (from && oldi < from->num && (oldnum = from->ents[oldi].number) < num) {
            if (newf.num == QW_MAX_PACKET_ENTITIES)
                die("too many entities%s", "");
            newf.ents[newf.num++] = from->ents[oldi++];
        }
        bool in_old = from && oldi < from->num && from->ents[oldi].number == num;
        if (d.remove) {
            if (!in_old)
                die("remove of an entity not in the old frame%s", "");
            oldi++;
            continue;
        }
        if (newf.num == QW_MAX_PACKET_ENTITIES)
            die("too many entities%s", "");
        const qw_entity_state *base = in_old ? &from->ents[oldi++] : &baselines[num];
        qw_entity_delta_apply(base, &d, &newf.ents[newf.num++]);
    }
    while (from && oldi < from->num) {
        if (newf.num == QW_MAX_PACKET_ENTITIES)
            die("too many entities%s", "");
        newf.ents[newf.num++] = from->ents[oldi++];
    }
    for (int i = 1; i < newf.num; i++)
        if (newf.ents[i].number <= newf.ents[i - 1].number)
            die("packetentities not sorted%s", "");
    *to = newf;
    valid_sequence = nc.incoming_sequence;
}

static void handle_stufftext(const char *text)
{
    /* may hold several lines */
    char copy[2048];
    snprintf(copy, sizeof copy, "%s", text);
    for (char *line = strtok(copy, "\n"); line; line = strtok(NULL, "\n")) {
        if (!strncmp(line, "cmd ", 4)) {
            stringcmd(line + 4);
        } else if (!strcmp(line, "skins")) {
            char b[64];
            snprintf(b, sizeof b, "begin %d", spawncount);
            begin_sent = true;
            stringcmd(b);
        }
    }
}

static void on_print(int level, const char *s)
{
    printf("print(%d): %s", level, s);
    if (level == PRINT_MEDIUM)
        num_obituaries++;
    if (opt.expect_chat && level == PRINT_CHAT && strstr(s, opt.expect_chat)) {
        bool known = false;
        for (int i = 0; i < num_heard; i++)
            known |= strncmp(heard[i], s, 63) == 0;
        if (!known && num_heard < 32)
            snprintf(heard[num_heard++], sizeof heard[0], "%.63s", s);
        saw_chat = num_heard >= opt.expect_chat_count;
    }
}

static void on_serverdata(const qw_svc *m)
{
    if (m->u.serverdata.protocol != QW_PROTOCOL_VERSION)
        die("serverdata: protocol is not 28%s", "");
    spawncount = m->u.serverdata.spawncount;
    my_slot = m->u.serverdata.slot & 127;
    slot_flag_spectator = (m->u.serverdata.slot & 128) != 0;
    if (slot_flag_spectator != opt.spectator)
        die("serverdata: the spectator bit of our slot is %s", slot_flag_spectator ? "set" : "clear");
    printf("serverdata: slot %d, level \"%s\"\n", my_slot, m->u.serverdata.level);
    char b[64];
    snprintf(b, sizeof b, "soundlist %d 0", spawncount);
    stringcmd(b);
}

static void on_list(int id, int next)
{
    char b[64];
    if (next)
        snprintf(b, sizeof b, "%s %d %d", id == svc_soundlist ? "soundlist" : "modellist",
                 spawncount, next);
    else if (id == svc_soundlist)
        snprintf(b, sizeof b, "modellist %d 0", spawncount);
    else
        snprintf(b, sizeof b, "prespawn %d 0 %d", spawncount, (int)map_checksum2);
    stringcmd(b);
}

static void on_userinfo(int slot, const char *info)
{
    char name[64], spec[8];
    if (opt.expect_spectator && qw_info_get(info, "name", name, sizeof name) &&
        !strcmp(name, opt.expect_spectator)) {
        if (!qw_info_get(info, "*spectator", spec, sizeof spec) || strcmp(spec, "1"))
            die("%s is not announced as a spectator", opt.expect_spectator);
        spectator_slot = slot;
        printf("%s is a spectator in slot %d\n", opt.expect_spectator, slot);
    }
}

static void on_playerinfo(const qw_playerinfo *pi)
{
    if (pi->slot >= QW_MAX_CLIENTS)
        die("a player update for slot %s: QuakeWorld clients know 32 slots", "32+");
    if (pi->slot == spectator_slot)
        die("a player update for %s, a spectator", opt.expect_spectator);
    if (opt.spectator && pi->slot == my_slot)
        die("a player update for ourselves, a spectator%s", "");
    if (pi->slot >= 0 && pi->slot < 32 && pi->slot != my_slot) {
        memcpy(others[pi->slot], pi->origin, sizeof others[0]);
        others_seen[pi->slot] = !pi->dead;
    }
    if (pi->slot == my_slot) {
        if (!have_origin) {
            memcpy(first_origin, pi->origin, sizeof first_origin);
            have_origin = true;
        }
        memcpy(last_origin, pi->origin, sizeof last_origin);
    }
}

static void on_download(int size, int percent)
{
    if (size == -1) {
        if (opt.download)
            die("download refused by the server (%s)", opt.download);
        return; /* a refused download we did not ask for (garbage replay) */
    }
    if (size > 0) {
        if (size > 1024)
            die("bad download chunk%s", "");
        download_got += size;
    }
    if (!opt.download) {
        return;
    } else if (percent == 100) {
        download_done = true;
        printf("download complete: %ld bytes\n", download_got);
    } else {
        stringcmd("nextdl");
    }
}

/* A message about a player slot: a QuakeWorld client knows 32 slots and stops at any other
 * (ezQuake: "CL_ParsePlayerinfo: bad num"); a server must not send one to it. */
static void check_slot(int slot)
{
    if (slot >= QW_MAX_CLIENTS)
        die("a message about player slot %s: QuakeWorld clients know 32 slots", "32+");
}

/* Every message the server may send us, checked; any other fails the run. */
static bool on_message(void *ctx, const qw_svc *m)
{
    (void)ctx;
    char s[16];
    switch (m->id) {
    case svc_disconnect:
        die("server disconnected us%s", "");
        break;
    case svc_print:
        on_print(m->u.print.level, m->u.print.text);
        break;
    case svc_stufftext:
        handle_stufftext(m->u.text);
        break;
    case svc_serverdata:
        on_serverdata(m);
        break;
    case svc_soundlist:
    case svc_modellist:
        on_list(m->id, m->u.list.next);
        break;
    case svc_spawnbaseline: {
        int n = m->u.entity.number;
        if (n < 0 || n >= 512)
            die("baseline entity number out of range%s", "");
        baselines[n] = m->u.entity;
        break;
    }
    case svc_updatefrags:
    case svc_updateping:
    case svc_updatepl:
        check_slot(m->u.player.slot);
        break;
    case svc_updateentertime:
        check_slot(m->u.entertime.slot);
        break;
    case svc_updateuserinfo:
        check_slot(m->u.userinfo.slot);
        on_userinfo(m->u.userinfo.slot, m->u.userinfo.info);
        break;
    case svc_setinfo:
        check_slot(m->u.setinfo.slot);
        break;
    case svc_playerinfo:
        on_playerinfo(&m->u.playerinfo);
        break;
    case svc_packetentities:
        parse_entities(m->u.entities, false);
        frames_after_begin |= begin_sent;
        break;
    case svc_deltapacketentities:
        parse_entities(m->u.entities, true);
        break;
    case svc_download:
        on_download(m->u.download.size, m->u.download.percent);
        break;
    case svc_nop: case svc_centerprint: case svc_serverinfo: case svc_smallkick:
    case svc_bigkick: case svc_muzzleflash: case svc_stopsound: case svc_maxspeed:
    case svc_entgravity: case svc_spawnstatic: case svc_lightstyle: case svc_cdtrack:
    case svc_updatestat: case svc_updatestatlong: case svc_setangle: case svc_damage:
    case svc_chokecount: case svc_sound: case svc_temp_entity:
        break;
    default:
        snprintf(s, sizeof s, "%d", m->id);
        die("unknown server message %s", s);
    }
    return true;
}

static void parse_message(qw_msgreader *r)
{
    int id;
    char s[16];
    switch (qw_svc_walk(r, on_message, NULL, &id)) {
    case QW_SVC_END:
        break;
    case QW_SVC_UNKNOWN:
        snprintf(s, sizeof s, "%d", id);
        die("unknown server message %s", s);
        break;
    default:
        snprintf(s, sizeof s, "%d", id);
        die("truncated or unreadable server message (svc %s)", s);
    }
}

static void send_packet(void)
{
    uint8_t data[QW_MAX_MSGLEN];
    qw_sizebuf sb;
    qw_sizebuf_init(&sb, data, sizeof data);
    if (spawned) {
        static qw_usercmd cmds[3];
        static float yaw;
        cmds[0] = cmds[1];
        cmds[1] = cmds[2];
        qw_usercmd *c = &cmds[2];
        memset(c, 0, sizeof *c);
        static int frame;
        c->msec = 13;
        yaw += 0.5f; /* turn slowly so walls do not stop us for long */
        c->angles[1] = yaw;
        c->forwardmove = 400;
        if (opt.shoot) {
            /* aim at the nearest other player, press and release the trigger (a dead
             * player respawns on a fresh press) */
            float best = 1e9f;
            for (int i = 0; i < 32; i++) {
                if (!others_seen[i])
                    continue;
                float d[3] = {others[i][0] - last_origin[0], others[i][1] - last_origin[1],
                              others[i][2] - last_origin[2]};
                float dist = sqrtf(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
                if (dist < best && dist > 1) {
                    best = dist;
                    c->angles[1] = atan2f(d[1], d[0]) * 180.0f / 3.14159265f;
                    c->angles[0] = -asinf(d[2] / dist) * 180.0f / 3.14159265f;
                }
            }
            if (frame++ & 1)
                c->buttons = QW_BUTTON_ATTACK;
            if (frame % 200 == 0)
                c->impulse = 7; /* the rocket launcher, once picked up */
        }
        qw_usercmd_quantize(c);
        qw_write_byte(&sb, clc_move);
        size_t checksum_at = sb.cursize;
        qw_write_byte(&sb, 0);
        qw_write_byte(&sb, 0);
        static const qw_usercmd zero;
        qw_usercmd_write_delta(&sb, &zero, &cmds[0]);
        qw_usercmd_write_delta(&sb, &cmds[0], &cmds[1]);
        qw_usercmd_write_delta(&sb, &cmds[1], &cmds[2]);
        if (have_chktbl)
            data[checksum_at] = qw_sequence_crc_byte(&chktbl, data + checksum_at + 1,
                                                     sb.cursize - checksum_at - 1,
                                                     nc.outgoing_sequence);
        if (valid_sequence && nc.outgoing_sequence - valid_sequence < QW_UPDATE_BACKUP - 1) {
            qw_write_byte(&sb, clc_delta);
            qw_write_byte(&sb, valid_sequence & 0xff);
        }
    }
    uint8_t pkt[QW_MAX_PACKET];
    size_t n = qw_netchan_transmit(&nc, data, sb.cursize, pkt, sizeof pkt);
    sendto(sock, pkt, n, 0, (struct sockaddr *)&server, sizeof server);
}

/* Sends every file of opt.garbage_dir three ways: raw (no valid header), as the payload of
 * a correctly sequenced packet (so it reaches the server's message parser), and as a
 * connectionless command. The server must drop them and keep serving us. */
static void send_garbage(void)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "ls %s", opt.garbage_dir);
    FILE *ls = popen(cmd, "r");
    if (!ls)
        die("cannot list %s", opt.garbage_dir);
    char name[512];
    int count = 0;
    while (fgets(name, sizeof name, ls)) {
        name[strcspn(name, "\n")] = 0;
        char path[1200];
        snprintf(path, sizeof path, "%s/%s", opt.garbage_dir, name);
        FILE *f = fopen(path, "rb");
        if (!f)
            continue;
        uint8_t data[4096];
        size_t n = fread(data, 1, sizeof data, f);
        fclose(f);
        sendto(sock, data, n, 0, (struct sockaddr *)&server, sizeof server);
        uint8_t pkt[QW_MAX_PACKET + 4096];
        qw_netchan copy = nc; /* do not disturb the real channel's reliable state */
        copy.reliable_length = 0;
        copy.message.cursize = 0;
        size_t m = qw_netchan_transmit(&copy, NULL, 0, pkt, sizeof pkt);
        if (n > QW_MAX_MSGLEN)
            n = QW_MAX_MSGLEN;
        memcpy(pkt + m, data, n);
        sendto(sock, pkt, m + n, 0, (struct sockaddr *)&server, sizeof server);
        nc.outgoing_sequence = copy.outgoing_sequence;
        uint8_t oob[4096 + 4];
        memcpy(oob, "\xff\xff\xff\xff", 4);
        memcpy(oob + 4, data, n);
        sendto(sock, oob, n + 4, 0, (struct sockaddr *)&server, sizeof server);
        count++;
    }
    pclose(ls);
    printf("sent %d garbage files three ways each\n", count);
}

static void load_map(void)
{
    if (!opt.map)
        return;
    FILE *f = fopen(opt.map, "rb");
    if (!f)
        die("cannot open map %s", opt.map);
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *data = malloc((size_t)size);
    if (!data || fread(data, 1, (size_t)size, f) != (size_t)size)
        die("cannot read map %s", opt.map);
    fclose(f);
    uint32_t c1;
    if (qw_map_checksums(data, (size_t)size, &c1, &map_checksum2) < 0)
        die("bad map %s", opt.map);
    have_map = true;
    free(data);
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : "";
        if (!strcmp(a, "--help")) {
            puts("usage: qwclient -port N [-host ADDR] [-name NAME] [-map FILE.bsp] [-chktbl FILE]\n"
                 "       [-qport N] [-shoot] [-say TEXT] [-expect-chat TEXT] [-stay SECONDS]\n"
                 "       [-timeout SECONDS] [-expect-reject] [-garbage DIR] [-vanish]\n"
                 "       [-expect-chat-count N] [-reply TEXT] [-expect-obituaries N]\n"
                 "       [-spectator] [-expect-spectator NAME]\n"
                 "       [-download NAME [-download-size BYTES]]\n"
                 "A protocol-28 test client: signs on, walks, checks every server message.");
            return 0;
        }
        if (!strcmp(a, "-port")) opt.port = atoi(v), i++;
        else if (!strcmp(a, "-host")) opt.host = v, i++;
        else if (!strcmp(a, "-name")) opt.name = v, i++;
        else if (!strcmp(a, "-map")) opt.map = v, i++;
        else if (!strcmp(a, "-chktbl")) opt.chktbl_path = v, i++;
        else if (!strcmp(a, "-qport")) opt.qport = atoi(v), i++;
        else if (!strcmp(a, "-say")) opt.say = v, i++;
        else if (!strcmp(a, "-expect-chat")) opt.expect_chat = v, i++;
        else if (!strcmp(a, "-expect-chat-count")) opt.expect_chat_count = atoi(v), i++;
        else if (!strcmp(a, "-reply")) opt.reply = v, i++;
        else if (!strcmp(a, "-expect-obituaries")) opt.expect_obituaries = atoi(v), i++;
        else if (!strcmp(a, "-expect-spectator")) opt.expect_spectator = v, i++;
        else if (!strcmp(a, "-spectator")) opt.spectator = true;
        else if (!strcmp(a, "-stay")) opt.stay = atof(v), i++;
        else if (!strcmp(a, "-timeout")) opt.timeout = atof(v), i++;
        else if (!strcmp(a, "-garbage")) opt.garbage_dir = v, i++;
        else if (!strcmp(a, "-download")) opt.download = v, i++;
        else if (!strcmp(a, "-download-size")) opt.download_size = atol(v), i++;
        else if (!strcmp(a, "-shoot")) opt.shoot = true;
        else if (!strcmp(a, "-vanish")) opt.vanish = true;
        else if (!strcmp(a, "-expect-reject")) opt.expect_reject = true;
        else { fprintf(stderr, "qwclient: unknown option %s (see --help)\n", a); return 2; }
    }
    if (!opt.port) {
        fprintf(stderr, "qwclient: -port is required\n");
        return 2;
    }
    if (!opt.qport)
        opt.qport = (getpid() * 31) & 0xffff;
    load_map();
    char err[256];
    if (opt.chktbl_path && *opt.chktbl_path)
        have_chktbl = qw_chktbl_load(&chktbl, opt.chktbl_path, err, sizeof err);

    sock = socket(AF_INET, SOCK_DGRAM, 0);
    server.sin_family = AF_INET;
    server.sin_port = htons((uint16_t)opt.port);
    inet_pton(AF_INET, opt.host, &server.sin_addr);

    uint8_t buf[QW_MAX_PACKET + 64];
    int challenge = 0;
    bool have_challenge = false; /* challenges may be negative (mvdsv) */
    for (int tries = 0; tries < 5 && !have_challenge; tries++) {
        send_oob("getchallenge\n");
        int n = recv_oob(buf, sizeof buf, 1.0);
        if (n > 5 && buf[4] == 'c') {
            challenge = atoi((char *)buf + 5);
            have_challenge = true;
        }
    }
    if (!have_challenge)
        die("no challenge from the server%s", "");
    char line[512];
    snprintf(line, sizeof line,
             "connect %d %d %d \"\\name\\%s\\topcolor\\4\\bottomcolor\\12%s\"\n",
             QW_PROTOCOL_VERSION, opt.qport, challenge, opt.name,
             opt.spectator ? "\\spectator\\1" : "");
    send_oob(line);
    int n = recv_oob(buf, sizeof buf, 2.0);
    if (n < 5)
        die("no reply to connect%s", "");
    if (buf[4] == 'n') {
        printf("connect refused: %s\n", (char *)buf + 5);
        if (opt.expect_reject && strstr((char *)buf + 5, "full"))
            return 0;
        die("connect refused%s", "");
    }
    if (buf[4] != 'j')
        die("unexpected connect reply%s", "");
    if (opt.expect_reject)
        die("connect accepted but a reject was expected%s", "");
    printf("connected (challenge %d)\n", challenge);

    qw_netchan_init(&nc, true, opt.qport);
    stringcmd("new");
    double start = now(), spawned_at = 0, last_send = 0;
    double last_say = 0;
    bool garbage_sent = false, download_requested = false;
    while (now() - start < opt.timeout) {
        if (now() - last_send >= 0.013) {
            send_packet();
            last_send = now();
        }
        struct pollfd p = {sock, POLLIN, 0};
        if (poll(&p, 1, 5) <= 0)
            continue;
        ssize_t got;
        while ((got = recv(sock, buf, sizeof buf, MSG_DONTWAIT)) > 0) {
            if (got >= 4 && !memcmp(buf, "\xff\xff\xff\xff", 4))
                continue;
            qw_msgreader r;
            if (!qw_netchan_process(&nc, buf, (size_t)got, now(), &r, NULL))
                continue;
            parse_message(&r);
        }
        if (opt.spectator && !spawned && frames_after_begin) {
            /* a spectator is not a player: nothing tells it where it is, it just sees */
            spawned = moved = true;
            spawned_at = now();
            printf("in the game as a spectator (slot %d)\n", my_slot);
        }
        if (!spawned && have_origin) {
            spawned = true;
            spawned_at = now();
            printf("spawned in slot %d at %.1f %.1f %.1f\n", my_slot, first_origin[0],
                   first_origin[1], first_origin[2]);
        }
        /* chat every second, so clients that spawn later hear it too */
        if (spawned && opt.say && now() - last_say >= 1.0) {
            char b[300];
            snprintf(b, sizeof b, "say \"%s\"", opt.say);
            stringcmd(b);
            last_say = now();
        }
        if (spawned && opt.garbage_dir && !garbage_sent) {
            send_garbage();
            garbage_sent = true;
        }
        if (spawned && opt.download && !download_requested) {
            char b[300];
            snprintf(b, sizeof b, "download %s", opt.download);
            stringcmd(b);
            download_requested = true;
        }
        if (spawned && !moved) {
            float d[3] = {last_origin[0] - first_origin[0], last_origin[1] - first_origin[1],
                          last_origin[2] - first_origin[2]};
            if (sqrtf(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]) > 32) {
                moved = true;
                printf("moved from %.1f %.1f %.1f to %.1f %.1f %.1f\n", first_origin[0],
                       first_origin[1], first_origin[2], last_origin[0], last_origin[1],
                       last_origin[2]);
            }
        }
        /* -reply: answer the expected chat once, then stay a second so it gets through */
        if (saw_chat && opt.reply && !replied) {
            char b[300];
            snprintf(b, sizeof b, "say \"%s\"", opt.reply);
            stringcmd(b);
            replied = true;
            replied_at = now();
        }
        bool chat_ok = !opt.expect_chat || (saw_chat && (!opt.reply || now() - replied_at > 1.0));
        bool download_ok = !opt.download || download_done;
        bool deaths_ok = num_obituaries >= opt.expect_obituaries;
        if (moved && chat_ok && download_ok && deaths_ok && now() - spawned_at >= opt.stay) {
            if (opt.download && opt.download_size >= 0 && download_got != opt.download_size) {
                char b[64];
                snprintf(b, sizeof b, "%ld", download_got);
                die("downloaded %s bytes, not the file's size", b);
            }
            if (!opt.vanish) { /* -vanish: leave without a word, to test timeouts */
                stringcmd("drop");
                send_packet();
                send_packet();
            }
            printf("PASS %s\n", opt.name);
            return 0;
        }
    }
    fprintf(stderr, "qwclient %s: FAIL: timed out (spawned=%d moved=%d chat=%d download=%ld%s, "
            "obituaries=%d, map checksum %s)\n", opt.name, spawned, moved, saw_chat,
            download_got, download_done ? " done" : "", num_obituaries,
            have_map ? "sent" : "not sent");
    return 1;
}
