/* What a bot does with what the server sends: the messages are walked by libqwproto's
 * qw_svc_walk (every svc of quakeworld.md decoded, one unknown or malformed message only costs
 * the rest of its packet); the bot uses the sign-on, its own origin, health and frags, the
 * others' positions and the server's prints and stuffed commands. */
#include <stdio.h>
#include <string.h>

#include "mapfile.h"
#include "qw_svc.h"
#include "run.h"
#include "server_parse.h"
#include "stufftext.h"

/* The longest model name a bot accepts in a list. */
#define MAX_LIST_NAME 256

/* Quake's character set: the high bit only colours a glyph, low codes are symbols. */
static void make_printable(char *text)
{
    for (unsigned char *p = (unsigned char *)text; *p; p++) {
        *p &= 127;
        if (*p < 32 || *p == 127)
            *p = *p == '\n' ? ' ' : '.';
    }
}

/* False when the message cannot be used (the bot failed, or a string is too long). */
static bool on_serverdata(qwbot_bot *b, const qw_svc *m)
{
    if (m->u.serverdata.protocol != QW_PROTOCOL_VERSION) {
        qwbot_bot_fail(b, "server speaks protocol %d, qwbot speaks %d",
                       m->u.serverdata.protocol, QW_PROTOCOL_VERSION);
        return false;
    }
    if (strlen(m->u.serverdata.gamedir) >= sizeof b->gamedir ||
        strlen(m->u.serverdata.level) >= sizeof b->levelname)
        return false;
    b->spawncount = m->u.serverdata.spawncount;
    snprintf(b->gamedir, sizeof b->gamedir, "%s", m->u.serverdata.gamedir);
    b->playernum = m->u.serverdata.slot & 127;
    b->slot_bit7 = m->u.serverdata.slot & 128;    /* decided by fullserverinfo, which follows */
    snprintf(b->levelname, sizeof b->levelname, "%s", m->u.serverdata.level);
    b->in_game = false;
    b->begin_sent = false;
    b->valid_sequence = 0;
    b->have_origin = false;
    if (b->state < BOT_SIGNON)
        b->state = BOT_SIGNON;
    qwbot_bot_log(b, "serverdata: spawncount %d, gamedir %s, slot %d, \"%s\"",
                  b->spawncount, b->gamedir, b->playernum, b->levelname);
    qwbot_bot_stringcmd(b, "soundlist %d 0", b->spawncount);
    return true;
}

/* Model 1 names the server's map. After a map change (the server's "changing" and
 * "reconnect") it is another map: its checksum comes from the same -basedir, as a real
 * client loads the new map from its game directory. */
static bool follow_map(qwbot_bot *b, const char *model)
{
    qwbot_run *run = b->run;
    char expected[128], map[64], path[4096], err[1024];
    snprintf(expected, sizeof expected, "maps/%s.bsp", run->map);
    if (!strcmp(model, expected))
        return true;
    size_t len = strlen(model);
    if (strncmp(model, "maps/", 5) != 0 || len < 10 || len - 9 >= sizeof map ||
        strcmp(model + len - 4, ".bsp") != 0 || strchr(model + 5, '/')) {
        qwbot_bot_fail(b, "server's map model %s is not maps/NAME.bsp", model);
        return false;
    }
    snprintf(map, sizeof map, "%.*s", (int)(len - 9), model + 5);
    uint32_t checksum2;
    if (qwbot_map_checksum(run->opt.basedir, map, path, sizeof path, &checksum2, err,
                           sizeof err) != 0) {
        qwbot_bot_fail(b, "server runs %s, which -basedir does not hold (%s)", model, err);
        return false;
    }
    snprintf(run->changed_map, sizeof run->changed_map, "%s", map);
    run->map = run->changed_map;
    snprintf(run->map_path, sizeof run->map_path, "%s", path);
    run->checksum2 = checksum2;
    qwbot_bot_log(b, "the server runs map %s now (checksum2 %d)", map, (int32_t)checksum2);
    return true;
}

/* svc_soundlist / svc_modellist: asks for the next part, or goes on with the sign-on. */
static bool on_list(qwbot_bot *b, const qw_svc *m)
{
    bool models = m->id == svc_modellist;
    const char *name = m->u.list.names;
    for (int i = 0; i < m->u.list.count; i++, name += strlen(name) + 1)
        if (strlen(name) >= MAX_LIST_NAME)
            return false;
    name = m->u.list.names;
    for (int i = 0, index = m->u.list.start + 1; i < m->u.list.count;
         i++, index++, name += strlen(name) + 1) {
        if (models && index == 1 && !follow_map(b, name))
            return false;
        if (models && b->run->model_names && index < QWBOT_MAX_MODELS)
            snprintf(b->run->model_names[index], 64, "%s", name);
    }
    int next = m->u.list.next;
    if (next)
        qwbot_bot_stringcmd(b, "%s %d %d", models ? "modellist" : "soundlist", b->spawncount,
                            next);
    else if (!models)
        qwbot_bot_stringcmd(b, "modellist %d 0", b->spawncount);
    else
        qwbot_bot_stringcmd(b, "prespawn %d 0 %d", b->spawncount, (int32_t)b->run->checksum2);
    return true;
}

static void on_playerinfo(qwbot_bot *b, const qw_playerinfo *pi)
{
    if (pi->slot != b->playernum) {
        if (pi->slot >= 0 && pi->slot < QWBOT_MAX_SLOTS) {
            qwbot_other *o = &b->others[pi->slot];
            memcpy(o->origin, pi->origin, sizeof pi->origin);
            o->alive = !pi->dead;
            o->seen = b->nc.incoming_sequence;
        }
        return;
    }
    if (b->visitor)
        qwbot_movers_origin(b, pi->origin);
    if (b->state == BOT_PLAYING || b->state == BOT_FINISHING) {
        if (!b->have_play_start_origin) {
            memcpy(b->play_start_origin, pi->origin, sizeof pi->origin);
            b->have_play_start_origin = true;
        } else if (b->have_origin && memcmp(b->origin, pi->origin, sizeof pi->origin) != 0) {
            b->origin_changes++;
        }
    }
    memcpy(b->origin, pi->origin, sizeof pi->origin);
    b->have_origin = true;
}

static void on_stat(qwbot_bot *b, int stat, int32_t value)
{
    if (stat < 0 || stat >= QW_MAX_CL_STATS)
        return;
    if (stat == STAT_HEALTH) {
        if (b->in_game && b->health > 0 && value <= 0)
            b->deaths++;
        b->health = value;
    }
    b->stats[stat] = value;
}

static void on_print(qwbot_bot *b, int level, const char *message)
{
    char text[QW_SVC_MAX_STRING];
    snprintf(text, sizeof text, "%s", message);
    size_t n = strlen(text);
    while (n && (text[n - 1] == '\n' || text[n - 1] == '\r'))
        text[--n] = 0;
    make_printable(text);
    if (level >= PRINT_HIGH || level == PRINT_LOW)
        snprintf(b->last_print, sizeof b->last_print, "%s", text);
    qwbot_bot_log(b, "print %d: %s", level, text);
    if (b->visitor && level == PRINT_LOW)
        qwbot_movers_print(b, text);
}

typedef struct walk {
    qwbot_bot *bot;
    bool bad;                   /* the walk stopped at something the bot cannot use */
} walk;

static bool on_message(void *ctx, const qw_svc *m)
{
    walk *w = ctx;
    qwbot_bot *b = w->bot;
    switch (m->id) {
    case svc_disconnect:
        if (b->state != BOT_FINISHING && b->state != BOT_DONE)
            qwbot_bot_fail(b, "server disconnected the bot%s%s",
                           b->last_print[0] ? ": " : "", b->last_print);
        return false;           /* nothing after it counts */
    case svc_updatestat:
    case svc_updatestatlong:
        on_stat(b, m->u.stat.stat, m->u.stat.value);
        break;
    case svc_print:
        on_print(b, m->u.print.level, m->u.print.text);
        break;
    case svc_stufftext:
        qwbot_run_stufftext(b, m->u.text);
        break;
    case svc_serverdata:
        w->bad = !on_serverdata(b, m);
        break;
    case svc_updatefrags:
        if (m->u.player.slot == b->playernum) {
            if (b->in_game && m->u.player.value > b->frags)
                b->kills += (uint32_t)(m->u.player.value - b->frags);
            b->frags = m->u.player.value;
        }
        break;
    case svc_playerinfo:
        on_playerinfo(b, &m->u.playerinfo);
        break;
    case svc_modellist:
    case svc_soundlist:
        w->bad = !on_list(b, m);
        break;
    case svc_chokecount: /* the moves before the acknowledged one, answered with it */
        b->choke_reported = m->u.byte;
        break;
    case svc_intermission: /* the match is over: the scoreboard until the next map */
        qwbot_bot_log(b, "intermission");
        break;
    case svc_spawnbaseline:
        if (b->visitor)
            qwbot_movers_baseline(b, &m->u.entity);
        break;
    case svc_packetentities:
        if (b->visitor && b->in_game) {
            qw_svc_entities list = m->u.entities;
            qw_entity_delta d;
            while (qw_svc_next_entity(&list, &d))
                qwbot_movers_entity(b, &d);
            qwbot_movers_entities_done(b);
        }
        b->valid_sequence = b->nc.incoming_sequence;
        break;
    case svc_deltapacketentities:
        /* Asking for deltas against this frame keeps the server on its delta path, like a
         * real client; the lists describe themselves, so reading them needs no entity
         * state. */
        b->valid_sequence = b->nc.incoming_sequence;
        break;
    default:
        break;                  /* read and skipped */
    }
    return !w->bad;
}

bool qwbot_parse_server_message(qwbot_bot *b, qw_msgreader *r)
{
    walk w = {.bot = b};
    int id;
    switch (qw_svc_walk(r, on_message, &w, &id)) {
    case QW_SVC_END:
        return true;
    case QW_SVC_STOPPED:
        return !w.bad;
    case QW_SVC_UNKNOWN:
        qwbot_bot_log(b, "unknown server message %d: rest of the packet skipped", id);
        return false;
    default:
        return false;
    }
}
