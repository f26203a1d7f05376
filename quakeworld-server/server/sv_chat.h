/* Chat lines (a player's "say", the console's "say"): one format for both. */
#ifndef SV_CHAT_H
#define SV_CHAT_H

#include <stddef.h>

/* Writes "SPEAKER: MESSAGE\n" into out: the message without the quotes a client sends
 * around it, cut at max_len characters, control characters blanked (they would restyle
 * the receivers' consoles). */
void sv_chat_line(char *out, size_t size, const char *speaker, const char *message,
                  size_t max_len);

#endif
