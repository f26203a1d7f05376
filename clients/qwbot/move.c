/* clc_move and clc_delta (see move.h). */
#include "move.h"

#include "qw_protocol.h"

void qwbot_cmd_to_usercmd(const qwbot_cmd *in, qw_usercmd *out)
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

void qwbot_write_move(qw_sizebuf *sb, const qw_chktbl *tbl, int32_t sequence, int loss_percent,
                      const qwbot_cmd cmds[3])
{
    static const qw_usercmd nullcmd;
    qw_usercmd u[3];
    for (int i = 0; i < 3; i++)
        qwbot_cmd_to_usercmd(&cmds[i], &u[i]);

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

void qwbot_write_delta_request(qw_sizebuf *sb, int32_t valid_sequence)
{
    qw_write_byte(sb, clc_delta);
    qw_write_byte(sb, valid_sequence & 255);
}
