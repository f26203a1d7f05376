/* Parsing of one client message (the payload after the netchan header) into a checked,
 * self-contained description, before anything is executed. This is the fuzzing target:
 * it never trusts a length, a count or a string from the wire. */
#ifndef SV_NET_PARSE_H
#define SV_NET_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "qw_crc.h"
#include "qw_protocol.h"
#include "qw_usercmd.h"

#define SV_MAX_STRINGCMDS 8

typedef struct sv_parsed_message {
    bool has_move;
    bool move_checksum_ok;       /* true when verified or when no table is loaded */
    int move_loss;               /* the client's packet-loss byte */
    qw_usercmd cmds[3];          /* oldest, older, newest */
    int delta_sequence;          /* clc_delta byte, -1 = absent */
    int num_stringcmds;
    char stringcmds[SV_MAX_STRINGCMDS][QW_MAX_STRINGCMD];
    const char *error;           /* NULL when the message is valid */
} sv_parsed_message;

/* Parses msg[0..len). `chktbl` (may be NULL = do not verify) and `sequence` (the netchan
 * sequence of the packet) check the clc_move checksum byte. Returns false with out->error
 * set for malformed input: truncation, a second clc_move, too many/too long strings,
 * unknown or unsupported message ids. */
bool sv_parse_client_message(const uint8_t *msg, size_t len, const qw_chktbl *chktbl,
                             int32_t sequence, sv_parsed_message *out);

#endif
