/* One cached response: body buffer, flattened header tables, cache_info, and the
 * reference count that keeps it alive while requests still send its body.
 * Reference protocol (2.2's): the creating request holds 1, the cache holds 1 while the
 * object is indexed, each request that hit it holds 1; references are dropped inside
 * critical sections, and whoever drops the last one schedules the destruction with
 * mem_sync_defer (after commit in tm mode). */
#ifndef MEMCACHE_MEM_OBJECT_H
#define MEMCACHE_MEM_OBJECT_H

#include "cache_cache.h"
#include "mem_sync.h"

#include <httpd.h>
#include <mod_cache.h>

/* What a stored response has besides its body, in one block that never changes once
 * published (a revalidation publishes a new one), so that a hit takes only its pointer
 * inside the critical section and reads it outside: the cache_info and the request and
 * response header tables flattened as "name\0value\0" pairs, request headers first. */
typedef struct mem_head {
    struct mem_head *retired_next; /* older versions kept until the object dies */
    cache_info info;
    size_t request_count;
    size_t response_count;
    char data[];
} mem_head_t;

typedef enum {
    MEM_OBJECT_RESPONSE, /* a stored response (of a URL, or a variant of one that varies) */
    MEM_OBJECT_VARY_LIST /* under a URL's key: the header names its responses vary on */
} mem_object_kind_t;

typedef struct mem_object {
    cache_entry_meta_t meta;
    const mem_sync_t *sync; /* of the cache the object belongs to */
    cache_key_t key;        /* text malloc'ed by the object, hash computed at creation */
    mem_object_kind_t kind;
    /* A variant: the vary list indexed under its URL's key when it was stored, with a
     * reference. The variant is served only while that list is still the one indexed (a list
     * replaced or evicted takes its variants' visibility with it). NULL otherwise. */
    struct mem_object *vary_list;
    cache_key_t vary_names; /* a vary list: its names (the body), to compare lists */
    size_t size;          /* bytes charged to the cache: the body length, 0 while streaming */
    int refcount;
    int complete;         /* the whole body is stored; readers ignore incomplete objects */
    /* invalidate_entity was called. Kept apart from info.control.invalidated because GCC 12
     * miscompiles bit-field stores inside transactions (the instrumented path stores the
     * constant 1 into the byte instead of setting the bit). */
    int invalidated;
    mem_head_t *head;          /* NULL until store_headers */
    mem_head_t *retired_heads; /* replaced by revalidations, still read by older hits */
    char *body;
    size_t body_length;
    size_t body_capacity;
} mem_object_t;

/* Allocates an object of the cache synchronised by sync, with refcount 1 (the creator's)
 * and an empty body of capacity bytes; NULL when out of memory. */
mem_object_t *mem_object_create(const char *key, size_t capacity, const mem_sync_t *sync);
/* Frees everything (not transaction-safe: called after commit or under the lock). */
void mem_object_destroy(void *object);
/* Drops one reference; the last one schedules mem_object_destroy and drops the variant's
 * reference to its vary list. */
LIBTM_SAFE void mem_object_release(mem_object_t *object);

/* Copies info and flattens the two tables (either may be NULL) into a malloc'ed block; NULL
 * if out of memory. */
mem_head_t *mem_head_build(const cache_info *info, const apr_table_t *request_headers,
                           const apr_table_t *response_headers);
/* Rebuilds the tables in pool (empty ones for a NULL head); the strings stay in the block
 * (alive while a reference to the object is held). */
void mem_head_unpack(const mem_head_t *head, apr_pool_t *pool, apr_table_t **request_headers,
                     apr_table_t **response_headers);

/* The callbacks through which cache_cache manages mem_object_t entries. */
extern const cache_entry_ops_t mem_object_cache_ops;

#endif
