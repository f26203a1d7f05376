/* The mod_cache storage provider "mem" (its ten callbacks are in mem_provider.c). */
#ifndef MEMCACHE_MEM_PROVIDER_H
#define MEMCACHE_MEM_PROVIDER_H

#include <mod_cache.h>

extern const cache_provider mem_cache_provider;

#endif
