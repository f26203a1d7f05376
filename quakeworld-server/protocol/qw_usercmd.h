/* One frame of player input and its delta coding inside clc_move (and svc_playerinfo).
 * Delta = a bit byte (CM_* in qw_protocol.h), then only the changed fields in the order
 * angle1, angle2, angle3 (16-bit angles), forward, side, up (int16), buttons, impulse (bytes),
 * then msec (byte) always. */
#ifndef QW_USERCMD_H
#define QW_USERCMD_H

#include <stdint.h>
#include "qw_msg.h"

typedef struct qw_usercmd {
    uint8_t msec;          /* duration of this command in milliseconds */
    float angles[3];       /* view angles in degrees (pitch, yaw, roll) */
    int16_t forwardmove;
    int16_t sidemove;
    int16_t upmove;
    uint8_t buttons;       /* QW_BUTTON_* */
    uint8_t impulse;       /* weapon selection etc. */
} qw_usercmd;

/* Writes `to` coded against `from` (from = all zero for the first command of a move). */
LIBTM_SAFE void qw_usercmd_write_delta(qw_sizebuf *sb, const qw_usercmd *from,
                                       const qw_usercmd *to);
/* Reads a command coded against `from`; returns false (reader bad) on truncation. */
bool qw_usercmd_read_delta(qw_msgreader *r, const qw_usercmd *from, qw_usercmd *to);
/* Rounds angles to what the 16-bit wire format carries, so sender and receiver compare the
 * same values when deciding what changed. */
void qw_usercmd_quantize(qw_usercmd *cmd);

#endif
