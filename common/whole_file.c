/* Reading a whole file (whole_file.h): in growing blocks, since a pipe or /proc file has no
 * size to ask for first. */
#include "whole_file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool whole_file_read(const char *path, size_t limit, const char *too_large, uint8_t **data,
                     size_t *len, char *err, size_t errlen)
{
    *data = NULL;
    *len = 0;
    FILE *f = fopen(path, "rb");
    if (!f) {
        if (err)
            snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        return false;
    }
    uint8_t *buf = NULL;
    size_t size = 0, cap = 0;
    const char *why = NULL;
    for (;;) {
        if (size == cap) {
            if (cap > limit) {
                why = too_large;
                break;
            }
            cap = cap ? cap * 2 : 65536;
            if (cap > limit + 1) /* one byte more than the limit tells a larger file */
                cap = limit + 1;
            uint8_t *more = realloc(buf, cap);
            if (!more) {
                why = "out of memory";
                break;
            }
            buf = more;
        }
        size_t n = fread(buf + size, 1, cap - size, f);
        size += n;
        if (n == 0)
            break;
    }
    if (!why && ferror(f))
        why = "read error";
    fclose(f);
    if (why) {
        if (err)
            snprintf(err, errlen, "%s: %s", path, why);
        free(buf);
        return false;
    }
    *data = buf;
    *len = size;
    return true;
}
