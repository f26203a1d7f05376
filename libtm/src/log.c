/* Growth of the per-thread logs. */
#include "log.h"
#include "fatal.h"

#include <stdlib.h>

void *tm_log_grow(struct tm_log *log, size_t bytes)
{
    size_t need = log->len + bytes;
    size_t cap = log->cap ? log->cap : 256;
    while (cap < need)
        cap *= 2;
    uint8_t *data = realloc(log->data, cap);
    if (!data)
        tm_fatal("out of memory growing a transaction log to %zu bytes", cap);
    log->data = data;
    log->cap = cap;
    void *p = log->data + log->len;
    log->len = need;
    return p;
}

void tm_log_release(struct tm_log *log)
{
    free(log->data);
    log->data = NULL;
    log->len = log->cap = 0;
}
