/* Responses that vary (a Vary header, RFC 7234 4.1), stored as mod_cache_disk stores them:
 * under the URL's key a vary list (the header names the response varies on), and each
 * variant under a key of its own, made of the URL's key and the values those headers have in
 * the request. A lookup finds the list under the URL's key, makes the variant key from the
 * request and looks that up. These functions do the private work outside critical sections:
 * the list from a response's headers, the variant key from a request's. */
#ifndef MEMCACHE_MEM_VARY_H
#define MEMCACHE_MEM_VARY_H

#include "mem_object.h"

#include <apr_pools.h>
#include <apr_tables.h>

/* The vary list of a response: the names of every Vary header of headers and err_headers
 * (either may be NULL), lower-cased, sorted and each once, joined by ","; NULL when the
 * response does not vary. *star is set when a name is "*" (a response that no later request
 * matches: never cached). */
const char *mem_vary_names(apr_pool_t *pool, const apr_table_t *headers,
                           const apr_table_t *err_headers, int *star);

/* The key of the variant that request_headers select among the responses to url_key that
 * vary on names (a mem_vary_names list): url_key, then " {Vary" and for each name
 * " name=LENGTH:VALUE" (its values in the request, joined by "," as mod_cache compares them)
 * or " name=-" (absent), then "}". Lengths make it unambiguous whatever the values hold. */
const char *mem_vary_key(apr_pool_t *pool, const char *url_key, const char *names,
                         const apr_table_t *request_headers);

/* A complete vary-list object (kind MEM_OBJECT_VARY_LIST) for url_key, holding names as its
 * body, with refcount 1 (the cache's once it is indexed); NULL when out of memory. */
mem_object_t *mem_vary_list_create(const char *url_key, const char *names, const mem_sync_t *sync);

#endif
