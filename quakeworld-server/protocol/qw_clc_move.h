/* A client's moves as it sends them (qwbot, and qwsv's replayed clients): the unreliable part
 * of its packet -- clc_move (checksum byte, loss byte, the three latest usercmds delta-coded
 * oldest first) and optionally clc_delta -- view angles in the wire's 16-bit units, and the
 * aim that turns a replayed move toward an opponent (-aim). */
#ifndef QW_CLC_MOVE_H
#define QW_CLC_MOVE_H

#include <stdint.h>

#include "qw_crc.h"
#include "qw_msg.h"
#include "qw_usercmd.h"
#include "qw_recording.h"

/* Wire-exact conversion (16-bit angle units survive the float round trip unchanged). */
void qw_rec_cmd_to_usercmd(const qw_rec_cmd *in, qw_usercmd *out);

/* Writes clc_move with cmds[0] (oldest), cmds[1], cmds[2] (newest) for the packet that will
 * carry netchan sequence `sequence`. tbl NULL writes checksum 0 (servers that verify it then
 * ignore the move). */
void qw_clc_write_move(qw_sizebuf *sb, const qw_chktbl *tbl, int32_t sequence, int loss_percent,
                       const qw_rec_cmd cmds[3]);

/* Writes clc_delta asking for entities coded against the frame with this sequence. */
void qw_clc_write_delta(qw_sizebuf *sb, int32_t valid_sequence);

/* Degrees to 16-bit wire angle units (rounded, any number of turns). */
uint16_t qw_angle_to_wire(double degrees);
/* Yaw and pitch in degrees from the gun of a player standing at `from` (16 units above its
 * origin) to `to`. */
void qw_aim_degrees(const float from[3], const float to[3], float *yaw, float *pitch);

#endif
