/* Configuration from the environment, read once when the first thread registers. */
#include "tx.h"
#include "adapt.h"
#include "contention.h"
#include "fatal.h"
#include "htm.h"
#include "mode.h"
#include "stats.h"
#include "../include/libtm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct tm_config tm_config = {
    .retries = 16,
    .cm = CM_BACKOFF,
};

static void read_algo(void)
{
    const char *s = getenv("LIBTM_ALGO");
    if (!s || !*s)
        return;
    tm_config.forced = tm_algo_by_name(s);
    if (!tm_config.forced)
        tm_warn("LIBTM_ALGO=%s is unknown; use %s (keeping the adaptive default)", s,
                tm_algo_names());
}

int libtm_set_contention_manager(const char *name)
{
    for (int i = 0; i < CM_POLICY_COUNT; i++) {
        if (name && strcmp(name, tm_cm_names[i]) == 0) {
            tm_config.cm = i;
            tm_config.cm_hears_ends = tm_cm_hears_ends(i);
            return 0;
        }
    }
    return -1;
}

static void read_cm(void)
{
    const char *s = getenv("LIBTM_CM");
    if (s && *s && libtm_set_contention_manager(s) != 0) {
        char names[256];
        size_t n = 0;
        for (int i = 0; i < CM_POLICY_COUNT; i++)
            n += (size_t)snprintf(names + n, sizeof names - n, "%s%s", i ? ", " : "", tm_cm_names[i]);
        tm_warn("LIBTM_CM=%s is unknown; use one of %s (keeping %s)", s, names,
                tm_cm_names[tm_config.cm]);
    }
}

static void read_retries(void)
{
    const char *s = getenv("LIBTM_RETRIES");
    if (!s || !*s)
        return;
    char *end;
    long n = strtol(s, &end, 10);
    if (*end || n < 1 || n > 1000000)
        tm_warn("LIBTM_RETRIES=%s is not a number between 1 and 1000000 (keeping %u)", s,
                tm_config.retries);
    else
        tm_config.retries = (unsigned)n;
}

const char *libtm_algorithm(void)
{
    return tm_config.forced ? tm_config.forced->name : "adaptive";
}

const char *libtm_adaptive_mode(void)
{
    return tm_config.forced ? "off" : tm_adapt_mode_name();
}

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

void tm_config_init(void)
{
    tm_serial_lock_init();
    read_algo();
    tm_htm_init();
    if (tm_config.forced)
        tm_mode_set(NULL, false, tm_config.forced->id);
    tm_adapt_init();
    read_cm();
    read_retries();
    tm_config.stats_path = getenv("LIBTM_STATS");
    tm_stats_init();
    const char *v = getenv("LIBTM_VERBOSE");
    tm_config.verbose = v && *v ? atoi(v) : 0;
    if (v && *v && tm_config.verbose == 0 && strcmp(v, "0") != 0)
        tm_config.verbose = 1;
    if (tm_config.verbose) {
        char line[320];
        int n = snprintf(line, sizeof line, "libtm %s: %s%s (htm: %s), contention manager %s%s%s\n",
                         LIBTM_VERSION, tm_config.forced ? "algorithm " : "adaptive among ",
                         tm_config.forced ? tm_config.forced->name
                         : tm_config.htm  ? "htm, orec, norec and serial"
                                          : "orec, norec and serial",
                         htm_note(), tm_cm_names[tm_config.cm],
                         tm_stats_enabled ? ", statistics to " : "",
                         tm_stats_enabled ? tm_config.stats_path : "");
        ssize_t ignored = write(STDERR_FILENO, line, (size_t)n);
        (void)ignored;
        atexit(say_summary);
    }
}
