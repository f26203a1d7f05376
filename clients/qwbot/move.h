/* The unreliable part of a bot packet: clc_move (checksum byte, loss byte, the three latest
 * usercmds delta-coded oldest first) and optionally clc_delta. */
#ifndef QWBOT_MOVE_H
#define QWBOT_MOVE_H

#include <stdint.h>

#include "qw_crc.h"
#include "qw_msg.h"
#include "qw_usercmd.h"
#include "recording.h"

/* Wire-exact conversion (16-bit angle units survive the float round trip unchanged). */
void qwbot_cmd_to_usercmd(const qwbot_cmd *in, qw_usercmd *out);

/* Writes clc_move with cmds[0] (oldest), cmds[1], cmds[2] (newest) for the packet that will
 * carry netchan sequence `sequence`. tbl NULL writes checksum 0 (servers that verify it then
 * ignore the move). */
void qwbot_write_move(qw_sizebuf *sb, const qw_chktbl *tbl, int32_t sequence, int loss_percent,
                      const qwbot_cmd cmds[3]);

/* Writes clc_delta asking for entities coded against the frame with this sequence. */
void qwbot_write_delta_request(qw_sizebuf *sb, int32_t valid_sequence);

#endif
