/* usercmd delta coding (see qw_usercmd.h). */
#include "qw_usercmd.h"

LIBTM_SAFE void qw_usercmd_write_delta(qw_sizebuf *sb, const qw_usercmd *from, const qw_usercmd *to)
{
    int bits = 0;
    if (to->angles[0] != from->angles[0])
        bits |= CM_ANGLE1;
    if (to->angles[1] != from->angles[1])
        bits |= CM_ANGLE2;
    if (to->angles[2] != from->angles[2])
        bits |= CM_ANGLE3;
    if (to->forwardmove != from->forwardmove)
        bits |= CM_FORWARD;
    if (to->sidemove != from->sidemove)
        bits |= CM_SIDE;
    if (to->upmove != from->upmove)
        bits |= CM_UP;
    if (to->buttons != from->buttons)
        bits |= CM_BUTTONS;
    if (to->impulse != from->impulse)
        bits |= CM_IMPULSE;

    qw_write_byte(sb, bits);
    if (bits & CM_ANGLE1)
        qw_write_angle16(sb, to->angles[0]);
    if (bits & CM_ANGLE2)
        qw_write_angle16(sb, to->angles[1]);
    if (bits & CM_ANGLE3)
        qw_write_angle16(sb, to->angles[2]);
    if (bits & CM_FORWARD)
        qw_write_short(sb, to->forwardmove);
    if (bits & CM_SIDE)
        qw_write_short(sb, to->sidemove);
    if (bits & CM_UP)
        qw_write_short(sb, to->upmove);
    if (bits & CM_BUTTONS)
        qw_write_byte(sb, to->buttons);
    if (bits & CM_IMPULSE)
        qw_write_byte(sb, to->impulse);
    qw_write_byte(sb, to->msec);
}

bool qw_usercmd_read_delta(qw_msgreader *r, const qw_usercmd *from, qw_usercmd *to)
{
    *to = *from;
    int bits = qw_read_byte(r);
    if (r->bad)
        return false;
    if (bits & CM_ANGLE1)
        to->angles[0] = qw_read_angle16(r);
    if (bits & CM_ANGLE2)
        to->angles[1] = qw_read_angle16(r);
    if (bits & CM_ANGLE3)
        to->angles[2] = qw_read_angle16(r);
    if (bits & CM_FORWARD)
        to->forwardmove = (int16_t)qw_read_short(r);
    if (bits & CM_SIDE)
        to->sidemove = (int16_t)qw_read_short(r);
    if (bits & CM_UP)
        to->upmove = (int16_t)qw_read_short(r);
    if (bits & CM_BUTTONS)
        to->buttons = (uint8_t)qw_read_byte(r);
    if (bits & CM_IMPULSE)
        to->impulse = (uint8_t)qw_read_byte(r);
    to->msec = (uint8_t)qw_read_byte(r);
    return !r->bad;
}

void qw_usercmd_quantize(qw_usercmd *cmd)
{
    for (int i = 0; i < 3; i++) {
        int16_t v = (int16_t)(((int)(cmd->angles[i] * 65536.0f / 360.0f)) & 65535);
        cmd->angles[i] = v * (360.0f / 65536.0f);
    }
}
