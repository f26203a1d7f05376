/* The global state buffer (see sv_events.h). */
#include "sv_events.h"

#include "sv_region.h"

void sv_events_begin_frame(void)
{
    sv_event_frame *ev = &sv.events[sv.framenum % SV_EVENT_FRAMES];
    ev->frame = sv.framenum;
    qw_sizebuf_init(&ev->buf, ev->data, sizeof ev->data);
}

QW_TM_SAFE void sv_event_temp_entity(int type, const float origin[3])
{
    sv_event_frame *ev = &sv.events[sv.framenum % SV_EVENT_FRAMES];
    sv_region_lock_events();
    /* unreliable: events of an overfull frame are dropped */
    if (qw_sizebuf_free_space(&ev->buf) >= 16) {
        qw_write_byte(&ev->buf, svc_temp_entity);
        qw_write_byte(&ev->buf, type);
        if (type == TE_GUNSHOT || type == TE_BLOOD)
            qw_write_byte(&ev->buf, 1);
        for (int i = 0; i < 3; i++)
            qw_write_coord(&ev->buf, origin[i]);
    }
    sv_region_unlock_events();
}

QW_TM_SAFE void sv_event_sound(int entnum, int channel, int sound, const float origin[3])
{
    sv_event_frame *ev = &sv.events[sv.framenum % SV_EVENT_FRAMES];
    if (sound <= 0)
        return;
    sv_region_lock_events();
    if (qw_sizebuf_free_space(&ev->buf) >= 16) {
        qw_write_byte(&ev->buf, svc_sound);
        qw_write_short(&ev->buf, ((entnum & 0x7ff) << 3) | (channel & 7));
        qw_write_byte(&ev->buf, sound);
        for (int i = 0; i < 3; i++)
            qw_write_coord(&ev->buf, origin[i]);
    }
    sv_region_unlock_events();
}
