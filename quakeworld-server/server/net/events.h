/* The global state buffer: the frame's temp entities and sounds, written in U and inside
 * CS_MOVE_COMMAND in RP, multicast in S: each client gets the sounds and explosions whose
 * origin's PHS holds its leaf, and the gunshots and blood whose PVS does. The last
 * SV_EVENT_FRAMES frames are kept for clients that skipped a frame. */
#ifndef SV_NET_EVENTS_H
#define SV_NET_EVENTS_H

#include "server.h"

/* U (master): starts the current frame's buffer. */
void sv_events_begin_frame(void);
/* Unreliable: dropped when the frame's buffer is full. */
LIBTM_SAFE void sv_event_temp_entity(int type, const float origin[3]);
LIBTM_SAFE void sv_event_sound(int entnum, int channel, int sound, const float origin[3]);

/* S: appends to `out` the events of frames after `*last_frame` up to the current one that a
 * client standing at `origin` may receive (whole frames, as many as fit), and moves
 * *last_frame on. */
void sv_events_copy_for(const float origin[3], unsigned *last_frame, qw_sizebuf *out);

#endif
