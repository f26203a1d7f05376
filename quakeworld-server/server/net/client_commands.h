/* String commands from clients (RP, run by the client's worker), and the format of a chat
 * line, which the console's "say" shares with a player's. */
#ifndef SV_NET_CLIENT_COMMANDS_H
#define SV_NET_CLIENT_COMMANDS_H

#include <stddef.h>

#include "server.h"

/* Tokenizes and runs one string command (sign-on, chat, setinfo, downloads, drop, ...). */
void sv_execute_stringcmd(sv_client *cl, const char *text);

/* Writes "SPEAKER: MESSAGE\n" into out: the message without the quotes a client sends
 * around it, cut at max_len characters, control characters blanked (they would restyle
 * the receivers' consoles). */
void sv_chat_line(char *out, size_t size, const char *speaker, const char *message,
                  size_t max_len);

#endif
