/* Cached objects: creation, release by reference count, destruction, and the head block
 * (cache_info + flattened header tables) built at store_headers and unpacked at a hit; see
 * mem_object.h. */
#include "mem_object.h"
#include "mem_body.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <apr_tables.h>

mem_object_t *mem_object_create(const char *key, size_t capacity, const mem_sync_t *sync)
{
    mem_object_t *object = calloc(1, sizeof(*object));
    if (!object)
        return NULL;
    object->sync = sync;
    char *text = strdup(key);
    object->body_capacity = capacity ? capacity : 1;
    object->body = mem_body_alloc(object->body_capacity);
    if (!text || !object->body) {
        free(text);
        mem_object_destroy(object);
        return NULL;
    }
    cache_key_init(&object->key, text);
    object->refcount = 1;
    return object;
}

void mem_object_destroy(void *opaque)
{
    mem_object_t *object = opaque;
    mem_head_t *head = object->retired_heads;
    while (head) {
        mem_head_t *next = head->retired_next;
        free(head);
        head = next;
    }
    free(object->head);
    mem_body_free(object->body, object->body_capacity);
    free((char *)object->key.text);
    free(object);
}

LIBTM_SAFE void mem_object_release(mem_object_t *object)
{
    if (--object->refcount != 0)
        return;
    mem_object_t *list = object->vary_list;
    object->vary_list = NULL;
    mem_sync_defer(object->sync, mem_object_destroy, object);
    if (list)
        mem_object_release(list);
}

static size_t table_bytes(const apr_table_t *table, size_t *count)
{
    size_t bytes = 0;
    *count = 0;
    if (!table)
        return 0;
    const apr_array_header_t *array = apr_table_elts(table);
    const apr_table_entry_t *entries = (const apr_table_entry_t *)array->elts;
    for (int i = 0; i < array->nelts; i++) {
        if (!entries[i].key)
            continue;
        bytes += strlen(entries[i].key) + 1 + strlen(entries[i].val ? entries[i].val : "") + 1;
        (*count)++;
    }
    return bytes;
}

static char *copy_table(const apr_table_t *table, char *out)
{
    if (!table)
        return out;
    const apr_array_header_t *array = apr_table_elts(table);
    const apr_table_entry_t *entries = (const apr_table_entry_t *)array->elts;
    for (int i = 0; i < array->nelts; i++) {
        if (!entries[i].key)
            continue;
        const char *value = entries[i].val ? entries[i].val : "";
        size_t key_length = strlen(entries[i].key) + 1, value_length = strlen(value) + 1;
        memcpy(out, entries[i].key, key_length);
        out += key_length;
        memcpy(out, value, value_length);
        out += value_length;
    }
    return out;
}

mem_head_t *mem_head_build(const cache_info *info, const apr_table_t *request_headers,
                           const apr_table_t *response_headers)
{
    size_t request_count, response_count;
    size_t bytes = table_bytes(request_headers, &request_count) +
                   table_bytes(response_headers, &response_count);
    mem_head_t *head = malloc(sizeof(*head) + bytes);
    if (!head)
        return NULL;
    head->retired_next = NULL;
    head->info = *info;
    head->request_count = request_count;
    head->response_count = response_count;
    copy_table(response_headers, copy_table(request_headers, head->data));
    return head;
}

static const char *unpack_table(const char *in, size_t count, apr_pool_t *pool, apr_table_t **table)
{
    *table = apr_table_make(pool, (int)count + 4);
    for (size_t i = 0; i < count; i++) {
        const char *key = in;
        in += strlen(in) + 1;
        const char *value = in;
        in += strlen(in) + 1;
        apr_table_addn(*table, key, value);
    }
    return in;
}

void mem_head_unpack(const mem_head_t *head, apr_pool_t *pool, apr_table_t **request_headers,
                     apr_table_t **response_headers)
{
    if (!head) {
        *request_headers = apr_table_make(pool, 4);
        *response_headers = apr_table_make(pool, 4);
        return;
    }
    const char *rest = unpack_table(head->data, head->request_count, pool, request_headers);
    unpack_table(rest, head->response_count, pool, response_headers);
}

LIBTM_SAFE static const cache_key_t *object_key(void *entry)
{
    return &((mem_object_t *)entry)->key;
}

LIBTM_SAFE static size_t object_size(void *entry)
{
    return ((mem_object_t *)entry)->size;
}

LIBTM_SAFE static void object_release(void *entry)
{
    mem_object_release(entry);
}

const cache_entry_ops_t mem_object_cache_ops = {
    .meta_offset = offsetof(mem_object_t, meta),
    .key = object_key,
    .size = object_size,
    .release = object_release,
};
