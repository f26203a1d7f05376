/* Growable per-thread logs (read log, write-lock log, undo log, actions, allocations,
 * checkpoints). One allocation that doubles; entries are appended and truncated, never freed
 * one by one, so a log's capacity is reused by every later transaction of the thread. */
#ifndef LIBTM_LOG_H
#define LIBTM_LOG_H

#include <stddef.h>
#include <stdint.h>

struct tm_log {
    uint8_t *data;
    size_t len; /* bytes in use */
    size_t cap; /* bytes allocated */
};

void *tm_log_grow(struct tm_log *log, size_t bytes);
void tm_log_release(struct tm_log *log);

/* Appends room for `bytes` bytes and returns it. */
static inline void *tm_log_append(struct tm_log *log, size_t bytes)
{
    if (__builtin_expect(log->len + bytes > log->cap, 0))
        return tm_log_grow(log, bytes);
    void *p = log->data + log->len;
    log->len += bytes;
    return p;
}

#define TM_LOG_PUSH(log, type) ((type *)tm_log_append((log), sizeof(type)))
#define TM_LOG_COUNT(log, type) ((log)->len / sizeof(type))
#define TM_LOG_AT(log, type, i) (&((type *)(log)->data)[i])

#endif
