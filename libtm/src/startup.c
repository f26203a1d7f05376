/* Start-up (startup.h): the configuration, then every part that needs setting up, in order;
 * LIBTM_VERBOSE's lines at start and exit. */
#include "startup.h"
#include "adapt.h"
#include "config.h"
#include "contention.h"
#include "mode.h"
#include "serial_lock.h"
#include "stats.h"
#include "../include/libtm.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* What the verbose line says about hardware transactions. */
static const char *htm_note(void)
{
    if (!tm_config.rtm)
        return "none, the CPU has no usable RTM";
    if (tm_config.forced)
        return "not used, LIBTM_ALGO forces a software algorithm";
    return tm_config.htm ? "Intel RTM in use" : "switched off by LIBTM_HTM=0";
}

/* LIBTM_VERBOSE: at exit, how many transactions ran and in which mode (the benchmark script
 * reads this line). */
static void say_summary(void)
{
    struct libtm_totals t;
    libtm_get_totals(&t);
    char shares[200];
    tm_stats_mode_shares(shares, sizeof shares);
    char line[320];
    int n = snprintf(line, sizeof line, "libtm: %llu commits, %llu aborts; commits by mode: %s\n",
                     (unsigned long long)t.commits, (unsigned long long)t.aborts, shares);
    ssize_t ignored = write(STDERR_FILENO, line, (size_t)n);
    (void)ignored;
}

void tm_startup(void)
{
    tm_serial_lock_init();
    tm_config_read();
    if (tm_config.forced)
        tm_mode_set(NULL, false, tm_config.forced->id);
    tm_adapt_init();
    tm_cm_init();
    tm_stats_init();
    /* Before any transaction: the serial fast path reads it with the mode (serial_lock.h). */
    atomic_store_explicit(&tm_serial_lock.general_only,
                          tm_stats_enabled || tm_config.cm_hears_ends, memory_order_relaxed);
    if (tm_config.verbose) {
        char line[320];
        int n = snprintf(line, sizeof line, "libtm %s: %s%s (htm: %s), contention manager %s%s%s\n",
                         LIBTM_VERSION, tm_config.forced ? "algorithm " : "adaptive among ",
                         tm_config.forced ? tm_config.forced->name
                         : tm_config.htm  ? "htm, orec, norec and serial"
                                          : "orec, norec and serial",
                         htm_note(), tm_config.cm->name,
                         tm_stats_enabled ? ", statistics to " : "",
                         tm_stats_enabled ? tm_config.stats_path : "");
        ssize_t ignored = write(STDERR_FILENO, line, (size_t)n);
        (void)ignored;
        atexit(say_summary);
    }
}
