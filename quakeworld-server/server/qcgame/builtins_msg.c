/* The builtins that send: sounds, prints, stuffcmd, the Write* family and multicast, and the
 * sign-on's static entities and sounds.
 *
 * A QuakeC message is written a byte at a time (WriteByte (MSG_ALL, SVC_INTERMISSION);
 * WriteCoord (MSG_ALL, ...) ...), so each thread keeps one pending message per destination,
 * emptied when its chain starts (qcg_messages_begin, inside the section: a restart starts
 * empty) and sent when it ends (qcg_messages_flush, still inside it): MSG_ONE to msg_entity's
 * reliable queue, MSG_ALL to everybody's, MSG_BROADCAST and multicast() into the frame's
 * global state buffer for the clients in reach. MSG_INIT writes the sign-on (spawning only). */
#include <string.h>

#include "log.h"
#include "net/events.h"
#include "net/reliable.h"
#include "qcgame/qcg.h"
#include "qcgame/signon.h"

#define BUILTIN(name) QC_SAFE static qc_status name(qc_ctx *ctx)

enum { MSG_BROADCAST = 0, MSG_ONE = 1, MSG_ALL = 2, MSG_INIT = 3, MSG_MULTICAST = 4 };
enum { MULTICAST_ALL, MULTICAST_PHS, MULTICAST_PVS, MULTICAST_ALL_R, MULTICAST_PHS_R,
       MULTICAST_PVS_R };

typedef struct pending {
    int len;
    uint8_t data[QW_MAX_MSGLEN];
} pending;

static __thread pending msg_one, msg_all, msg_broadcast, msg_multicast;
static __thread int msg_one_client; /* the slot MSG_ONE writes to, -1: none yet */

/* Pure: the pending messages are the running chain's alone (this thread's), and this runs
 * first in every attempt of its section, so a restart starts empty whatever the last attempt
 * left; barriers here would only log what is reset anyway. */
LIBTM_PURE void qcg_messages_begin(void)
{
    msg_one.len = msg_all.len = msg_broadcast.len = msg_multicast.len = 0;
    msg_one_client = -1;
}

LIBTM_SAFE static bool flush_one(void)
{
    bool ok = true;
    if (msg_one.len && msg_one_client >= 0)
        ok = sv_reliable_write(&sv.clients[msg_one_client], msg_one.data, (size_t)msg_one.len);
    msg_one.len = 0;
    return ok;
}

LIBTM_SAFE bool qcg_messages_flush(void)
{
    static const float nowhere[3];
    bool ok = flush_one();
    if (msg_all.len)
        ok &= sv_reliable_broadcast(msg_all.data, (size_t)msg_all.len);
    if (msg_broadcast.len)
        sv_event_message(nowhere, EVENT_ALL, msg_broadcast.data, (size_t)msg_broadcast.len);
    msg_all.len = msg_broadcast.len = msg_multicast.len = 0;
    return ok;
}

/* The buffer `to` names (MSG_ONE: msg_entity's client's), or an error. */
LIBTM_SAFE static pending *destination(qc_ctx *ctx, int to, qc_status *st)
{
    *st = QC_OK;
    switch (to) {
    case MSG_BROADCAST: return &msg_broadcast;
    case MSG_ALL: return &msg_all;
    case MSG_MULTICAST: return &msg_multicast;
    case MSG_ONE: {
        int e = qc_ctx_get_int(ctx, QCG_SYS(msg_entity));
        if (!qcg_is_player(e)) {
            *st = qc_raise(ctx, QC_ERR_BUILTIN, "MSG_ONE to entity %d, not a client", e);
            return NULL;
        }
        if (e - 1 != msg_one_client) {
            if (!flush_one()) {
                *st = qc_raise(ctx, QC_ERR_BUILTIN, "reliable queue of client %d full", e - 1);
                return NULL;
            }
            msg_one_client = e - 1;
        }
        return &msg_one;
    }
    default:
        *st = qc_raise(ctx, QC_ERR_BUILTIN, "Write* to the bad destination %d", to);
        return NULL;
    }
}

/* Appends len bytes to destination `to`. */
LIBTM_SAFE static qc_status write_bytes(qc_ctx *ctx, int to, const uint8_t *bytes, int len)
{
    if (to == MSG_INIT) {
        if (!qcg.spawning)
            return qc_raise(ctx, QC_ERR_BUILTIN, "MSG_INIT after the map was spawned");
        qcg_signon_write(bytes, (size_t)len);
        return QC_OK;
    }
    qc_status st;
    pending *p = destination(ctx, to, &st);
    if (!p)
        return st;
    if (p->len + len > (int)sizeof p->data)
        return qc_raise(ctx, QC_ERR_BUILTIN, "message to destination %d overflowed", to);
    memcpy(p->data + p->len, bytes, (size_t)len); /* one barrier call, not one a byte */
    p->len += len;
    return QC_OK;
}

LIBTM_SAFE static qc_status write_sized(qc_ctx *ctx, int kind, float value)
{
    uint8_t buf[8];
    qw_sizebuf sb;
    qw_sizebuf_init(&sb, buf, sizeof buf);
    switch (kind) {
    case 0: qw_write_byte(&sb, (int)value); break;
    case 1: qw_write_char(&sb, (int)value); break;
    case 2: qw_write_short(&sb, (int)value); break;
    case 3: qw_write_long(&sb, (int32_t)value); break;
    case 4: qw_write_coord(&sb, value); break;
    default: qw_write_angle8(&sb, value); break;
    }
    return write_bytes(ctx, (int)qc_parm_float(ctx, 0), buf, (int)sb.cursize);
}

BUILTIN(bi_writebyte) { return write_sized(ctx, 0, qc_parm_float(ctx, 1)); }
BUILTIN(bi_writechar) { return write_sized(ctx, 1, qc_parm_float(ctx, 1)); }
BUILTIN(bi_writeshort) { return write_sized(ctx, 2, qc_parm_float(ctx, 1)); }
BUILTIN(bi_writelong) { return write_sized(ctx, 3, qc_parm_float(ctx, 1)); }
BUILTIN(bi_writecoord) { return write_sized(ctx, 4, qc_parm_float(ctx, 1)); }
BUILTIN(bi_writeangle) { return write_sized(ctx, 5, qc_parm_float(ctx, 1)); }
BUILTIN(bi_writeentity) { return write_sized(ctx, 2, (float)qc_parm_int(ctx, 1)); }

BUILTIN(bi_writestring)
{
    const char *s = qcg_string(qc_parm_int(ctx, 1));
    return write_bytes(ctx, (int)qc_parm_float(ctx, 0), (const uint8_t *)s,
                       (int)qw_strlen(s) + 1);
}

/* Whether a client standing at `origin` is in the PVS/PHS `row`. */
LIBTM_SAFE static bool client_reached(const uint8_t *row, const float origin[3])
{
    int leaf = qw_bsp_leaf_for_point(sv.bsp, origin);
    return !row || leaf <= 0 || qw_pvs_row_has(row, leaf - 1);
}

/* 82 multicast(where, set) */
BUILTIN(bi_multicast)
{
    float where[3];
    qc_parm_vector(ctx, 0, where);
    int set = (int)qc_parm_float(ctx, 1);
    if (!msg_multicast.len)
        return QC_OK;
    if (set < MULTICAST_ALL || set > MULTICAST_PVS_R)
        return qc_raise(ctx, QC_ERR_BUILTIN, "multicast to the bad set %d", set);
    if (set < MULTICAST_ALL_R) {
        int reach = set == MULTICAST_ALL ? EVENT_ALL : set == MULTICAST_PHS ? EVENT_HEARD
                                                                            : EVENT_SEEN;
        sv_event_message(where, reach, msg_multicast.data, (size_t)msg_multicast.len);
    } else {
        int leaf = qw_bsp_leaf_for_point(sv.bsp, where);
        const uint8_t *row = set == MULTICAST_ALL_R || leaf <= 0 ? NULL
                             : set == MULTICAST_PHS_R             ? qw_phs_row(sv.pvs, leaf)
                                                                  : qw_pvs_row(sv.pvs, leaf);
        for (int i = 0; i < QW_MAX_CLIENTS; i++) {
            sv_client *cl = &sv.clients[i];
            if (cl->state != CL_SPAWNED)
                continue;
            float origin[3] = {sv.players[i].origin[0], sv.players[i].origin[1],
                               sv.players[i].origin[2]};
            if (client_reached(row, origin))
                sv_reliable_write(cl, msg_multicast.data, (size_t)msg_multicast.len);
        }
    }
    msg_multicast.len = 0;
    return QC_OK;
}

/* 8 sound(e, chan, samp, vol, atten) */
BUILTIN(bi_sound)
{
    int e = qc_parm_int(ctx, 0);
    int channel = (int)qc_parm_float(ctx, 1);
    const char *sample = qcg_string(qc_parm_int(ctx, 2));
    int volume = (int)(qc_parm_float(ctx, 3) * 255);
    float attenuation = qc_parm_float(ctx, 4);
    if (e < 0 || e >= QCG_MAX_EDICTS || volume < 0 || volume > 255 || attenuation < 0 ||
        attenuation > 4 || channel < 0 || channel > 15)
        return qc_raise(ctx, QC_ERR_BUILTIN, "sound: bad entity, volume, attenuation or channel");
    int index = qcg_sound_index(sample);
    if (!index) {
        sv_log_deferred("qc: sound not precached: ", sample);
        return QC_OK;
    }
    float origin[3], mins[3], maxs[3];
    qcg_vec(e, qcg.f.origin, origin);
    qcg_vec(e, qcg.f.mins, mins);
    qcg_vec(e, qcg.f.maxs, maxs);
    for (int i = 0; i < 3; i++)
        origin[i] += (mins[i] + maxs[i]) * 0.5f;
    int word = (e << 3) | (channel & 7);
    if (volume != 255)
        word |= 1 << 15;
    if (attenuation != 1.0f)
        word |= 1 << 14;
    uint8_t buf[16];
    qw_sizebuf sb;
    qw_sizebuf_init(&sb, buf, sizeof buf);
    qw_write_byte(&sb, svc_sound);
    qw_write_short(&sb, word);
    if (volume != 255)
        qw_write_byte(&sb, volume);
    if (attenuation != 1.0f)
        qw_write_byte(&sb, (int)(attenuation * 64));
    qw_write_byte(&sb, index);
    for (int i = 0; i < 3; i++)
        qw_write_coord(&sb, origin[i]);
    sv_event_message(origin, attenuation ? EVENT_HEARD : EVENT_ALL, buf, sb.cursize);
    return QC_OK;
}

/* The client of entity parameter i, or NULL. */
LIBTM_SAFE static sv_client *client_parm(qc_ctx *ctx, int i)
{
    int e = qc_parm_int(ctx, i);
    if (!qcg_is_player(e) || sv.clients[e - 1].state < CL_CONNECTED)
        return NULL;
    return &sv.clients[e - 1];
}

/* 21 stuffcmd(client, s) */
BUILTIN(bi_stuffcmd)
{
    sv_client *cl = client_parm(ctx, 0);
    if (cl)
        sv_reliable_stufftext(cl, qcg_string(qc_parm_int(ctx, 1)));
    return QC_OK;
}

/* What bprint printed since the last newline, logged a line at a time (QuakeC prints an
 * obituary in pieces). Instrumented: a restarted transaction starts from its old value. */
static __thread char print_line[256];

LIBTM_SAFE static void log_print(const char *text)
{
    size_t len = qw_strlen(print_line);
    for (const char *p = text; *p; p++) {
        if (*p == '\n' || len == sizeof print_line - 1) {
            print_line[len] = 0;
            sv_log_deferred("qc: ", print_line);
            len = 0;
        } else {
            print_line[len++] = *p;
        }
    }
    print_line[len] = 0;
}

/* 23 bprint(level, s...) */
BUILTIN(bi_bprint)
{
    int level = (int)qc_parm_float(ctx, 0);
    const char *text = qc_varstring(ctx, 1);
    sv_broadcast_print(level, text);
    log_print(text);
    return QC_OK;
}

/* 24 sprint(client, level, s...) */
BUILTIN(bi_sprint)
{
    sv_client *cl = client_parm(ctx, 0);
    int level = (int)qc_parm_float(ctx, 1);
    if (cl)
        sv_reliable_print(cl, level, qc_varstring(ctx, 2));
    return QC_OK;
}

/* 73 centerprint(client, s...) */
BUILTIN(bi_centerprint)
{
    sv_client *cl = client_parm(ctx, 0);
    if (!cl)
        return QC_OK;
    uint8_t buf[QW_MAX_MSGLEN];
    qw_sizebuf sb;
    qw_sizebuf_init(&sb, buf, sizeof buf);
    qw_write_byte(&sb, svc_centerprint);
    qw_write_string(&sb, qc_varstring(ctx, 1));
    if (!sb.overflowed)
        sv_reliable_write(cl, buf, sb.cursize);
    return QC_OK;
}

/* 69 makestatic(e): into the sign-on, then freed */
BUILTIN(bi_makestatic)
{
    int e = qc_parm_int(ctx, 0);
    if (e < QCG_FIRST_NONPLAYER || e >= QCG_MAX_EDICTS)
        return qc_raise(ctx, QC_ERR_BUILTIN, "makestatic: bad entity %d", e);
    if (!qcg.spawning)
        return qc_raise(ctx, QC_ERR_BUILTIN, "makestatic after the map was spawned");
    QCG_FIELDS(f);
    uint8_t buf[32];
    qw_sizebuf sb;
    qw_sizebuf_init(&sb, buf, sizeof buf);
    qw_write_byte(&sb, svc_spawnstatic);
    qw_write_byte(&sb, qcg_model_index(qcg_string(qcg_int(e, f->model))));
    qw_write_byte(&sb, (int)qcg_float(e, f->frame));
    qw_write_byte(&sb, (int)qcg_float(e, f->colormap));
    qw_write_byte(&sb, (int)qcg_float(e, f->skin));
    for (int i = 0; i < 3; i++) {
        qw_write_coord(&sb, qcg_ed(e)[f->origin + i].f);
        qw_write_angle8(&sb, qcg_ed(e)[f->angles + i].f);
    }
    qcg_signon_write(buf, sb.cursize);
    qcg_edict_free(e);
    return QC_OK;
}

/* 74 ambientsound(pos, samp, vol, atten) */
BUILTIN(bi_ambientsound)
{
    float pos[3];
    qc_parm_vector(ctx, 0, pos);
    const char *sample = qcg_string(qc_parm_int(ctx, 1));
    int index = qcg_sound_index(sample);
    if (!index || !qcg.spawning)
        return QC_OK; /* the originals print "no precache" and go on */
    uint8_t buf[16];
    qw_sizebuf sb;
    qw_sizebuf_init(&sb, buf, sizeof buf);
    qw_write_byte(&sb, svc_spawnstaticsound);
    for (int i = 0; i < 3; i++)
        qw_write_coord(&sb, pos[i]);
    qw_write_byte(&sb, index);
    qw_write_byte(&sb, (int)(qc_parm_float(ctx, 2) * 255));
    qw_write_byte(&sb, (int)(qc_parm_float(ctx, 3) * 64));
    qcg_signon_write(buf, sb.cursize);
    return QC_OK;
}

/* This file's builtins (numbers and names as QuakeWorld's defs.qc), registered whole by
 * sv_qcgame_choose. */
const struct qc_builtin_def qcg_message_builtins[] = {
    { 8, "sound", "starts sound samp on e's channel chan (vol 0..1, attenuation): svc_sound to "
                  "the clients that can hear e (PHS)", .world = bi_sound },
    { 21, "stuffcmd", "sends s as svc_stufftext to a client's reliable channel",
      .world = bi_stuffcmd },
    { 23, "bprint", "prints the concatenated strings to every client at level",
      .world = bi_bprint },
    { 24, "sprint", "prints the concatenated strings to one client at level", .world = bi_sprint },
    { 52, "WriteByte", "appends to the message named by to (MSG_BROADCAST, MSG_ONE to "
                       "msg_entity, MSG_ALL, MSG_INIT, MSG_MULTICAST)", .world = bi_writebyte },
    { 53, "WriteChar", "as WriteByte, a signed byte", .world = bi_writechar },
    { 54, "WriteShort", "as WriteByte, 16 bits", .world = bi_writeshort },
    { 55, "WriteLong", "as WriteByte, 32 bits", .world = bi_writelong },
    { 56, "WriteCoord", "as WriteByte, a coordinate", .world = bi_writecoord },
    { 57, "WriteAngle", "as WriteByte, an angle", .world = bi_writeangle },
    { 58, "WriteString", "as WriteByte, a string", .world = bi_writestring },
    { 59, "WriteEntity", "as WriteByte, an entity number (16 bits)", .world = bi_writeentity },
    { 69, "makestatic", "writes e to the signon as a static entity and frees it",
      .world = bi_makestatic },
    { 73, "centerprint", "prints the concatenated strings in the middle of a client's screen",
      .world = bi_centerprint },
    { 74, "ambientsound", "adds a looping static sound at pos to the signon",
      .world = bi_ambientsound },
    { 82, "multicast", "sends the multicast message to the clients that see/hear where "
                       "(MULTICAST_ALL, _PHS, _PVS, and reliable _R variants)",
      .world = bi_multicast },
    { 0 }
};
