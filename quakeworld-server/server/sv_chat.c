/* Chat lines (see sv_chat.h). */
#include "sv_chat.h"

#include <stdio.h>
#include <string.h>

void sv_chat_line(char *out, size_t size, const char *speaker, const char *message,
                  size_t max_len)
{
    size_t len = strlen(message);
    /* "say "text"" arrives with the quotes */
    if (len >= 2 && message[0] == '"' && message[len - 1] == '"') {
        message++;
        len -= 2;
    }
    if (len > max_len)
        len = max_len;
    snprintf(out, size, "%s: %.*s\n", speaker, (int)len, message);
    for (char *p = out; *p; p++)
        if ((unsigned char)*p < 32 && *p != '\n')
            *p = ' ';
}
