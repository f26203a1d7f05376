/* Measures, then chooses (adapt.h). The candidates are hardware transactions ("htm", only when
 * the CPU has RTM and LIBTM_HTM allows them) and every algorithm of the registry, serial
 * included. With one thread the mode is serial: nothing beats running the uninstrumented code
 * alone, as GCC's runtime also assumes. With more, time is cut into epochs: a probe runs each
 * candidate for a short epoch and measures its commit rate, twice, in mirrored order (A B C,
 * then C B A: a slow drift of the workload favours nobody; the second pass skips those the
 * first found at less than half the best), and adds up each candidate's samples: the best of
 * two flattered the candidate that varies most, which on a busy machine is a speculative one
 * (it needs every thread on a processor at once), and wrongly beat serial execution;
 * the fastest then holds for a
 * longer epoch, which doubles (up to MAX_HOLD_NS) while the same candidate keeps winning, so
 * that the cost of probing the slower ones shrinks in a steady workload; the hold's rate
 * counts as one more measurement of the winner. A candidate that lost
 * by more than 30 % twice in a row, or by more than half once, is probed only every fourth
 * round. Serial execution starts as the last winner with two threads: it runs at about the
 * speed of one thread (serial_lock.c's turns), so a candidate that cannot beat it clearly never
 * makes the program slower than it is with one thread. Hardware transactions
 * are a candidate like the others: they win where they commit in hardware, and lose where
 * capacity aborts, interrupts of preempted threads or fallbacks make them slow. A hold also
 * ends early when its rate over 100 ms falls below 30 % of what its probe measured (the
 * workload changed). LIBTM_ALGO switches all this off.
 * Commits are counted in each thread's descriptor and added up at the end of an epoch, so the
 * hot path costs one increment of a private counter. */
#include "adapt.h"
#include "config.h"
#include "mode.h"
#include "registry.h"
#include "wait.h"

#include <stdio.h>
#include <unistd.h>

#define PROBE_NS (2 * 1000 * 1000LL)       /* each candidate is probed twice a round */
#define PROBE_CROWDED_NS (10 * 1000 * 1000LL) /* threads outnumber processors: several slices */
/* After a switch, before a probe measures: the new mode settles (a lock convoy forms, threads
 * that slept in the old mode wake up). */
#define WARMUP_NS (1 * 1000 * 1000LL)
#define WARMUP_CROWDED_NS (3 * 1000 * 1000LL)
#define SMOOTHING 0.5   /* weight of a new probe in a candidate's rate */
#define HYSTERESIS 1.1  /* another candidate must beat the last winner by this factor */
#define MIN_HOLD_NS (200 * 1000 * 1000LL)
#define MAX_HOLD_NS (1600 * 1000 * 1000LL)
#define MAX_EPOCH_NS (400 * 1000 * 1000LL)
#define RARE_PROBE 4     /* a candidate that keeps losing is probed every RARE_PROBE rounds */
#define LOSS_SHARE 0.7   /* ... losing: below this share of the winner, twice in a row */
#define CLEAR_LOSS_SHARE 0.5 /* below this share once counts as twice */
#define COLLAPSE_WINDOW_NS (100 * 1000 * 1000LL)
#define COLLAPSE_SHARE 0.3 /* a hold below this share of its probe's rate ends early */
#define COLLAPSE_LOOK_NS (10 * 1000 * 1000LL)
/* Threads look at the clock every TM_ADAPT_CHECK_EVERY commits (hardware commits are reported
 * in batches of TM_HTM_COUNT_BATCH), so an epoch that saw fewer commits than this is extended
 * (up to MAX_EPOCH_NS) before it counts. */
#define MIN_EPOCH_COMMITS (8 * TM_ADAPT_CHECK_EVERY)

#define MAX_CANDIDATES (TM_ALGO_COUNT + 1)

struct candidate {
    bool htm;
    enum tm_algo_id algo;
    double rate;       /* commits per ns, smoothed over rounds */
    double round_commits, round_ns; /* this round's probes, added up */
    unsigned losses;   /* rounds in a row it lost by more than 30 % (a clear loss counts 2) */
};

static struct {
    _Alignas(TM_CACHELINE) _Atomic int64_t epoch_end; /* monotonic ns; the thread that claims
                                                       * it moves on */
    _Atomic int64_t collapse_look_at; /* when hold_collapsed next adds up the counters */
    _Alignas(TM_CACHELINE) int candidates;
    struct candidate candidate[MAX_CANDIDATES];
    int current;                   /* candidate in force */
    int serial;                    /* the serial candidate */
    int probing;                   /* the candidate being probed, or -1 while holding */
    bool backward;                 /* the round's second, mirrored pass */
    bool alone_since;              /* the epoch now ending began while one thread ran */
    bool warming;                  /* the epoch now ending was a warm-up ... */
    int64_t after_warmup_ns;       /* ... and this is how long the epoch then lasts */
    int best;                      /* winner of the last round */
    unsigned round;
    int64_t hold_ns;
    double hold_floor;             /* a hold ends early below this rate */
    unsigned epoch_start_commits;  /* total_commits() then */
    int64_t epoch_start_ns;
} tuner = { .probing = -1, .alone_since = true, .hold_ns = MIN_HOLD_NS };

/* Commits of every thread so far, modulo 2^32: differences over an epoch are exact. */
static unsigned total_commits(void)
{
    unsigned n = 0;
    for (struct tm_tx *d = tm_all_descriptors(); d; d = d->next_all)
        n += tm_commits_so_far(d);
    return n;
}

void tm_adapt_init(void)
{
    int n = 0;
    if (tm_config.htm)
        tuner.candidate[n++] = (struct candidate){ .htm = true, .algo = TM_ALGO_serial };
    for (int i = 0; i < TM_ALGO_COUNT; i++) {
        if (i == TM_ALGO_serial)
            tuner.serial = n;
        tuner.candidate[n++] = (struct candidate){ .algo = (enum tm_algo_id)i };
    }
    tuner.candidates = n;
    tuner.current = tuner.best = tuner.serial; /* what one thread runs */
    if (!tm_config.forced)
        tm_mode_set(NULL, false, TM_ALGO_serial);
}

const char *tm_adapt_mode_name(void)
{
    const struct candidate *c = &tuner.candidate[tuner.current];
    return c->htm ? "htm" : tm_algos[c->algo]->name;
}

/* Runs candidate `index` for an epoch of `length` ns; a probe that switches the mode first
 * runs a warm-up that is not measured. */
static void enter(struct tm_tx *tx, int index, int64_t now, int64_t length, bool probe)
{
    const struct candidate *c = &tuner.candidate[index];
    bool switching = index != tuner.current;
    tuner.current = index;
    tuner.epoch_start_commits = total_commits();
    tm_mode_set(tx, c->htm, c->algo);
    tuner.epoch_start_ns = tm_now_ns(); /* after the switch, which may have waited */
    int64_t start = now > tuner.epoch_start_ns ? now : tuner.epoch_start_ns;
    tuner.warming = probe && switching;
    if (tuner.warming) {
        tuner.after_warmup_ns = length;
        length = tm_thread_count() > tm_processors() ? WARMUP_CROWDED_NS : WARMUP_NS;
    }
    atomic_store_explicit(&tuner.epoch_end, start + length, memory_order_release);
}

/* A candidate's commits per ns over this round's probes (0: not probed). */
static double round_rate(const struct candidate *c)
{
    return c->round_ns > 0 ? c->round_commits / c->round_ns : 0;
}

static bool worth_probing(int i)
{
    return tuner.candidate[i].losses < 2 || tuner.round % RARE_PROBE == 0;
}

/* The next probe after candidate `from` (-1: the round starts), skipping those that keep
 * losing (except every RARE_PROBE rounds): forward through the candidates, then back. Returns
 * -1 when the round is complete. */
static int next_probe(int from)
{
    if (!tuner.backward) {
        for (int i = from + 1; i < tuner.candidates; i++)
            if (worth_probing(i))
                return i;
        tuner.backward = true;
        /* The last one again: the second pass starts with it, without a switch. */
        return from;
    }
    double top = 0;
    for (int i = 0; i < tuner.candidates; i++)
        if (round_rate(&tuner.candidate[i]) > top)
            top = round_rate(&tuner.candidate[i]);
    /* The second pass only for those the first did not show to be far behind. */
    for (int i = from - 1; i >= 0; i--)
        if (worth_probing(i) && round_rate(&tuner.candidate[i]) >= CLEAR_LOSS_SHARE * top)
            return i;
    return -1;
}

/* LIBTM_VERBOSE=2: what a round measured, on stderr. */
static void report_round(int best)
{
    char line[256];
    int n = snprintf(line, sizeof line, "libtm: adaptive round %u:", tuner.round);
    for (int i = 0; i < tuner.candidates && n < (int)sizeof line; i++) {
        const struct candidate *c = &tuner.candidate[i];
        n += snprintf(line + n, sizeof line - (size_t)n, " %s %.0f", 
                      c->htm ? "htm" : tm_algos[c->algo]->name, c->rate * 1e6);
    }
    if (n < (int)sizeof line)
        n += snprintf(line + n, sizeof line - (size_t)n, " commits/ms -> %s for %lld ms\n",
                      tuner.candidate[best].htm ? "htm" : tm_algos[tuner.candidate[best].algo]->name,
                      (long long)(tuner.hold_ns / 1000000));
    if (n > (int)sizeof line - 1)
        n = (int)sizeof line - 1;
    ssize_t ignored = write(STDERR_FILENO, line, (size_t)n);
    (void)ignored;
}

static int64_t probe_ns(void)
{
    return tm_thread_count() > tm_processors() ? PROBE_CROWDED_NS : PROBE_NS;
}

static void finish_round(struct tm_tx *tx, int64_t now)
{
    for (int i = 0; i < tuner.candidates; i++) {
        struct candidate *c = &tuner.candidate[i];
        double measured = round_rate(c);
        if (measured > 0)
            c->rate = c->rate > 0 ? SMOOTHING * measured + (1 - SMOOTHING) * c->rate : measured;
        c->round_commits = c->round_ns = 0;
    }
    int best = -1;
    for (int i = 0; i < tuner.candidates; i++) {
        struct candidate *c = &tuner.candidate[i];
        if (c->rate > 0 && (best < 0 || c->rate > tuner.candidate[best].rate))
            best = i;
    }
    if (best < 0)
        best = tuner.serial;
    /* Noise must not make the mode flip: the last winner stays unless clearly beaten. */
    if (tuner.best >= 0 && best != tuner.best &&
        tuner.candidate[best].rate < HYSTERESIS * tuner.candidate[tuner.best].rate)
        best = tuner.best;
    double top = tuner.candidate[best].rate;
    for (int i = 0; i < tuner.candidates; i++) {
        struct candidate *c = &tuner.candidate[i];
        if (c->rate > 0)
            c->losses = c->rate < CLEAR_LOSS_SHARE * top ? c->losses + 2
                        : c->rate < LOSS_SHARE * top     ? c->losses + 1
                                                         : 0;
    }
    if (best != tuner.best)
        tuner.hold_ns = MIN_HOLD_NS;
    else if (tuner.hold_ns < MAX_HOLD_NS)
        tuner.hold_ns *= 2;
    if (tm_config.verbose >= 2)
        report_round(best);
    tuner.best = best;
    tuner.hold_floor = COLLAPSE_SHARE * top;
    tuner.probing = -1;
    tuner.round++;
    enter(tx, best, now, tuner.hold_ns, false);
}

static void start_round(struct tm_tx *tx, int64_t now)
{
    tuner.backward = false;
    tuner.probing = next_probe(-1); /* there is one: the last winner never keeps losing */
    enter(tx, tuner.probing, now, probe_ns(), true);
}

static void next_epoch(struct tm_tx *tx, int64_t now)
{
    if (tuner.warming) {
        tuner.warming = false;
        tuner.epoch_start_commits = total_commits();
        tuner.epoch_start_ns = now;
        atomic_store_explicit(&tuner.epoch_end, now + tuner.after_warmup_ns, memory_order_release);
        return;
    }
    unsigned commits = total_commits() - tuner.epoch_start_commits;
    int64_t elapsed = now - tuner.epoch_start_ns;
    if (commits < MIN_EPOCH_COMMITS && elapsed < MAX_EPOCH_NS) {
        atomic_store_explicit(&tuner.epoch_end, now + probe_ns(), memory_order_release);
        return;
    }
    /* A hold measures its winner too, over far longer than a probe: a probe that flattered
     * it (a lock convoy that served one thread for a few milliseconds, say) is corrected
     * before the next round compares. */
    struct candidate *c = &tuner.candidate[tuner.current];
    double rate = elapsed > 0 ? (double)commits / (double)elapsed : 0;
    if (tuner.probing < 0) {
        /* Not the epoch since the thread went alone, though: it holds the program's start
         * (building its data, say) or its single-threaded stretches, and made serial look
         * several times slower than it is in the first round (travel: 128 commits/ms
         * against 256 measured by its probes). */
        if (!tuner.alone_since)
            c->rate = c->rate > 0 ? SMOOTHING * rate + (1 - SMOOTHING) * c->rate : rate;
        tuner.alone_since = false;
        start_round(tx, now);
        return;
    }
    c->round_commits += commits;
    c->round_ns += (double)elapsed;
    int next = next_probe(tuner.probing);
    if (next < 0) {
        finish_round(tx, now);
        return;
    }
    tuner.probing = next;
    enter(tx, next, now, probe_ns(), true);
}

/* While holding, a rate below the floor (the workload changed) ends the hold early; judged
 * over at least COLLAPSE_WINDOW_NS, since over a few milliseconds the rate swings with the
 * scheduler when threads outnumber cores. */
static bool hold_collapsed(int64_t now)
{
    if (tuner.probing >= 0 || now - tuner.epoch_start_ns < COLLAPSE_WINDOW_NS)
        return false;
    /* One thread looks every COLLAPSE_LOOK_NS: adding up the counters reads every thread's
     * descriptor. */
    int64_t at = atomic_load_explicit(&tuner.collapse_look_at, memory_order_relaxed);
    if (now < at || !atomic_compare_exchange_strong(&tuner.collapse_look_at, &at,
                                                    now + COLLAPSE_LOOK_NS))
        return false;
    unsigned commits = total_commits() - tuner.epoch_start_commits;
    return (double)commits < tuner.hold_floor * (double)(now - tuner.epoch_start_ns);
}

/* With one thread: serial, and the next second thread starts a round at once, in which
 * serial is the last winner: the others must beat it clearly, since serial runs at about the
 * speed of one thread (its turns keep the data in one cache: serial_lock.c). */
static void go_alone(struct tm_tx *tx)
{
    tuner.probing = -1;
    tuner.best = tuner.serial;
    for (int i = 0; i < tuner.candidates; i++)
        tuner.candidate[i] = (struct candidate){ .htm = tuner.candidate[i].htm,
                                                 .algo = tuner.candidate[i].algo };
    tuner.hold_ns = MIN_HOLD_NS;
    tuner.alone_since = true;
    enter(tx, tuner.serial, tm_now_ns(), 0, false);
}

static void maybe_next_epoch(struct tm_tx *tx)
{
    if (tm_config.forced)
        return;
    bool alone = tm_thread_count() <= 1;
    int64_t end = atomic_load_explicit(&tuner.epoch_end, memory_order_acquire);
    int64_t now = 0;
    if (alone) {
        if (tuner.current == tuner.serial || end == INT64_MAX)
            return;
    } else {
        now = tm_now_ns();
        if (now < end && !(end != INT64_MAX && hold_collapsed(now)))
            return;
    }
    /* One thread moves the tuner on; the others keep running in the current mode. */
    if (!atomic_compare_exchange_strong(&tuner.epoch_end, &end, INT64_MAX))
        return;
    if (alone)
        go_alone(tx);
    else
        next_epoch(tx, now);
}

void tm_adapt_check(struct tm_tx *tx)
{
    maybe_next_epoch(tx);
}

void tm_adapt_htm_commits(struct tm_tx *tx, unsigned commits)
{
    atomic_fetch_add_explicit(&tx->adapt_commits, commits, memory_order_relaxed);
    maybe_next_epoch(tx);
}

/* Going from one thread to two, or back, ends the epoch: the next count starts a round of
 * probes, or goes serial. */
void tm_adapt_threads_changed(struct tm_tx *tx, unsigned count)
{
    (void)tx;
    if (tm_config.forced || count > 2)
        return;
    int64_t end = atomic_load(&tuner.epoch_end);
    if (end != INT64_MAX)
        atomic_compare_exchange_strong(&tuner.epoch_end, &end, 0);
}

const char *libtm_adaptive_mode(void)
{
    return tm_config.forced ? "off" : tm_adapt_mode_name();
}
