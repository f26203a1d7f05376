/* Which libitm.so.1 the loader chose (dladdr), whether it is libtm (dlsym: GCC's libitm has
 * no libtm entries, so nothing here may link against them), libtm's counters, and the
 * ITM_DEFAULT_METHOD rule for GCC's runtime; see mem_runtime.h. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* dladdr, RTLD_DEFAULT (apxs already defines it) */
#endif
#include "mem_runtime.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#include <apr_strings.h>

/* Looked up at run time: GCC's libitm has neither, and the module must load on it too. */
typedef void (*totals_read_fn)(struct libtm_totals *totals, size_t size);
typedef void (*totals_get_fn)(struct libtm_totals *totals);

void mem_runtime_identify(mem_runtime_t *out)
{
    Dl_info info;
    out->path = "unknown";
    if (dladdr((void *)_ITM_addUserCommitAction, &info) && info.dli_fname)
        out->path = info.dli_fname;
    out->is_libtm = dlsym(RTLD_DEFAULT, "libtm_totals_read") != NULL ||
                    dlsym(RTLD_DEFAULT, "libtm_get_totals") != NULL;
}

int mem_runtime_totals(struct libtm_totals *out)
{
    memset(out, 0, sizeof(*out));
    totals_read_fn read_totals = (totals_read_fn)dlsym(RTLD_DEFAULT, "libtm_totals_read");
    if (read_totals) {
        read_totals(out, sizeof(*out));
        return 0;
    }
    /* libtm before LIBTM_1.1: same struct, no size argument. */
    totals_get_fn get_totals = (totals_get_fn)dlsym(RTLD_DEFAULT, "libtm_get_totals");
    if (get_totals) {
        get_totals(out);
        return 0;
    }
    return -1;
}

const char *mem_runtime_require_safe_method(apr_pool_t *pool, apr_pool_t *process_pool,
                                            const char **note)
{
    static const char *const safe_methods[] = {"ml_wt", "gl_wt", "serialirr", "serialirr_onwrite"};
    static const char set_note[] = "ITM_DEFAULT_METHOD=ml_wt set for the children (GCC's "
                                   "default method loses commit actions under concurrency)";
    /* httpd reads its configuration twice and reloads the module in between: the process
     * pool remembers that the value is ours. */
    static const char set_key[] = "mod_mem_cache: ITM_DEFAULT_METHOD set";
    void *set_here = NULL;
    apr_pool_userdata_get(&set_here, set_key, process_pool);
    *note = NULL;
    const char *method = getenv("ITM_DEFAULT_METHOD");
    if (!method || !*method) {
        setenv("ITM_DEFAULT_METHOD", "ml_wt", 1);
        apr_pool_userdata_set((void *)1, set_key, apr_pool_cleanup_null, process_pool);
        *note = set_note;
        return NULL;
    }
    if (set_here && !strcmp(method, "ml_wt")) {
        *note = set_note;
        return NULL;
    }
    for (size_t i = 0; i < sizeof(safe_methods) / sizeof(safe_methods[0]); i++)
        if (!strcmp(method, safe_methods[i])) {
            *note = apr_psprintf(pool, "ITM_DEFAULT_METHOD=%s", method);
            return NULL;
        }
    return apr_psprintf(pool, "MCacheSync tm on GCC's libitm needs ITM_DEFAULT_METHOD unset or "
                        "one of ml_wt, gl_wt, serialirr, serialirr_onwrite, not '%s' (GCC's "
                        "default and hardware methods lose commit actions, which the cache "
                        "relies on): unset it, or use the module built on libtm", method);
}
