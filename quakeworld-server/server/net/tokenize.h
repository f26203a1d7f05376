/* Splitting console-style command lines into words (quoted strings are one word,
 * "//" starts a comment), bounded in count and length. */
#ifndef SV_NET_TOKENIZE_H
#define SV_NET_TOKENIZE_H

#include <stdbool.h>

#define SV_MAX_ARGS 16
#define SV_MAX_ARG_LEN 256

typedef struct sv_args {
    int argc;
    char argv[SV_MAX_ARGS][SV_MAX_ARG_LEN];
    const char *rest;   /* the text after the first word (leading blanks skipped) */
} sv_args;

/* False (with argc = 0) for lines with too many or too long words. */
bool sv_tokenize(const char *line, sv_args *a);
/* argv[i] or "" when out of range. */
const char *sv_arg(const sv_args *a, int i);

#endif
