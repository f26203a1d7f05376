/* Configuration from the environment, read once when the first thread registers. */
#include "tx.h"
#include "adapt.h"
#include "contention.h"
#include "fatal.h"
#include "htm.h"
#include "stats.h"
#include "../include/libtm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct tm_config tm_config = {
    .algo = &tm_algo_orec,
    .retries = 16,
    .cm = CM_BACKOFF,
};

static const struct tm_algo *const speculative_algos[] = { &tm_algo_orec, &tm_algo_norec };

static void read_algo(void)
{
    const char *s = getenv("LIBTM_ALGO");
    if (!s || !*s)
        return;
    if (strcmp(s, "serial") == 0) {
        tm_config.serial_only = true;
        tm_config.forced = true;
        return;
    }
    for (size_t i = 0; i < sizeof speculative_algos / sizeof *speculative_algos; i++) {
        if (strcmp(s, speculative_algos[i]->name) == 0) {
            tm_config.algo = speculative_algos[i];
            tm_config.forced = true;
            return;
        }
    }
    tm_warn("LIBTM_ALGO=%s is unknown; use orec, norec or serial (keeping the default, orec "
            "with adaptive serial mode)", s);
}

int libtm_set_contention_manager(const char *name)
{
    for (int i = 0; i < CM_POLICY_COUNT; i++) {
        if (name && strcmp(name, tm_cm_names[i]) == 0) {
            tm_config.cm = i;
            return 0;
        }
    }
    return -1;
}

static void read_cm(void)
{
    const char *s = getenv("LIBTM_CM");
    if (s && *s && libtm_set_contention_manager(s) != 0)
        tm_warn("LIBTM_CM=%s is unknown; use backoff, immediate, spin, block, yield or priority "
                "(keeping backoff)", s);
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
    return tm_config.serial_only ? "serial" : tm_config.algo->name;
}

const char *libtm_adaptive_mode(void)
{
    return tm_config.forced ? "off" : tm_adapt_mode_name();
}

void tm_config_init(void)
{
    read_algo();
    tm_htm_init();
    read_cm();
    read_retries();
    tm_config.stats_path = getenv("LIBTM_STATS");
    tm_stats_init();
    const char *v = getenv("LIBTM_VERBOSE");
    tm_config.verbose = v && *v && strcmp(v, "0") != 0;
    if (tm_config.verbose) {
        char line[256];
        int n = snprintf(line, sizeof line,
                         "libtm %s: algorithm %s%s, contention manager %s%s%s\n", LIBTM_VERSION,
                         libtm_algorithm(),
                         tm_config.forced ? ""
                         : tm_config.htm  ? " (adaptive: htm (Intel RTM) with serial fallback, "
                                            "speculative or serial mode)"
                                          : " (adaptive serial mode; no htm: "
                                            "the CPU has no RTM or LIBTM_HTM=0)",
                         tm_cm_names[tm_config.cm], tm_stats_enabled ? ", statistics to " : "",
                         tm_stats_enabled ? tm_config.stats_path : "");
        ssize_t ignored = write(STDERR_FILENO, line, (size_t)n);
        (void)ignored;
    }
}
