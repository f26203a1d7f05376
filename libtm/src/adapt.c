/* Measures, then chooses. Time is cut into epochs. The modes: hardware transactions ("htm",
 * only when the CPU has RTM), speculative software transactions (orec or norec) and serial
 * execution. A probe runs a short epoch in each mode, compares their commit rates and keeps the
 * fastest for a longer hold epoch, then probes again. Hardware transactions get a shortcut:
 * while at least HTM_HEALTHY of the commits of an epoch happen in hardware, they are kept
 * without probing the others (nothing runs faster than uninstrumented code that rarely aborts).
 * With a single thread serial always wins (no instrumentation, no logging), as GCC's runtime
 * also assumes. LIBTM_ALGO switches all this off.
 * Commits are counted per thread and added to the global count in batches, so the hot path
 * costs one increment. */
#include "adapt.h"
#include "htm.h"

#include <time.h>

enum phase { PROBE_HTM, PROBE_SPECULATIVE, PROBE_SERIAL, HOLD };
enum mode { MODE_SPECULATIVE, MODE_SERIAL, MODE_HTM, MODE_COUNT };

#define PROBE_NS (20 * 1000 * 1000LL)
#define HOLD_NS (300 * 1000 * 1000LL)
#define SERIAL_ADVANTAGE 1.05 /* serial must win by this factor to be chosen */
#define HTM_HEALTHY 0.75      /* share of commits in hardware that keeps htm without probing */
/* Threads report commits in batches (hardware ones in batches of TM_HTM_COUNT_BATCH), so an
 * epoch that saw fewer commits than this is extended (up to MAX_EPOCH_NS) before it counts. */
#define MIN_EPOCH_COMMITS (8 * TM_HTM_COUNT_BATCH)
#define MAX_EPOCH_NS (1000 * 1000 * 1000LL)

static struct {
    _Alignas(TM_CACHELINE) _Atomic uint64_t commits, htm_commits;
    _Atomic int64_t phase_end;     /* monotonic ns; the thread that claims it moves on */
    _Atomic int phase;
    _Atomic int mode;              /* the mode in force */
    uint64_t phase_start_commits, phase_start_htm_commits;
    int64_t phase_start_ns;
    double rate[MODE_COUNT];
} tuner = { .phase = HOLD, .mode = MODE_SPECULATIVE };

__thread unsigned tm_adapt_batched;

static int64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

bool tm_adapt_tuned_serial(void)
{
    return atomic_load_explicit(&tuner.mode, memory_order_relaxed) == MODE_SERIAL;
}

const char *tm_adapt_mode_name(void)
{
    static const char *const names[MODE_COUNT] = {
        [MODE_SPECULATIVE] = "speculative", [MODE_SERIAL] = "serial", [MODE_HTM] = "htm" };
    return names[atomic_load(&tuner.mode)];
}

static void enter_phase(struct tm_tx *tx, int phase, enum mode mode, int64_t now, int64_t length,
                        uint64_t commits, uint64_t htm_commits)
{
    tuner.phase_start_commits = commits;
    tuner.phase_start_htm_commits = htm_commits;
    tuner.phase_start_ns = now;
    /* Off first (no hardware transaction then runs), on last (waits for speculative ones). */
    if (mode != MODE_HTM)
        tm_htm_set_mode(tx, false);
    atomic_store(&tuner.mode, mode);
    if (mode == MODE_HTM)
        tm_htm_set_mode(tx, true);
    atomic_store(&tuner.phase, phase);
    atomic_store_explicit(&tuner.phase_end, now + length, memory_order_release);
}

static void next_phase(struct tm_tx *tx, int64_t now)
{
    uint64_t commits = atomic_load(&tuner.commits);
    uint64_t htm_commits = atomic_load(&tuner.htm_commits);
    uint64_t epoch_commits = commits - tuner.phase_start_commits;
    if (epoch_commits < MIN_EPOCH_COMMITS && now - tuner.phase_start_ns < MAX_EPOCH_NS) {
        atomic_store_explicit(&tuner.phase_end, now + PROBE_NS, memory_order_release);
        return;
    }
    double elapsed = (double)(now - tuner.phase_start_ns);
    double rate = elapsed > 0 ? (double)epoch_commits / elapsed : 0;
    bool htm_healthy = (double)(htm_commits - tuner.phase_start_htm_commits) >=
                       HTM_HEALTHY * (double)epoch_commits;
    bool htm = tm_config.htm;
    enum mode mode = atomic_load(&tuner.mode);
    switch (atomic_load(&tuner.phase)) {
    case HOLD:
        if (mode == MODE_HTM && htm_healthy && epoch_commits > 0)
            enter_phase(tx, HOLD, MODE_HTM, now, HOLD_NS, commits, htm_commits);
        else if (htm && !(mode == MODE_HTM && tm_htm_mode_on()))
            enter_phase(tx, PROBE_HTM, MODE_HTM, now, PROBE_NS, commits, htm_commits);
        else
            enter_phase(tx, PROBE_SPECULATIVE, MODE_SPECULATIVE, now, PROBE_NS, commits,
                        htm_commits);
        if (mode == MODE_HTM)
            tuner.rate[MODE_HTM] = rate;
        break;
    case PROBE_HTM:
        tuner.rate[MODE_HTM] = rate;
        if (htm_healthy)
            enter_phase(tx, HOLD, MODE_HTM, now, HOLD_NS, commits, htm_commits);
        else
            enter_phase(tx, PROBE_SPECULATIVE, MODE_SPECULATIVE, now, PROBE_NS, commits,
                        htm_commits);
        break;
    case PROBE_SPECULATIVE:
        tuner.rate[MODE_SPECULATIVE] = rate;
        enter_phase(tx, PROBE_SERIAL, MODE_SERIAL, now, PROBE_NS, commits, htm_commits);
        break;
    case PROBE_SERIAL: {
        tuner.rate[MODE_SERIAL] = rate;
        enum mode best = MODE_SPECULATIVE;
        if (tuner.rate[MODE_SERIAL] > tuner.rate[MODE_SPECULATIVE] * SERIAL_ADVANTAGE)
            best = MODE_SERIAL;
        if (htm && tuner.rate[MODE_HTM] > tuner.rate[best])
            best = MODE_HTM;
        enter_phase(tx, HOLD, best, now, HOLD_NS, commits, htm_commits);
        break;
    }
    }
}

static void maybe_next_phase(struct tm_tx *tx)
{
    if (tm_thread_count() <= 1) {
        tm_htm_set_mode(tx, false); /* alone: serial, see tm_adapt_prefers_serial */
        return;
    }
    int64_t end = atomic_load_explicit(&tuner.phase_end, memory_order_acquire);
    int64_t now = now_ns();
    if (now < end)
        return;
    /* One thread moves the tuner on; the others keep running in the current mode. */
    if (atomic_compare_exchange_strong(&tuner.phase_end, &end, INT64_MAX))
        next_phase(tx, now);
}

void tm_adapt_count(struct tm_tx *tx)
{
    atomic_fetch_add_explicit(&tuner.commits, tm_adapt_batched, memory_order_relaxed);
    tm_adapt_batched = 0;
    maybe_next_phase(tx);
}

void tm_adapt_count_htm(struct tm_tx *tx, unsigned commits)
{
    atomic_fetch_add_explicit(&tuner.commits, commits, memory_order_relaxed);
    atomic_fetch_add_explicit(&tuner.htm_commits, commits, memory_order_relaxed);
    maybe_next_phase(tx);
}

/* Going from one thread to two ends the current epoch, so that hardware transactions (or the
 * best mode) start at once; going back to one switches them off (serial runs alone). */
void tm_adapt_threads_changed(unsigned count)
{
    if (tm_config.forced)
        return;
    if (count <= 1) {
        tm_htm_set_mode(NULL, false);
    } else if (count == 2) {
        int64_t end = atomic_load(&tuner.phase_end);
        if (end != INT64_MAX)
            atomic_compare_exchange_strong(&tuner.phase_end, &end, 0);
    }
}
