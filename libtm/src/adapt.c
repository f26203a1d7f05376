/* Measures, then chooses. Time is cut into epochs; a probe runs a short epoch speculatively
 * and one serially, compares their commit rates and keeps the faster mode for a longer hold
 * epoch, then probes again. With a single thread serial always wins (no instrumentation, no
 * logging), as GCC's runtime also assumes. LIBTM_ALGO switches all this off.
 * Commits are counted per thread and added to the global count in batches, so the hot path
 * costs one increment. */
#include "adapt.h"

#include <time.h>

enum phase { PROBE_SPECULATIVE, PROBE_SERIAL, HOLD };

#define PROBE_NS (20 * 1000 * 1000LL)
#define HOLD_NS (300 * 1000 * 1000LL)
#define SERIAL_ADVANTAGE 1.05 /* serial must win by this factor to be chosen */

static struct {
    _Alignas(TM_CACHELINE) _Atomic uint64_t commits;
    _Atomic int64_t phase_end;     /* monotonic ns; the thread that claims it moves on */
    _Atomic int phase;
    _Atomic bool serial;           /* the mode in force */
    uint64_t phase_start_commits;
    int64_t phase_start_ns;
    double rate_speculative;
} tuner = { .phase = HOLD };

__thread unsigned tm_adapt_batched;

static int64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

bool tm_adapt_tuned_serial(void)
{
    return atomic_load_explicit(&tuner.serial, memory_order_relaxed);
}

const char *tm_adapt_mode_name(void)
{
    return atomic_load(&tuner.serial) ? "serial" : "speculative";
}

static void enter_phase(int phase, bool serial, int64_t now, int64_t length, uint64_t commits)
{
    tuner.phase_start_commits = commits;
    tuner.phase_start_ns = now;
    atomic_store(&tuner.serial, serial);
    atomic_store(&tuner.phase, phase);
    atomic_store_explicit(&tuner.phase_end, now + length, memory_order_release);
}

static void next_phase(int64_t now)
{
    uint64_t commits = atomic_load(&tuner.commits);
    double elapsed = (double)(now - tuner.phase_start_ns);
    double rate = elapsed > 0 ? (double)(commits - tuner.phase_start_commits) / elapsed : 0;
    switch (atomic_load(&tuner.phase)) {
    case HOLD:
        enter_phase(PROBE_SPECULATIVE, false, now, PROBE_NS, commits);
        break;
    case PROBE_SPECULATIVE:
        tuner.rate_speculative = rate;
        enter_phase(PROBE_SERIAL, true, now, PROBE_NS, commits);
        break;
    case PROBE_SERIAL:
        enter_phase(HOLD, rate > tuner.rate_speculative * SERIAL_ADVANTAGE, now, HOLD_NS,
                    commits);
        break;
    }
}

void tm_adapt_count(struct tm_tx *tx)
{
    (void)tx;
    atomic_fetch_add_explicit(&tuner.commits, tm_adapt_batched, memory_order_relaxed);
    tm_adapt_batched = 0;
    if (tm_thread_count() <= 1)
        return;
    int64_t end = atomic_load_explicit(&tuner.phase_end, memory_order_acquire);
    int64_t now = now_ns();
    if (now < end)
        return;
    /* One thread moves the tuner on; the others keep running in the current mode. */
    if (atomic_compare_exchange_strong(&tuner.phase_end, &end, INT64_MAX))
        next_phase(now);
}
