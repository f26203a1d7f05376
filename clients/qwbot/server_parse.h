/* Reading what the server sends on the netchan (server_parse.c). */
#ifndef QWBOT_SERVER_PARSE_H
#define QWBOT_SERVER_PARSE_H

#include <stdbool.h>

#include "bot.h"
#include "qw_msg.h"

/* Parses one sequenced message from the server. Returns false if it stopped early at
 * something malformed or unknown (the rest of that packet is skipped). */
bool qwbot_parse_server_message(qwbot_bot *b, qw_msgreader *r);

#endif
