/* libFuzzer harness for everything that reads bytes from the network before the game sees
 * them: the netchan header, the client message parser, the string command tokenizer and
 * info strings. Built with clang -fsanitize=fuzzer,address (see tests.mk). */
#include <stdint.h>
#include <string.h>

#include "net/parse.h"
#include "net/tokenize.h"
#include "qw_info.h"
#include "qw_netchan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static qw_chktbl tbl; /* any table exercises the checksum path */
    static sv_parsed_message m;
    static qw_netchan nc;
    int32_t seq = size > 0 ? data[0] * 7 : 0;

    tbl.bytes[seq % 1024] = (uint8_t)size;
    sv_parse_client_message(data, size, size & 1 ? &tbl : NULL, seq, &m);
    if (!m.error)
        for (int i = 0; i < m.num_stringcmds; i++) {
            sv_args a;
            sv_tokenize(m.stringcmds[i], &a);
        }

    /* the same bytes as a whole packet, header included */
    qw_netchan_init(&nc, false, 0);
    nc.outgoing_sequence = 100;
    qw_msgreader payload;
    if (qw_netchan_process(&nc, data, size, 0.0, &payload, NULL))
        sv_parse_client_message(payload.data + payload.pos, qw_reader_remaining(&payload),
                                NULL, nc.incoming_sequence, &m);

    /* and as a connectionless line / userinfo */
    char text[1024];
    size_t n = size < sizeof text - 1 ? size : sizeof text - 1;
    memcpy(text, data, n);
    text[n] = 0;
    sv_args a;
    sv_tokenize(text, &a);
    qw_info_validate(text, QW_MAX_INFO_STRING);
    char value[64];
    qw_info_get(text, "name", value, sizeof value);
    char info[QW_MAX_INFO_STRING] = "\\name\\x";
    if (a.argc >= 2)
        qw_info_set(info, sizeof info, a.argv[0], a.argv[1]);
    return 0;
}
