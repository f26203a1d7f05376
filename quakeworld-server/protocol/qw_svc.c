/* The walker of server messages (see qw_svc.h). The sizes and fields are quakeworld.md's. */
#include "qw_svc.h"

#include <string.h>

/* Extension ids a server may put before the protocol number in svc_serverdata. */
#define EXT_FTEX 0x58455446   /* "FTEX" */
#define EXT_FTE2 0x32455446   /* "FTE2" */
#define EXT_MVD1 0x3144564d   /* "MVD1" */

/* A sound packet's volume and attenuation when its flags leave them out. */
#define DEFAULT_SOUND_VOLUME 255
#define DEFAULT_SOUND_ATTENUATION 64

static const char *read_string(qw_msgreader *r)
{
    return qw_read_string_ref(r, QW_SVC_MAX_STRING);
}

static void read_coords(qw_msgreader *r, float out[3])
{
    for (int i = 0; i < 3; i++)
        out[i] = qw_read_coord(r);
}

/* What spawnbaseline and spawnstatic share: model, frame, colormap, skin, then origin and
 * angles axis by axis. */
static void read_entity(qw_msgreader *r, qw_entity_state *e)
{
    memset(e, 0, sizeof *e);
    e->modelindex = qw_read_byte(r);
    e->frame = qw_read_byte(r);
    e->colormap = qw_read_byte(r);
    e->skinnum = qw_read_byte(r);
    for (int i = 0; i < 3; i++) {
        e->origin[i] = qw_read_coord(r);
        e->angles[i] = qw_read_angle8(r);
    }
}

static void read_serverdata(qw_msgreader *r, qw_svc *m)
{
    memset(&m->u.serverdata, 0, sizeof m->u.serverdata);
    int32_t protocol = qw_read_long(r);
    while (!r->bad && (protocol == EXT_FTEX || protocol == EXT_FTE2 || protocol == EXT_MVD1)) {
        qw_read_long(r);   /* the extension mask: a client asks for none */
        protocol = qw_read_long(r);
    }
    m->u.serverdata.protocol = protocol;
    if (r->bad || protocol != QW_PROTOCOL_VERSION)
        return;
    m->u.serverdata.spawncount = qw_read_long(r);
    m->u.serverdata.gamedir = read_string(r);
    m->u.serverdata.slot = qw_read_byte(r);
    m->u.serverdata.level = read_string(r);
    for (int i = 0; i < 10; i++)
        m->u.serverdata.movevars[i] = qw_read_float(r);
}

static void read_sound(qw_msgreader *r, qw_svc *m)
{
    int channel = qw_read_short(r);
    m->u.sound.volume = channel & SND_VOLUME ? qw_read_byte(r) : DEFAULT_SOUND_VOLUME;
    m->u.sound.attenuation = channel & SND_ATTENUATION ? qw_read_byte(r)
                                                       : DEFAULT_SOUND_ATTENUATION;
    m->u.sound.entity = (channel >> 3) & 1023;
    m->u.sound.channel = channel & 7;
    m->u.sound.sound = qw_read_byte(r);
    read_coords(r, m->u.sound.origin);
}

/* A type whose size is unknown cannot be read past: it counts as bad. */
static void read_temp_entity(qw_msgreader *r, qw_svc *m)
{
    memset(&m->u.temp_entity, 0, sizeof m->u.temp_entity);
    int type = qw_read_byte(r);
    m->u.temp_entity.type = type;
    switch (type) {
    case TE_LIGHTNING1:
    case TE_LIGHTNING2:
    case TE_LIGHTNING3:
        m->u.temp_entity.entity = qw_read_short(r);
        read_coords(r, m->u.temp_entity.start);
        read_coords(r, m->u.temp_entity.end);
        break;
    case TE_GUNSHOT:
    case TE_BLOOD:
        m->u.temp_entity.count = qw_read_byte(r);
        read_coords(r, m->u.temp_entity.start);
        break;
    case TE_SPIKE: case TE_SUPERSPIKE: case TE_EXPLOSION: case TE_TAREXPLOSION:
    case TE_WIZSPIKE: case TE_KNIGHTSPIKE: case TE_LAVASPLASH: case TE_TELEPORT:
    case TE_LIGHTNINGBLOOD:
        read_coords(r, m->u.temp_entity.start);
        break;
    default:
        r->bad = true;
    }
}

static void read_list(qw_msgreader *r, qw_svc *m)
{
    m->u.list.count = 0;
    m->u.list.start = qw_read_byte(r);
    m->u.list.names = (const char *)r->data + r->pos;
    for (;;) {
        const char *name = read_string(r);
        if (r->bad || !name[0])
            break;
        m->u.list.count++;
    }
    m->u.list.next = qw_read_byte(r);
}

/* Checks the whole list (its entries and the 0 that ends it) before anyone reads it. */
static void read_entities(qw_msgreader *r, qw_svc *m, bool delta)
{
    m->u.entities.from = delta ? qw_read_byte(r) : -1;
    if (r->bad)
        return;
    qw_svc_entities check = {.entries = *r};
    qw_entity_delta entry;
    while (qw_svc_next_entity(&check, &entry))
        ;
    if (check.entries.bad) {
        r->bad = true;
        return;
    }
    m->u.entities.entries = *r;
    m->u.entities.entries.size = check.entries.pos;   /* the list, its end marker included */
    r->pos = check.entries.pos;
}

bool qw_svc_next_entity(qw_svc_entities *list, qw_entity_delta *entry)
{
    qw_msgreader *r = &list->entries;
    int word = qw_read_short(r);
    if (r->bad)
        return false;
    word &= 0xffff;
    return word != 0 && qw_entity_delta_read_fields(r, word, entry);
}

/* Reads the fields of message m->id (every field of its member is set: no message pays for
 * clearing the whole union). False when it cannot be read: r->bad set for a message cut
 * short or malformed, not set for an id that protocol 28 does not have. */
static bool read_message(qw_msgreader *r, qw_svc *m)
{
    switch (m->id) {
    case svc_nop: case svc_disconnect: case svc_killedmonster: case svc_foundsecret:
    case svc_sellscreen: case svc_smallkick: case svc_bigkick:
        break;
    case svc_serverdata:
        read_serverdata(r, m);
        break;
    case svc_print:
        m->u.print.level = qw_read_byte(r);
        m->u.print.text = read_string(r);
        break;
    case svc_stufftext: case svc_centerprint: case svc_finale:
        m->u.text = read_string(r);
        break;
    case svc_updatestat:
        m->u.stat.stat = qw_read_byte(r);
        m->u.stat.value = qw_read_byte(r);
        break;
    case svc_updatestatlong:
        m->u.stat.stat = qw_read_byte(r);
        m->u.stat.value = qw_read_long(r);
        break;
    case svc_updatefrags: case svc_updateping:
        m->u.player.slot = qw_read_byte(r);
        m->u.player.value = qw_read_short(r);
        break;
    case svc_updatepl:
        m->u.player.slot = qw_read_byte(r);
        m->u.player.value = qw_read_byte(r);
        break;
    case svc_updateentertime:
        m->u.entertime.slot = qw_read_byte(r);
        m->u.entertime.seconds = qw_read_float(r);
        break;
    case svc_updateuserinfo:
        m->u.userinfo.slot = qw_read_byte(r);
        m->u.userinfo.userid = qw_read_long(r);
        m->u.userinfo.info = read_string(r);
        break;
    case svc_setinfo:
        m->u.setinfo.slot = qw_read_byte(r);
        m->u.setinfo.key = read_string(r);
        m->u.setinfo.value = read_string(r);
        break;
    case svc_serverinfo:
        m->u.serverinfo.key = read_string(r);
        m->u.serverinfo.value = read_string(r);
        break;
    case svc_lightstyle:
        m->u.lightstyle.style = qw_read_byte(r);
        m->u.lightstyle.map = read_string(r);
        break;
    case svc_soundlist: case svc_modellist:
        read_list(r, m);
        break;
    case svc_sound:
        read_sound(r, m);
        break;
    case svc_temp_entity:
        read_temp_entity(r, m);
        break;
    case svc_damage:
        m->u.damage.armor = qw_read_byte(r);
        m->u.damage.blood = qw_read_byte(r);
        read_coords(r, m->u.damage.from);
        break;
    case svc_download:
        m->u.download.size = qw_read_short(r);
        m->u.download.percent = qw_read_byte(r);
        m->u.download.data = NULL;
        if (!r->bad && m->u.download.size > 0)
            m->u.download.data = qw_read_ref(r, (size_t)m->u.download.size);
        break;
    case svc_spawnbaseline: {
        int number = qw_read_short(r);
        read_entity(r, &m->u.entity);
        m->u.entity.number = number;
        break;
    }
    case svc_spawnstatic:
        read_entity(r, &m->u.entity);
        break;
    case svc_playerinfo:
        if (!qw_playerinfo_read(r, &m->u.playerinfo))
            r->bad = true;
        break;
    case svc_packetentities: case svc_deltapacketentities:
        read_entities(r, m, m->id == svc_deltapacketentities);
        break;
    case svc_setangle:
        for (int i = 0; i < 3; i++)
            m->u.angles[i] = qw_read_angle8(r);
        break;
    case svc_maxspeed: case svc_entgravity:
        m->u.value = qw_read_float(r);
        break;
    case svc_setpause: case svc_cdtrack: case svc_chokecount:
        m->u.byte = qw_read_byte(r);
        break;
    case svc_nails: case svc_nails2:
        m->u.byte = qw_read_byte(r);
        if (!r->bad)
            qw_read_ref(r, (size_t)m->u.byte * (m->id == svc_nails ? 6 : 7));
        break;
    case svc_stopsound: case svc_muzzleflash:
        m->u.entity_number = qw_read_short(r);
        break;
    case svc_spawnstaticsound:
        read_coords(r, m->u.static_sound.origin);
        m->u.static_sound.sound = qw_read_byte(r);
        m->u.static_sound.volume = qw_read_byte(r);
        m->u.static_sound.attenuation = qw_read_byte(r);
        break;
    case svc_intermission:
        read_coords(r, m->u.intermission.origin);
        for (int i = 0; i < 3; i++)
            m->u.intermission.angles[i] = qw_read_angle8(r);
        break;
    default:
        return false;
    }
    return !r->bad;
}

qw_svc_result qw_svc_walk(qw_msgreader *r, qw_svc_handler fn, void *ctx, int *id)
{
    qw_svc m;
    if (id)
        *id = -1;
    while (!r->bad && qw_reader_remaining(r) > 0) {
        m.id = qw_read_byte(r);
        if (id)
            *id = m.id;
        if (!read_message(r, &m))
            return r->bad ? QW_SVC_BAD : QW_SVC_UNKNOWN;
        bool other_protocol = m.id == svc_serverdata &&
                              m.u.serverdata.protocol != QW_PROTOCOL_VERSION;
        if (!fn(ctx, &m))
            return QW_SVC_STOPPED;
        if (other_protocol)
            return QW_SVC_PROTOCOL;
    }
    if (id && !r->bad)
        *id = -1;
    return r->bad ? QW_SVC_BAD : QW_SVC_END;
}
