/* Directive values and the per-process cache shared by the module's files. */
#ifndef MEMCACHE_MEM_CONFIG_H
#define MEMCACHE_MEM_CONFIG_H

#include "cache_cache.h"

#include <httpd.h>
#include <http_config.h>
#include <mod_cache.h>

typedef struct mem_cache_config {
    apr_size_t max_cache_bytes;      /* MCacheSize, given in KBytes */
    apr_size_t max_object_count;     /* MCacheMaxObjectCount */
    apr_size_t min_object_size;      /* MCacheMinObjectSize */
    apr_size_t max_object_size;      /* MCacheMaxObjectSize */
    apr_size_t max_streaming_buffer; /* MCacheMaxStreamingBuffer (clamped to max_object_size) */
    cache_policy_t policy;           /* MCacheRemovalAlgorithm */
    int use_tm;                      /* MCacheSync */
} mem_cache_config_t;

/* Process-wide state: the configuration in force and the cache of this child process. */
extern mem_cache_config_t *mem_config;
extern cache_cache_t *mem_cache;

extern module AP_MODULE_DECLARE_DATA mem_cache_module;
extern const cache_provider mem_cache_provider;

#endif
