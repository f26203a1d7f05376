/* The players' scoreboards (see net/scoreboard.h). */
#include "net/scoreboard.h"

#include <string.h>

#include "net/slots.h"
#include "net/reliable.h"
#include "qw_info.h"

/* What mvdsv shows for a client that is not in the game (signing on, or a freed slot). */
#define PING_NOT_SPAWNED 999

static bool game_announces_frags;

LIBTM_SAFE int sv_scoreboard_frags(int slot)
{
    return sv.players[slot].frags;
}

int sv_scoreboard_ping(const sv_client *cl)
{
    return cl->state == CL_SPAWNED ? (int)cl->ping_ms : PING_NOT_SPAWNED;
}

/* Reads one slot (inside CS_SCOREBOARD for another client's slot). */
static void read_entry(const sv_client *c, sv_scoreboard_entry *e)
{
    memset(e, 0, sizeof *e);
    e->here = c->state == CL_CONNECTED || c->state == CL_SPAWNED;
    if (!e->here)
        return;
    int slot = (int)(c - sv.clients);
    e->spawned = c->state == CL_SPAWNED;
    e->spectator = c->spectator;
    memcpy(e->pub.name, c->name, sizeof e->pub.name);
    memcpy(e->pub.team, c->team, sizeof e->pub.team);
    memcpy(e->pub.skin, c->skin, sizeof e->pub.skin);
    e->pub.topcolor = c->topcolor;
    e->pub.bottomcolor = c->bottomcolor;
    e->userid = c->userid;
    e->frags = c->spectator ? 0 : sv_scoreboard_frags(slot);
    e->ping = e->spawned ? (int)c->ping_ms : PING_NOT_SPAWNED;
    e->loss = c->packet_loss;
    e->entertime = (float)(sv.realtime - c->connect_time);
}

static void read_entries(sv_scoreboard_entry *out, int n)
{
    for (int i = 0; i < n; i++)
        read_entry(&sv.clients[i], &out[i]);
}

/* Kept out of line: a transaction begins like setjmp, and the caller's locals would count
 * as clobbered. */
static __attribute__((noinline)) void read_entries_cs(sv_scoreboard_entry *out, int n)
{
    CRITICAL_SECTION(CS_SCOREBOARD, read_entries(out, n););
}

int sv_scoreboard_snapshot(const sv_client *viewer, sv_scoreboard_entry *out)
{
    int n = sv_client_slots_known(viewer->bigslots);
    read_entries_cs(out, n);
    return n;
}

void sv_scoreboard_entry_of(const sv_client *cl, sv_scoreboard_entry *out)
{
    read_entry(cl, out);
}

void sv_scoreboard_write_update(qw_sizebuf *sb, int slot, const sv_scoreboard_entry *e)
{
    qw_write_byte(sb, svc_updatefrags);
    qw_write_byte(sb, slot);
    qw_write_short(sb, e->here ? e->frags : 0);
    qw_write_byte(sb, svc_updateping);
    qw_write_byte(sb, slot);
    qw_write_short(sb, e->here ? e->ping : PING_NOT_SPAWNED);
    qw_write_byte(sb, svc_updatepl);
    qw_write_byte(sb, slot);
    qw_write_byte(sb, e->loss);
    qw_write_byte(sb, svc_updateentertime);
    qw_write_byte(sb, slot);
    qw_write_float(sb, e->here ? e->entertime : 0.0f);
    char info[QW_MAX_INFO_STRING] = "";
    if (e->here)
        sv_userinfo_write_public(info, sizeof info, &e->pub, e->spectator);
    qw_write_byte(sb, svc_updateuserinfo);
    qw_write_byte(sb, slot);
    qw_write_long(sb, e->userid); /* a freed slot keeps its last user id, as in mvdsv */
    qw_write_string(sb, info);
}

void sv_scoreboard_write_ping(qw_sizebuf *sb, int slot, const sv_scoreboard_entry *e)
{
    qw_write_byte(sb, svc_updateping);
    qw_write_byte(sb, slot);
    qw_write_short(sb, e->ping);
    qw_write_byte(sb, svc_updatepl);
    qw_write_byte(sb, slot);
    qw_write_byte(sb, e->loss);
}

void sv_scoreboard_announce_leave(const sv_client *cl)
{
    sv_scoreboard_entry gone = {.userid = cl->userid, .loss = cl->packet_loss};
    uint8_t buf[64];
    qw_sizebuf sb;
    qw_sizebuf_init(&sb, buf, sizeof buf);
    sv_scoreboard_write_update(&sb, cl->slot, &gone);
    sv_reliable_broadcast_about(cl->slot, sb.data, sb.cursize);
}

void sv_scoreboard_frame(void)
{
    if (game_announces_frags)
        return;
    for (int i = 0; i < SV_CLIENT_SLOTS; i++) {
        sv_client *cl = &sv.clients[i];
        if (cl->state != CL_SPAWNED || cl->spectator)
            continue;
        int frags = sv_scoreboard_frags(i);
        if (frags == cl->frags_announced)
            continue;
        uint8_t buf[4];
        qw_sizebuf sb;
        qw_sizebuf_init(&sb, buf, sizeof buf);
        qw_write_byte(&sb, svc_updatefrags);
        qw_write_byte(&sb, i);
        qw_write_short(&sb, frags);
        sv_reliable_broadcast_about(i, sb.data, sb.cursize);
        cl->frags_announced = frags;
    }
}

void sv_scoreboard_game_announces_frags(bool announces)
{
    game_announces_frags = announces;
}
