/* Command line tokenizer (see net/tokenize.h). */
#include "net/tokenize.h"

#include <string.h>

bool sv_tokenize(const char *line, sv_args *a)
{
    a->argc = 0;
    a->rest = "";
    const char *p = line;
    for (;;) {
        while (*p && (unsigned char)*p <= ' ' && *p != '\n')
            p++;
        if (!*p || *p == '\n' || (p[0] == '/' && p[1] == '/'))
            return true;
        if (a->argc == 1)
            a->rest = p;
        if (a->argc == SV_MAX_ARGS) {
            a->argc = 0;
            return false;
        }
        char *out = a->argv[a->argc];
        size_t n = 0;
        if (*p == '"') {
            p++;
            while (*p && *p != '"') {
                if (n + 1 >= SV_MAX_ARG_LEN) {
                    a->argc = 0;
                    return false;
                }
                out[n++] = *p++;
            }
            if (*p == '"')
                p++;
        } else {
            while ((unsigned char)*p > ' ') {
                if (n + 1 >= SV_MAX_ARG_LEN) {
                    a->argc = 0;
                    return false;
                }
                out[n++] = *p++;
            }
        }
        out[n] = 0;
        a->argc++;
    }
}

const char *sv_arg(const sv_args *a, int i)
{
    return i >= 0 && i < a->argc ? a->argv[i] : "";
}
