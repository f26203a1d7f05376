/* Client message parser (see net/parse.h). */
#include "net/parse.h"

#include "qw_msg.h"

static bool fail(sv_parsed_message *out, const char *why)
{
    out->error = why;
    return false;
}

bool sv_parse_client_message(const uint8_t *msg, size_t len, const qw_chktbl *chktbl,
                             int32_t sequence, sv_parsed_message *out)
{
    out->has_move = false;
    out->move_checksum_ok = true;
    out->move_loss = 0;
    out->delta_sequence = -1;
    out->num_stringcmds = 0;
    out->error = NULL;

    qw_msgreader r;
    qw_reader_init(&r, msg, len);
    while (qw_reader_remaining(&r) > 0) {
        int c = qw_read_byte(&r);
        switch (c) {
        case clc_nop:
            break;
        case clc_delta:
            out->delta_sequence = qw_read_byte(&r);
            if (r.bad)
                return fail(out, "truncated clc_delta");
            break;
        case clc_move: {
            if (out->has_move)
                return fail(out, "more than one clc_move in a packet");
            size_t checksum_pos = r.pos;
            int checksum = qw_read_byte(&r);
            out->move_loss = qw_read_byte(&r);
            static const qw_usercmd nullcmd;
            if (!qw_usercmd_read_delta(&r, &nullcmd, &out->cmds[0]) ||
                !qw_usercmd_read_delta(&r, &out->cmds[0], &out->cmds[1]) ||
                !qw_usercmd_read_delta(&r, &out->cmds[1], &out->cmds[2]))
                return fail(out, "truncated clc_move");
            if (chktbl && sequence >= 0) {
                uint8_t expect = qw_sequence_crc_byte(chktbl, msg + checksum_pos + 1,
                                                      r.pos - checksum_pos - 1, sequence);
                out->move_checksum_ok = expect == (uint8_t)checksum;
            }
            out->has_move = true;
            break;
        }
        case clc_stringcmd: {
            if (out->num_stringcmds == SV_MAX_STRINGCMDS)
                return fail(out, "too many string commands in one packet");
            char *s = out->stringcmds[out->num_stringcmds];
            qw_read_string(&r, s, QW_MAX_STRINGCMD);
            if (r.bad)
                return fail(out, "oversized or unterminated string command");
            out->num_stringcmds++;
            break;
        }
        case clc_tmove:
            return fail(out, "clc_tmove (spectator move) is not supported");
        case clc_upload:
            return fail(out, "clc_upload is not supported");
        default:
            return fail(out, r.bad ? "truncated message" : "unknown client message id");
        }
    }
    return true;
}
