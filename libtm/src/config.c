/* The configuration (config.h): the environment and the CPU, read once at start-up
 * (startup.c). The contention manager reads LIBTM_CM itself (contention.c). */
#include "config.h"
#include "fatal.h"
#include "../include/libtm.h"

#include <cpuid.h>
#include <stdlib.h>
#include <string.h>

struct tm_config tm_config = {
    .retries = 16,
    .turns = true,
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

/* CPUID leaf 7: EBX bit 11 is RTM; EDX bit 11 (RTM_ALWAYS_ABORT) means microcode disabled it. */
static bool cpu_has_rtm(void)
{
    unsigned a, b, c, d;
    if (__get_cpuid_max(0, NULL) < 7)
        return false;
    __cpuid_count(7, 0, a, b, c, d);
    return (b & (1u << 11)) && !(d & (1u << 11));
}

/* LIBTM_HTM and the CPU: whether hardware transactions may run (htm.c). */
static void read_htm(void)
{
    const char *s = getenv("LIBTM_HTM");
    bool allowed = true;
    if (s && *s) {
        if (strcmp(s, "0") == 0)
            allowed = false;
        else if (strcmp(s, "1") != 0)
            tm_warn("LIBTM_HTM=%s is unknown; use 0 (no hardware transactions) or 1 (use them "
                    "when the CPU has RTM, the default)", s);
    }
    /* LIBTM_ALGO forces one software algorithm: no hardware transactions then. */
    tm_config.rtm = cpu_has_rtm();
    tm_config.htm = allowed && !tm_config.forced && tm_config.rtm;
}

/* LIBTM_TURNS=0: orec's writers never take turns (orec_turns.c), whatever their aborts. */
static void read_turns(void)
{
    const char *s = getenv("LIBTM_TURNS");
    if (!s || !*s)
        return;
    if (strcmp(s, "0") == 0)
        tm_config.turns = false;
    else if (strcmp(s, "1") != 0)
        tm_warn("LIBTM_TURNS=%s is unknown; use 0 (orec's writers never take turns) or 1 (they "
                "do while they abort each other often, the default)", s);
}

void tm_config_read(void)
{
    read_turns();
    read_algo();
    read_htm();
    read_retries();
    tm_config.stats_path = getenv("LIBTM_STATS");
    const char *v = getenv("LIBTM_VERBOSE");
    tm_config.verbose = v && *v ? atoi(v) : 0;
    if (v && *v && tm_config.verbose == 0 && strcmp(v, "0") != 0)
        tm_config.verbose = 1;
}
