/* The global state buffer: the frame's temp entities and sounds, written in U and inside
 * CS_MOVE_COMMAND in RP, copied into every client's reply in S. The last SV_EVENT_FRAMES
 * frames are kept for clients that skipped a frame. */
#ifndef SV_EVENTS_H
#define SV_EVENTS_H

#include "server.h"

/* U (master): starts the current frame's buffer. */
void sv_events_begin_frame(void);
/* Unreliable: dropped when the frame's buffer is full. */
QW_TM_SAFE void sv_event_temp_entity(int type, const float origin[3]);
QW_TM_SAFE void sv_event_sound(int entnum, int channel, int sound, const float origin[3]);

#endif
