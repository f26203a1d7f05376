/* A growable little-endian byte buffer for writing BSP lumps (internal to qwmapgen). */
#ifndef QWMG_BYTEBUF_H
#define QWMG_BYTEBUF_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct mg_buf {
    uint8_t *data;
    size_t len, cap;
    int oom;                   /* set once an allocation failed; later writes are dropped */
} mg_buf;

static inline void mg_buf_put(mg_buf *b, const void *src, size_t n)
{
    if (b->oom)
        return;
    if (b->len + n > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->len + n)
            cap *= 2;
        uint8_t *p = realloc(b->data, cap);
        if (!p) {
            b->oom = 1;
            return;
        }
        b->data = p;
        b->cap = cap;
    }
    memcpy(b->data + b->len, src, n);
    b->len += n;
}

static inline void mg_buf_u8(mg_buf *b, unsigned v)
{
    uint8_t x = (uint8_t)v;
    mg_buf_put(b, &x, 1);
}

static inline void mg_buf_i16(mg_buf *b, int v)
{
    uint8_t x[2] = {(uint8_t)v, (uint8_t)((unsigned)v >> 8)};
    mg_buf_put(b, x, 2);
}

static inline void mg_buf_i32(mg_buf *b, int32_t v)
{
    uint32_t u = (uint32_t)v;
    uint8_t x[4] = {(uint8_t)u, (uint8_t)(u >> 8), (uint8_t)(u >> 16), (uint8_t)(u >> 24)};
    mg_buf_put(b, x, 4);
}

static inline void mg_buf_f32(mg_buf *b, float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    mg_buf_i32(b, (int32_t)u);
}

static inline void mg_buf_free(mg_buf *b)
{
    free(b->data);
    b->data = NULL;
    b->len = b->cap = 0;
}

#endif
