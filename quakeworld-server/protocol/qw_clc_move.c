/* A client's moves (see qw_clc_move.h). */
#include "qw_clc_move.h"

#include <math.h>

#include "qw_protocol.h"

void qw_rec_cmd_to_usercmd(const qw_rec_cmd *in, qw_usercmd *out)
{
    out->msec = in->msec;
    for (int i = 0; i < 3; i++)
        out->angles[i] = (float)(int16_t)in->angles[i] * (360.0f / 65536.0f);
    out->forwardmove = in->forwardmove;
    out->sidemove = in->sidemove;
    out->upmove = in->upmove;
    out->buttons = in->buttons;
    out->impulse = in->impulse;
}

void qw_clc_write_move(qw_sizebuf *sb, const qw_chktbl *tbl, int32_t sequence, int loss_percent,
                       const qw_rec_cmd cmds[3])
{
    static const qw_usercmd nullcmd;
    qw_usercmd u[3];
    for (int i = 0; i < 3; i++)
        qw_rec_cmd_to_usercmd(&cmds[i], &u[i]);

    qw_write_byte(sb, clc_move);
    size_t checksum_at = sb->cursize;
    qw_write_byte(sb, 0);
    qw_write_byte(sb, loss_percent < 0 ? 0 : loss_percent > 100 ? 100 : loss_percent);
    qw_usercmd_write_delta(sb, &nullcmd, &u[0]);
    qw_usercmd_write_delta(sb, &u[0], &u[1]);
    qw_usercmd_write_delta(sb, &u[1], &u[2]);
    if (sb->overflowed || !tbl)
        return;
    sb->data[checksum_at] = qw_sequence_crc_byte(tbl, sb->data + checksum_at + 1,
                                                 sb->cursize - checksum_at - 1, sequence);
}

void qw_clc_write_delta(qw_sizebuf *sb, int32_t valid_sequence)
{
    qw_write_byte(sb, clc_delta);
    qw_write_byte(sb, valid_sequence & 255);
}

uint16_t qw_angle_to_wire(double degrees)
{
    double turns = fmod(degrees, 360.0);
    if (turns < 0)
        turns += 360.0;
    return (uint16_t)((long)lrint(turns * 65536.0 / 360.0) & 0xffff);
}

void qw_aim_degrees(const float from[3], const float to[3], float *yaw, float *pitch)
{
    const float pi = 3.14159265f;
    float dx = to[0] - from[0], dy = to[1] - from[1];
    float dz = to[2] - (from[2] + 16);
    *yaw = atan2f(dy, dx) * 180.0f / pi;
    *pitch = -atan2f(dz, sqrtf(dx * dx + dy * dy)) * 180.0f / pi;
}
