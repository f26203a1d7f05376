/* Which TM runtime the module's transactions run on, and what it needs.
 * The module is linked against libitm.so.1; the dynamic loader decides which one that is
 * (libtm through the module's RUNPATH, or GCC's libitm). libtm is recognised by its
 * counters entry: libtm_totals_read (LIBTM_1.1), or libtm_get_totals in older libtm. */
#ifndef MEMCACHE_MEM_RUNTIME_H
#define MEMCACHE_MEM_RUNTIME_H

#include <libtm.h>

#include <apr_pools.h>

typedef struct mem_runtime {
    const char *path;  /* file of the loaded libitm.so.1 ("unknown" if dladdr cannot tell) */
    int is_libtm;
} mem_runtime_t;

/* Identifies the runtime loaded into this process. */
void mem_runtime_identify(mem_runtime_t *out);
/* Process-wide transaction counters from libtm (zero where an older libtm has none); returns
 * 0, or -1 when the runtime is not libtm. */
int mem_runtime_totals(struct libtm_totals *out);

/* For tm mode on a runtime that is not libtm (GCC's libitm): GCC 12's default method loses
 * commit actions under concurrency, which the module relies on. Sets ITM_DEFAULT_METHOD=ml_wt
 * when it is unset (*note says so) and accepts the other fixed software methods; returns an
 * error message for any other value. Must run before the process's first transaction.
 * process_pool (server->process->pool) outlives httpd's configuration passes. */
const char *mem_runtime_require_safe_method(apr_pool_t *pool, apr_pool_t *process_pool,
                                            const char **note);

#endif
