/* The loader's and the decoder's error messages, "NAME: message" (see qc_internal.h): one
 * file below both, which both call. */
#include <stdarg.h>
#include <stdio.h>

#include "qc_internal.h"

void qc_say(char *err, size_t errlen, const char *name, const char *fmt, ...)
{
    if (!err || errlen == 0)
        return;
    int n = snprintf(err, errlen, "%s: ", name);
    if (n < 0 || (size_t)n >= errlen)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
    va_end(ap);
}
