/* The module's section of mod_status's /server-status page (and of its ?auto form), like
 * mod_cache_socache's: per cache the objects, bytes, hits, misses, stores and evictions, and
 * for tm mode the TM runtime's transaction counters. Caches live in each child process, so
 * the numbers are those of the child that serves the status request (its pid is shown). */
#include "mem_status.h"
#include "mem_config.h"
#include "mem_instance.h"
#include "mem_runtime.h"

#include <inttypes.h>
#include <unistd.h>

#include <apr_strings.h>
#include <http_protocol.h>
#include <mod_status.h>

static double percent(apr_uint64_t part, apr_uint64_t whole)
{
    return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

static void report_instance_short(request_rec *r, const char *prefix, mem_instance_t *instance,
                                  const mem_instance_snapshot_t *s)
{
    ap_rprintf(r, "%sName: %s\n", prefix, instance->name);
    ap_rprintf(r, "%sSync: %s\n", prefix, mem_config_sync_name(instance->sync.use_tm));
    ap_rprintf(r, "%sEntries: %" APR_SIZE_T_FMT "\n", prefix, s->entries);
    ap_rprintf(r, "%sMaxEntries: %" APR_SIZE_T_FMT "\n", prefix, instance->max_object_count);
    ap_rprintf(r, "%sBytes: %" APR_SIZE_T_FMT "\n", prefix, s->bytes);
    ap_rprintf(r, "%sMaxBytes: %" APR_SIZE_T_FMT "\n", prefix, instance->max_cache_bytes);
    ap_rprintf(r, "%sHits: %" APR_UINT64_T_FMT "\n", prefix, s->counts[MEM_COUNT_HITS]);
    ap_rprintf(r, "%sMisses: %" APR_UINT64_T_FMT "\n", prefix, s->counts[MEM_COUNT_MISSES]);
    ap_rprintf(r, "%sStored: %" APR_UINT64_T_FMT "\n", prefix, s->counts[MEM_COUNT_STORED]);
    ap_rprintf(r, "%sNotStored: %" APR_UINT64_T_FMT "\n", prefix, s->counts[MEM_COUNT_NOT_STORED]);
    ap_rprintf(r, "%sEvictions: %" APR_UINT64_T_FMT "\n", prefix, (apr_uint64_t)s->evictions);
}

static void report_instance_html(request_rec *r, mem_instance_t *instance,
                                 const mem_instance_snapshot_t *s)
{
    apr_uint64_t hits = s->counts[MEM_COUNT_HITS], misses = s->counts[MEM_COUNT_MISSES];
    ap_rprintf(r, "<dt>Cache of %s: MCacheSync %s, %s removal</dt>\n",
               ap_escape_html(r->pool, instance->name),
               mem_config_sync_name(instance->sync.use_tm), mem_config_policy_name(instance->policy));
    ap_rprintf(r, "<dt>Objects: %" APR_SIZE_T_FMT " of at most %" APR_SIZE_T_FMT "</dt>\n",
               s->entries, instance->max_object_count);
    ap_rprintf(r, "<dt>Bytes: %" APR_SIZE_T_FMT " of %" APR_SIZE_T_FMT " (%.1f %%)</dt>\n",
               s->bytes, instance->max_cache_bytes, percent(s->bytes, instance->max_cache_bytes));
    ap_rprintf(r, "<dt>Hits: %" APR_UINT64_T_FMT ", misses: %" APR_UINT64_T_FMT
               " (hit ratio %.1f %%)</dt>\n", hits, misses, percent(hits, hits + misses));
    ap_rprintf(r, "<dt>Stored: %" APR_UINT64_T_FMT ", not stored: %" APR_UINT64_T_FMT
               ", evicted: %" APR_UINT64_T_FMT "</dt>\n", s->counts[MEM_COUNT_STORED],
               s->counts[MEM_COUNT_NOT_STORED], (apr_uint64_t)s->evictions);
}

static void report_transactions(request_rec *r, int short_report)
{
    mem_runtime_t runtime;
    struct libtm_totals t;
    mem_runtime_identify(&runtime);
    if (mem_runtime_totals(&t) != 0) {
        if (short_report)
            ap_rputs("MemCacheTMCounters: unavailable\n", r);
        else
            ap_rprintf(r, "<dt>Transaction counters unavailable: the TM runtime (%s) is not "
                       "libtm</dt>\n", ap_escape_html(r->pool, runtime.path));
        return;
    }
    if (short_report) {
        ap_rprintf(r, "MemCacheTMCommits: %" PRIu64 "\nMemCacheTMAborts: %" PRIu64 "\n"
                   "MemCacheTMConflictAborts: %" PRIu64 "\nMemCacheTMSerial: %" PRIu64 "\n"
                   "MemCacheTMIrrevocable: %" PRIu64 "\nMemCacheTMHardwareCommits: %" PRIu64 "\n",
                   t.commits, t.aborts, t.conflict_aborts, t.serial, t.irrevocable, t.htm_commits);
        return;
    }
    ap_rprintf(r, "<dt>Transactions of this process (libtm, %s): %" PRIu64 " commits, %" PRIu64
               " aborts (%.3f per commit; %" PRIu64 " conflicts), %" PRIu64 " serial, %" PRIu64
               " irrevocable, %" PRIu64 " in hardware</dt>\n", ap_escape_html(r->pool, runtime.path),
               t.commits, t.aborts, t.commits ? (double)t.aborts / (double)t.commits : 0.0,
               t.conflict_aborts, t.serial, t.irrevocable, t.htm_commits);
}

static int status_hook(request_rec *r, int flags)
{
    if (!mem_instances)
        return OK;
    int short_report = (flags & AP_STATUS_SHORT) != 0;
    int any_tm = 0, number = 0;
    if (short_report)
        ap_rprintf(r, "MemCacheProcess: %ld\n", (long)getpid());
    else
        ap_rprintf(r, "<hr>\n<h2>mod_mem_cache (child process %ld)</h2>\n<dl>\n", (long)getpid());
    for (mem_instance_t *instance = mem_instances; instance; instance = instance->next, number++) {
        mem_instance_snapshot_t snapshot;
        any_tm |= instance->sync.use_tm;
        if (mem_instance_snapshot(instance, &snapshot) != 0) {
            if (!short_report)
                ap_rprintf(r, "<dt>Cache of %s: not running in this process</dt>\n",
                           ap_escape_html(r->pool, instance->name));
            continue;
        }
        if (short_report)
            report_instance_short(r, number ? apr_psprintf(r->pool, "MemCacheVhost%d", number)
                                            : "MemCache", instance, &snapshot);
        else
            report_instance_html(r, instance, &snapshot);
    }
    if (any_tm)
        report_transactions(r, short_report);
    if (!short_report)
        ap_rputs("</dl>\n", r);
    return OK;
}

void mem_status_register(void)
{
    APR_OPTIONAL_HOOK(ap, status_hook, status_hook, NULL, NULL, APR_HOOK_MIDDLE);
}
