/* The global state buffer: the frame's temp entities and sounds, written in U and inside
 * CS_MOVE_COMMAND in RP, multicast in S: each client gets the sounds and explosions whose
 * origin's PHS holds its leaf, and the gunshots and blood whose PVS does. The last
 * SV_EVENT_FRAMES frames are kept for clients that skipped a frame. */
#ifndef SV_NET_EVENTS_H
#define SV_NET_EVENTS_H

#include "server.h"

/* Whether each thread writes its own part of the frame's buffer in RP (set at start-up). The
 * C deathmatch keeps the paper's one shared buffer (its head is shared: part of what makes
 * move commands conflict); QuakeWorld's game makes several sounds and temp entities per
 * shot, and writes each thread's part (qcgame/). */
extern bool sv_events_per_thread;

/* U (master): starts the current frame's buffer. */
void sv_events_begin_frame(void);
/* Unreliable: dropped when the frame's buffer is full. */
LIBTM_SAFE void sv_event_temp_entity(int type, const float origin[3]);
LIBTM_SAFE void sv_event_sound(int entnum, int channel, int sound, const float origin[3]);
/* A message built by the caller (QuakeC's multicast and sounds), for the clients that
 * `reach` (sv_event_reach) from origin. False when the frame's buffer is full. */
LIBTM_SAFE bool sv_event_message(const float origin[3], int reach, const void *data, size_t len);

/* S: appends to `out` the events of frames after `*last_frame` up to the current one that a
 * client standing at `origin` may receive (whole frames, as many as fit), and moves
 * *last_frame on. */
void sv_events_copy_for(const float origin[3], unsigned *last_frame, qw_sizebuf *out);

#endif
