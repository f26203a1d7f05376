/* Parser for the entity lump: a sequence of { "key" "value" ... } blocks. Quoted tokens may
 * contain anything but a quote; // comments are skipped like the Quake tokenizer does. */
#include "bsp.h"

#include <stdio.h>
#include <string.h>

void qw_entity_iter_init(qw_entity_iter *it, const char *text)
{
    it->pos = text ? text : "";
    it->line = 1;
    it->index = 0;
    it->error[0] = '\0';
}

static void skip_space(qw_entity_iter *it)
{
    for (;;) {
        char c = *it->pos;
        if (c == '\n') {
            it->line++;
            it->pos++;
        } else if (c == ' ' || c == '\t' || c == '\r') {
            it->pos++;
        } else if (c == '/' && it->pos[1] == '/') {
            while (*it->pos && *it->pos != '\n')
                it->pos++;
        } else {
            return;
        }
    }
}

/* Reads a quoted string into dst (capacity cap). Returns 0, or -1 with it->error set. */
static int read_quoted(qw_entity_iter *it, char *dst, size_t cap, const char *what)
{
    skip_space(it);
    if (*it->pos != '"') {
        snprintf(it->error, sizeof it->error, "entity %d, line %d: expected a quoted %s, found %s",
                 it->index, it->line, what, *it->pos ? "another character" : "end of text");
        return -1;
    }
    it->pos++;
    size_t n = 0;
    while (*it->pos && *it->pos != '"') {
        if (*it->pos == '\n')
            it->line++;
        if (n + 1 >= cap) {
            snprintf(it->error, sizeof it->error, "entity %d, line %d: %s longer than %zu bytes",
                     it->index, it->line, what, cap - 1);
            return -1;
        }
        dst[n++] = *it->pos++;
    }
    if (*it->pos != '"') {
        snprintf(it->error, sizeof it->error, "entity %d, line %d: unterminated quoted %s",
                 it->index, it->line, what);
        return -1;
    }
    it->pos++;
    dst[n] = '\0';
    return 0;
}

int qw_entity_next(qw_entity_iter *it, qw_entity_fields *out)
{
    out->count = 0;
    skip_space(it);
    if (*it->pos == '\0')
        return 0;
    if (*it->pos != '{') {
        snprintf(it->error, sizeof it->error, "entity %d, line %d: expected '{' to open a block",
                 it->index, it->line);
        return -1;
    }
    it->pos++;
    for (;;) {
        skip_space(it);
        if (*it->pos == '}') {
            it->pos++;
            it->index++;
            return 1;
        }
        if (*it->pos == '\0') {
            snprintf(it->error, sizeof it->error, "entity %d, line %d: block not closed with '}'",
                     it->index, it->line);
            return -1;
        }
        if (out->count >= QW_ENTITY_MAX_FIELDS) {
            snprintf(it->error, sizeof it->error, "entity %d, line %d: more than %d fields",
                     it->index, it->line, QW_ENTITY_MAX_FIELDS);
            return -1;
        }
        int k = out->count;
        if (read_quoted(it, out->key[k], sizeof out->key[k], "key") < 0 ||
            read_quoted(it, out->value[k], sizeof out->value[k], "value") < 0)
            return -1;
        out->count++;
    }
}

const char *qw_entity_get(const qw_entity_fields *fields, const char *key)
{
    /* Last one wins, as when the game assigns fields in order. */
    for (int i = fields->count - 1; i >= 0; i--)
        if (strcmp(fields->key[i], key) == 0)
            return fields->value[i];
    return NULL;
}
