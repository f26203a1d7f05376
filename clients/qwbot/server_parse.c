/* Reading what the server sends: every svc of quakeworld.md is either used (sign-on, own
 * origin, health, frags) or skipped field by field, so one unknown or malformed message
 * only costs the rest of its packet. */
#include <stdio.h>
#include <string.h>

#include "server_parse.h"
#include "qw_entity_delta.h"
#include "qw_playerinfo.h"
#include "run.h"
#include "mapfile.h"
#include "stufftext.h"

/* Extension ids a server may put before the protocol number in svc_serverdata. */
#define EXT_FTEX 0x58455446   /* "FTEX" */
#define EXT_FTE2 0x32455446   /* "FTE2" */
#define EXT_MVD1 0x3144564d   /* "MVD1" */

static void skip(qw_msgreader *r, size_t n)
{
    uint8_t scratch[64];
    while (n && !r->bad) {
        size_t chunk = n < sizeof scratch ? n : sizeof scratch;
        qw_read_data(r, scratch, chunk);
        n -= chunk;
    }
}

static void skip_string(qw_msgreader *r)
{
    char buf[2048];
    qw_read_string(r, buf, sizeof buf);
}

/* Quake's character set: the high bit only colours a glyph, low codes are symbols. */
static void make_printable(char *text)
{
    for (unsigned char *p = (unsigned char *)text; *p; p++) {
        *p &= 127;
        if (*p < 32 || *p == 127)
            *p = *p == '\n' ? ' ' : '.';
    }
}

static bool parse_serverdata(qwbot_bot *b, qw_msgreader *r)
{
    int32_t protocol = qw_read_long(r);
    while (!r->bad && (protocol == EXT_FTEX || protocol == EXT_FTE2 || protocol == EXT_MVD1)) {
        qw_read_long(r);   /* extension mask: we asked for none, so we ignore it */
        protocol = qw_read_long(r);
    }
    if (r->bad)
        return false;
    if (protocol != QW_PROTOCOL_VERSION) {
        qwbot_bot_fail(b, "server speaks protocol %d, qwbot speaks %d", protocol,
                       QW_PROTOCOL_VERSION);
        return false;
    }
    b->spawncount = qw_read_long(r);
    qw_read_string(r, b->gamedir, sizeof b->gamedir);
    int slot = qw_read_byte(r);
    b->playernum = slot & 127;
    b->slot_bit7 = slot & 128;                /* decided by fullserverinfo, which follows */
    qw_read_string(r, b->levelname, sizeof b->levelname);
    skip(r, 10 * 4);                          /* movevars */
    if (r->bad)
        return false;
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

/* svc_soundlist / svc_modellist: start byte, names until "", next start (0 = complete). */
static bool parse_list(qwbot_bot *b, qw_msgreader *r, bool models)
{
    char name[256];
    int index = qw_read_byte(r);
    for (;;) {
        qw_read_string(r, name, sizeof name);
        if (r->bad)
            return false;
        if (!name[0])
            break;
        index++;
        if (models && index == 1 && !follow_map(b, name))
            return false;
    }
    int next = qw_read_byte(r);
    if (r->bad)
        return false;
    if (next)
        qwbot_bot_stringcmd(b, "%s %d %d", models ? "modellist" : "soundlist", b->spawncount,
                            next);
    else if (!models)
        qwbot_bot_stringcmd(b, "modellist %d 0", b->spawncount);
    else
        qwbot_bot_stringcmd(b, "prespawn %d 0 %d", b->spawncount, (int32_t)b->run->checksum2);
    return true;
}

static bool parse_playerinfo(qwbot_bot *b, qw_msgreader *r)
{
    qw_playerinfo pi;
    if (!qw_playerinfo_read(r, &pi))
        return false;
    if (pi.slot != b->playernum) {
        if (pi.slot >= 0 && pi.slot < QWBOT_MAX_SLOTS) {
            qwbot_other *o = &b->others[pi.slot];
            memcpy(o->origin, pi.origin, sizeof pi.origin);
            o->alive = !pi.dead;
            o->seen = b->nc.incoming_sequence;
        }
        return true;
    }
    if (b->state == BOT_PLAYING || b->state == BOT_FINISHING) {
        if (!b->have_play_start_origin) {
            memcpy(b->play_start_origin, pi.origin, sizeof pi.origin);
            b->have_play_start_origin = true;
        } else if (b->have_origin && memcmp(b->origin, pi.origin, sizeof pi.origin) != 0) {
            b->origin_changes++;
        }
    }
    memcpy(b->origin, pi.origin, sizeof pi.origin);
    b->have_origin = true;
    return true;
}

static bool parse_packetentities(qwbot_bot *b, qw_msgreader *r, bool delta)
{
    static const qw_entity_state zero;
    if (delta)
        qw_read_byte(r);   /* the frame it is coded against: we keep no entity state */
    for (;;) {
        int word = qw_read_short(r);
        if (r->bad)
            return false;
        word &= 0xffff;
        if (word == 0)
            break;
        if (word & U_REMOVE)
            continue;
        qw_entity_state scratch;
        if (!qw_entity_delta_read(r, word, &zero, &scratch))
            return false;
    }
    /* Asking for deltas against this frame keeps the server on its delta path, like a real
     * client; the syntax is self-describing, so skipping them needs no entity state. */
    b->valid_sequence = b->nc.incoming_sequence;
    return true;
}

static bool parse_temp_entity(qw_msgreader *r)
{
    int type = qw_read_byte(r);
    switch (type) {
    case TE_LIGHTNING1:
    case TE_LIGHTNING2:
    case TE_LIGHTNING3:
        skip(r, 2 + 6 * 2);        /* entity, start, end */
        break;
    case TE_GUNSHOT:
    case TE_BLOOD:
        skip(r, 1 + 3 * 2);        /* count, position */
        break;
    case TE_SPIKE: case TE_SUPERSPIKE: case TE_EXPLOSION: case TE_TAREXPLOSION:
    case TE_WIZSPIKE: case TE_KNIGHTSPIKE: case TE_LAVASPLASH: case TE_TELEPORT:
    case TE_LIGHTNINGBLOOD:
        skip(r, 3 * 2);
        break;
    default:
        return false;              /* unknown size: cannot skip */
    }
    return !r->bad;
}

static void note_stat(qwbot_bot *b, int stat, int32_t value)
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

bool qwbot_parse_server_message(qwbot_bot *b, qw_msgreader *r)
{
    char text[2048];
    while (!r->bad && qw_reader_remaining(r) > 0) {
        int cmd = qw_read_byte(r);
        switch (cmd) {
        case svc_nop:
        case svc_killedmonster:
        case svc_foundsecret:
        case svc_sellscreen:
        case svc_smallkick:
        case svc_bigkick:
            break;
        case svc_disconnect:
            if (b->state != BOT_FINISHING && b->state != BOT_DONE)
                qwbot_bot_fail(b, "server disconnected the bot%s%s",
                               b->last_print[0] ? ": " : "", b->last_print);
            return true;
        case svc_updatestat: {
            int stat = qw_read_byte(r);
            int value = qw_read_byte(r);
            if (!r->bad)
                note_stat(b, stat, value);
            break;
        }
        case svc_updatestatlong: {
            int stat = qw_read_byte(r);
            int32_t value = qw_read_long(r);
            if (!r->bad)
                note_stat(b, stat, value);
            break;
        }
        case svc_sound: {
            int channel = qw_read_short(r);
            if (channel & SND_VOLUME)
                skip(r, 1);
            if (channel & SND_ATTENUATION)
                skip(r, 1);
            skip(r, 1 + 3 * 2);
            break;
        }
        case svc_print: {
            int level = qw_read_byte(r);
            qw_read_string(r, text, sizeof text);
            if (r->bad)
                break;
            size_t n = strlen(text);
            while (n && (text[n - 1] == '\n' || text[n - 1] == '\r'))
                text[--n] = 0;
            make_printable(text);
            if (level >= PRINT_HIGH || level == PRINT_LOW)
                snprintf(b->last_print, sizeof b->last_print, "%s", text);
            qwbot_bot_log(b, "print %d: %s", level, text);
            break;
        }
        case svc_centerprint:
        case svc_finale:
            skip_string(r);
            break;
        case svc_stufftext:
            qw_read_string(r, text, sizeof text);
            if (!r->bad)
                qwbot_run_stufftext(b, text);
            break;
        case svc_setangle:
            skip(r, 3);
            break;
        case svc_serverdata:
            if (!parse_serverdata(b, r))
                return false;
            break;
        case svc_lightstyle:
            skip(r, 1);
            skip_string(r);
            break;
        case svc_updatefrags: {
            int slot = qw_read_byte(r);
            int frags = (int16_t)qw_read_short(r);
            if (!r->bad && slot == b->playernum) {
                if (b->in_game && frags > b->frags)
                    b->kills += (uint32_t)(frags - b->frags);
                b->frags = frags;
            }
            break;
        }
        case svc_stopsound:
        case svc_muzzleflash:
            skip(r, 2);
            break;
        case svc_damage:
            skip(r, 2 + 3 * 2);
            break;
        case svc_spawnstatic:
            skip(r, 4 + 3 * 3);
            break;
        case svc_spawnbaseline:
            skip(r, 2 + 4 + 3 * 3);
            break;
        case svc_temp_entity:
            if (!parse_temp_entity(r))
                return false;
            break;
        case svc_setpause:
        case svc_cdtrack:
        case svc_chokecount:
            skip(r, 1);
            break;
        case svc_spawnstaticsound:
        case svc_intermission:
            skip(r, 3 * 2 + 3);
            break;
        case svc_updateping:
            skip(r, 1 + 2);
            break;
        case svc_updateentertime:
            skip(r, 1 + 4);
            break;
        case svc_updateuserinfo:
            skip(r, 1 + 4);
            skip_string(r);
            break;
        case svc_download: {
            int size = qw_read_short(r);
            skip(r, 1);
            if (size > 0)
                skip(r, (size_t)size);
            break;
        }
        case svc_playerinfo:
            if (!parse_playerinfo(b, r))
                return false;
            break;
        case svc_nails:
        case svc_nails2: {
            int count = qw_read_byte(r);
            if (count > 0)
                skip(r, (size_t)count * (cmd == svc_nails ? 6 : 7));
            break;
        }
        case svc_modellist:
        case svc_soundlist:
            if (!parse_list(b, r, cmd == svc_modellist))
                return false;
            break;
        case svc_packetentities:
        case svc_deltapacketentities:
            if (!parse_packetentities(b, r, cmd == svc_deltapacketentities))
                return false;
            break;
        case svc_maxspeed:
        case svc_entgravity:
            skip(r, 4);
            break;
        case svc_setinfo:
            skip(r, 1);
            skip_string(r);
            skip_string(r);
            break;
        case svc_serverinfo:
            skip_string(r);
            skip_string(r);
            break;
        case svc_updatepl:
            skip(r, 2);
            break;
        default:
            qwbot_bot_log(b, "unknown server message %d: rest of the packet skipped", cmd);
            return false;
        }
    }
    return !r->bad;
}
