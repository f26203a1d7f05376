/* The global state buffer (see net/events.h). */
#include "net/events.h"

#include "sched/job_plan.h"
#include "sync/region.h"

/* The parts of a frame's buffer in use: one per thread (see server.h). */
static int parts(void)
{
    return sv.opt.threads > 1 ? sv.opt.threads : 1;
}

void sv_events_begin_frame(void)
{
    for (int t = 0; t < parts(); t++) {
        sv_event_frame *ev = &sv.events[sv.framenum % SV_EVENT_FRAMES][t];
        ev->frame = sv.framenum;
        ev->count = 0;
        qw_sizebuf_init(&ev->buf, ev->data, sizeof ev->data);
    }
}

/* The room an event's message needs: its longest form (a sound) is 10 bytes. */
#define EVENT_ROOM 16

/* Starts an event at `origin` in the current frame (the buffer's lock held in -sync region);
 * NULL when the frame is full. */
LIBTM_SAFE static sv_event_frame *event_begin(const float origin[3], sv_event_reach reach)
{
    /* a job of -sched lpt writes its worker's part: no other thread writes there in RP */
    int part = sv_in_job() ? sv_thread_index : 0;
    sv_event_frame *ev = &sv.events[sv.framenum % SV_EVENT_FRAMES][part];
    if (ev->count == SV_FRAME_EVENTS || qw_sizebuf_free_space(&ev->buf) < EVENT_ROOM)
        return NULL;
    /* the leaf lookup is pure: it gets a private copy of the (maybe shared) origin */
    float at[3] = {origin[0], origin[1], origin[2]};
    sv_event *e = &ev->events[ev->count];
    e->offset = (uint16_t)ev->buf.cursize;
    e->leaf = qw_bsp_leaf_for_point(sv.bsp, at);
    e->reach = (uint8_t)reach;
    return ev;
}

LIBTM_SAFE static void event_end(sv_event_frame *ev)
{
    sv_event *e = &ev->events[ev->count++];
    e->len = (uint16_t)(ev->buf.cursize - e->offset);
}

LIBTM_SAFE void sv_event_temp_entity(int type, const float origin[3])
{
    sv_region_lock_events();
    bool seen = type == TE_GUNSHOT || type == TE_BLOOD;
    sv_event_frame *ev = event_begin(origin, seen ? EVENT_SEEN : EVENT_HEARD);
    if (ev) {
        qw_write_byte(&ev->buf, svc_temp_entity);
        qw_write_byte(&ev->buf, type);
        if (seen)
            qw_write_byte(&ev->buf, 1);
        for (int i = 0; i < 3; i++)
            qw_write_coord(&ev->buf, origin[i]);
        event_end(ev);
    }
    sv_region_unlock_events();
}

LIBTM_SAFE void sv_event_sound(int entnum, int channel, int sound, const float origin[3])
{
    if (sound <= 0)
        return;
    sv_region_lock_events();
    sv_event_frame *ev = event_begin(origin, EVENT_HEARD);
    if (ev) {
        qw_write_byte(&ev->buf, svc_sound);
        qw_write_short(&ev->buf, ((entnum & 0x7ff) << 3) | (channel & 7));
        qw_write_byte(&ev->buf, sound);
        for (int i = 0; i < 3; i++)
            qw_write_coord(&ev->buf, origin[i]);
        event_end(ev);
    }
    sv_region_unlock_events();
}

/* Whether a client in `leaf` receives event e (a client inside a wall gets everything). */
static bool reaches(const sv_event *e, int leaf)
{
    if (leaf <= 0)
        return true;
    const uint8_t *row = e->reach == EVENT_HEARD ? qw_phs_row(sv.pvs, e->leaf)
                                                  : qw_pvs_row(sv.pvs, e->leaf);
    return qw_pvs_row_has(row, leaf - 1);
}

void sv_events_copy_for(const float origin[3], unsigned *last_frame, qw_sizebuf *out)
{
    unsigned first = *last_frame + 1;
    if (sv.framenum - first >= SV_EVENT_FRAMES)
        first = sv.framenum - SV_EVENT_FRAMES + 1;
    int leaf = qw_bsp_leaf_for_point(sv.bsp, origin);
    for (unsigned f = first; f <= sv.framenum; f++) {
        for (int t = 0; t < parts(); t++) {
            const sv_event_frame *ev = &sv.events[f % SV_EVENT_FRAMES][t];
            if (ev->frame != f)
                continue;
            if (qw_sizebuf_free_space(out) < ev->buf.cursize)
                goto full;
            for (int i = 0; i < ev->count; i++)
                if (reaches(&ev->events[i], leaf))
                    qw_write_data(out, ev->data + ev->events[i].offset, ev->events[i].len);
        }
    }
full:
    *last_frame = sv.framenum;
}
