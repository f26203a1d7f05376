/* Vary lists and variant keys; see mem_vary.h. */
#include "mem_vary.h"

#include <stdlib.h>
#include <string.h>

#include <apr_lib.h>
#include <apr_strings.h>

typedef struct vary_names_scan {
    apr_pool_t *pool;
    apr_array_header_t *names;
    int star;
} vary_names_scan_t;

/* apr_table_do callback: the names of one Vary header, split at commas and white space. */
static int add_vary_names(void *opaque, const char *key, const char *value)
{
    (void)key;
    vary_names_scan_t *scan = opaque;
    const char *p = value;
    while (*p) {
        while (*p == ',' || apr_isspace(*p))
            p++;
        const char *start = p;
        while (*p && *p != ',' && !apr_isspace(*p))
            p++;
        if (p == start)
            continue;
        char *name = apr_pstrmemdup(scan->pool, start, (apr_size_t)(p - start));
        for (char *c = name; *c; c++)
            *c = (char)apr_tolower(*c);
        if (!strcmp(name, "*"))
            scan->star = 1;
        *(char **)apr_array_push(scan->names) = name;
    }
    return 1;
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

const char *mem_vary_names(apr_pool_t *pool, const apr_table_t *headers,
                           const apr_table_t *err_headers, int *star)
{
    vary_names_scan_t scan = {pool, apr_array_make(pool, 4, sizeof(char *)), 0};
    if (headers)
        apr_table_do(add_vary_names, &scan, headers, "Vary", NULL);
    if (err_headers)
        apr_table_do(add_vary_names, &scan, err_headers, "Vary", NULL);
    *star = scan.star;
    if (scan.names->nelts == 0)
        return NULL;
    /* Sorted and each once, so that "Vary: B, a" and "Vary: A" + "Vary: b, A" are one list. */
    char **names = (char **)scan.names->elts;
    qsort(names, (size_t)scan.names->nelts, sizeof(char *), compare_names);
    int kept = 0;
    for (int i = 0; i < scan.names->nelts; i++)
        if (kept == 0 || strcmp(names[kept - 1], names[i]))
            names[kept++] = names[i];
    scan.names->nelts = kept;
    return apr_array_pstrcat(pool, scan.names, ',');
}

const char *mem_vary_key(apr_pool_t *pool, const char *url_key, const char *names,
                         const apr_table_t *request_headers)
{
    char *list = apr_pstrdup(pool, names);
    const char *key = apr_pstrcat(pool, url_key, " {Vary", NULL);
    char *state;
    for (char *name = apr_strtok(list, ",", &state); name; name = apr_strtok(NULL, ",", &state)) {
        const char *value = apr_table_getm(pool, request_headers, name);
        key = value ? apr_psprintf(pool, "%s %s=%" APR_SIZE_T_FMT ":%s", key, name, strlen(value), value)
                    : apr_psprintf(pool, "%s %s=-", key, name);
    }
    return apr_pstrcat(pool, key, "}", NULL);
}

mem_object_t *mem_vary_list_create(const char *url_key, const char *names, const mem_sync_t *sync)
{
    size_t length = strlen(names);
    mem_object_t *list = mem_object_create(url_key, length + 1, sync);
    if (!list)
        return NULL;
    memcpy(list->body, names, length + 1);
    list->body_length = length;
    list->size = length; /* charged to MCacheSize like a body */
    list->kind = MEM_OBJECT_VARY_LIST;
    list->complete = 1;
    cache_key_init(&list->vary_names, list->body);
    return list;
}
