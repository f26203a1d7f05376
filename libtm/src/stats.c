/* Statistics: per-thread tables of per-block counters, merged into a process table when a
 * thread exits and written as JSON (one file per process: multi-process servers work) at exit.
 * libtm/tools/libtm-stats merges files and resolves sites to file:line. */
#include "stats.h"
#include "adapt.h"
#include "contention.h"
#include "fatal.h"
#include "config.h"
#include "htm_guard.h"
#include "registry.h"
#include "../include/libtm.h"

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

bool tm_stats_enabled;

const char *const tm_htm_abort_names[HTM_ABORT_KINDS] = {
    [HTM_ABORT_CONFLICT] = "conflict", [HTM_ABORT_CAPACITY] = "capacity",
    [HTM_ABORT_EXPLICIT] = "explicit", [HTM_ABORT_OTHER] = "other",
};

const char *const tm_abort_reason_names[ABORT_REASON_COUNT] = {
    [ABORT_CONFLICT_READ] = "conflict_read", [ABORT_CONFLICT_WRITE] = "conflict_write",
    [ABORT_VALIDATE] = "validate",           [ABORT_GO_SERIAL] = "go_serial",
    [ABORT_USER] = "user_cancel",            [ABORT_EXCEPTION] = "exception_commit",
};

static pthread_mutex_t merged_lock = PTHREAD_MUTEX_INITIALIZER;
static struct tm_thread_stats merged; /* exited threads */

static size_t hash_site(void *site, size_t capacity)
{
    return (size_t)(((uintptr_t)site * 0x9E3779B97F4A7C15ull) >> 20) & (capacity - 1);
}

static struct tm_block_stats *find_block(struct tm_thread_stats *ts, void *site);

static void grow(struct tm_thread_stats *ts)
{
    struct tm_block_stats *old = ts->blocks;
    size_t old_cap = ts->capacity;
    ts->capacity = old_cap ? old_cap * 2 : 64;
    ts->blocks = calloc(ts->capacity, sizeof *ts->blocks);
    if (!ts->blocks)
        tm_fatal("out of memory for statistics");
    ts->used = 0;
    for (size_t i = 0; i < old_cap; i++) {
        if (old[i].site) {
            struct tm_block_stats *b = find_block(ts, old[i].site);
            *b = old[i];
        }
    }
    free(old);
}

static struct tm_block_stats *find_block(struct tm_thread_stats *ts, void *site)
{
    if ((ts->used + 1) * 2 > ts->capacity)
        grow(ts);
    size_t i = hash_site(site, ts->capacity);
    while (ts->blocks[i].site && ts->blocks[i].site != site)
        i = (i + 1) & (ts->capacity - 1);
    if (!ts->blocks[i].site) {
        ts->blocks[i].site = site;
        ts->blocks[i].read_min = ts->blocks[i].write_min = UINT64_MAX;
        ts->used++;
    }
    return &ts->blocks[i];
}

static void add_block(struct tm_block_stats *to, const struct tm_block_stats *from)
{
    to->commits += from->commits;
    for (int r = 0; r < ABORT_REASON_COUNT; r++)
        to->aborts[r] += from->aborts[r];
    to->nested_aborts += from->nested_aborts;
    to->irrevocable += from->irrevocable;
    to->serial += from->serial;
    to->read_total += from->read_total;
    to->write_total += from->write_total;
    to->cycles += from->cycles;
    if (from->read_min < to->read_min) to->read_min = from->read_min;
    if (from->write_min < to->write_min) to->write_min = from->write_min;
    if (from->read_max > to->read_max) to->read_max = from->read_max;
    if (from->write_max > to->write_max) to->write_max = from->write_max;
    if (from->max_depth > to->max_depth) to->max_depth = from->max_depth;
    to->htm_commits += from->htm_commits;
}

static void add_thread(struct tm_thread_stats *to, const struct tm_thread_stats *from)
{
    for (int r = 0; r < ABORT_REASON_COUNT; r++)
        to->aborts[r] += from->aborts[r];
    to->irrevocable += from->irrevocable;
    for (int a = 0; a < TM_ALGO_COUNT; a++)
        to->by_algo[a] += from->by_algo[a];
    to->htm_commits += from->htm_commits;
    for (int k = 0; k < HTM_ABORT_KINDS; k++)
        to->htm_aborts[k] += from->htm_aborts[k];
    to->open_commits += from->open_commits;
    to->compensations += from->compensations;
    for (size_t i = 0; i < from->capacity; i++)
        if (from->blocks[i].site)
            add_block(find_block(to, from->blocks[i].site), &from->blocks[i]);
}

/* The serial fast path counts its commits in the descriptor, which outlives its threads:
 * what the current thread's added. */
static uint64_t fast_commits_since(const struct tm_tx *tx)
{
    return atomic_load_explicit(&tx->serial_fast_commits, memory_order_relaxed) -
           tx->serial_fast_counted;
}

void tm_stats_thread_start(struct tm_tx *tx)
{
    if (!tx->stats) {
        tx->stats = calloc(1, sizeof *tx->stats);
        if (!tx->stats)
            tm_fatal("out of memory for statistics");
    }
}

void tm_stats_thread_exit(struct tm_tx *tx)
{
    struct tm_thread_stats *ts = tx->stats;
    ts->htm_commits += tx->htm_commits;
    tx->htm_commits = 0;
    ts->by_algo[TM_ALGO_serial] += fast_commits_since(tx);
    tx->serial_fast_counted = atomic_load_explicit(&tx->serial_fast_commits, memory_order_relaxed);
    pthread_mutex_lock(&merged_lock);
    add_thread(&merged, ts);
    pthread_mutex_unlock(&merged_lock);
    /* The descriptor is recycled: its next thread starts from zero. */
    struct tm_block_stats *blocks = ts->blocks;
    size_t cap = ts->capacity;
    struct tm_conflicts_thread *conflicts = ts->conflicts;
    if (conflicts)
        tm_conflicts_thread_exit(ts); /* merged, and emptied for the next thread */
    if (blocks)
        memset(blocks, 0, cap * sizeof *blocks);
    memset(ts, 0, sizeof *ts);
    ts->blocks = blocks;
    ts->capacity = cap;
    ts->conflicts = conflicts;
}

void tm_stats_block_commit(struct tm_tx *tx)
{
    struct tm_thread_stats *ts = tx->stats;
    bool exclusive = tx->state == TX_SERIAL || tx->state == TX_IRREVOCABLE;
    struct tm_block_stats *b = find_block(ts, tx->site);
    b->commits++;
    b->irrevocable += tx->irrevocable_needed;
    b->serial += exclusive;
    b->read_total += tx->bytes_read;
    b->write_total += tx->bytes_written;
    if (tx->bytes_read < b->read_min) b->read_min = tx->bytes_read;
    if (tx->bytes_read > b->read_max) b->read_max = tx->bytes_read;
    if (tx->bytes_written < b->write_min) b->write_min = tx->bytes_written;
    if (tx->bytes_written > b->write_max) b->write_max = tx->bytes_written;
    if (tx->max_depth > b->max_depth) b->max_depth = tx->max_depth;
    b->cycles += tm_cycles() - tx->start_cycles;
}

/* Hardware commits run uninstrumented: no byte counts, no cycles (no begin hook ran). */
void tm_stats_block_htm_commit(struct tm_tx *tx)
{
    struct tm_block_stats *b = find_block(tx->stats, tx->htm_site);
    b->commits++;
    b->htm_commits++;
    if (b->max_depth < 1)
        b->max_depth = 1;
}

void tm_stats_abort(struct tm_tx *tx, enum tm_abort_reason reason)
{
    tx->stats->aborts[reason]++;
    if (tm_stats_enabled) {
        find_block(tx->stats, tx->site)->aborts[reason]++;
        if (tm_conflicts_enabled)
            tm_conflicts_abort(tx, reason);
    }
}

void tm_stats_nested_abort(struct tm_tx *tx)
{
    if (tm_stats_enabled)
        find_block(tx->stats, tx->site)->nested_aborts++;
}

/* Every commit counts once: in hardware, or under the software algorithm that ran it. */
static uint64_t commits_of(const struct tm_thread_stats *s)
{
    uint64_t n = s->htm_commits;
    for (int a = 0; a < TM_ALGO_COUNT; a++)
        n += s->by_algo[a];
    return n;
}

/* Sums exited threads and the living ones (their counters are read racily: statistics). */
static void collect(struct tm_thread_stats *all)
{
    memset(all, 0, sizeof *all);
    pthread_mutex_lock(&merged_lock);
    add_thread(all, &merged);
    pthread_mutex_unlock(&merged_lock);
    for (struct tm_tx *d = tm_all_descriptors(); d; d = d->next_all) {
        if (atomic_load(&d->in_use) && d->stats) {
            add_thread(all, d->stats);
            all->htm_commits += d->htm_commits;
            all->by_algo[TM_ALGO_serial] += fast_commits_since(d);
        }
    }
}

void libtm_totals_read(struct libtm_totals *out, size_t size)
{
    tm_htm_need_software();
    struct tm_thread_stats all;
    collect(&all);
    struct libtm_totals totals = { 0 }, *t = &totals;
    t->commits = commits_of(&all);
    for (int r = 0; r < ABORT_REASON_COUNT; r++)
        t->aborts += all.aborts[r];
    t->user_aborts = all.aborts[ABORT_USER];
    t->conflict_aborts = all.aborts[ABORT_CONFLICT_READ] + all.aborts[ABORT_CONFLICT_WRITE] +
                         all.aborts[ABORT_VALIDATE];
    t->irrevocable = all.irrevocable;
    t->serial = all.by_algo[TM_ALGO_serial];
    t->htm_commits = all.htm_commits;
    for (int k = 0; k < HTM_ABORT_KINDS; k++)
        t->htm_aborts += all.htm_aborts[k];
    t->open_commits = all.open_commits;
    t->compensations = all.compensations;
    free(all.blocks);
    memcpy(out, t, size < sizeof *t ? size : sizeof *t);
}

/* LIBTM_1.0's entry point: the struct as it was published then (six fields). */
__attribute__((symver("libtm_get_totals@LIBTM_1.0")))
void tm_compat_get_totals_1_0(struct libtm_totals *t);
void tm_compat_get_totals_1_0(struct libtm_totals *t)
{
    libtm_totals_read(t, offsetof(struct libtm_totals, htm_commits));
}

static void expand_path(const char *pattern, char *out, size_t size)
{
    size_t o = 0;
    for (const char *p = pattern; *p && o + 1 < size; p++) {
        if (p[0] == '%' && p[1] == 'p') {
            o += (size_t)snprintf(out + o, size - o, "%d", (int)getpid());
            p++;
        } else {
            out[o++] = *p;
        }
        if (o >= size)
            o = size - 1;
    }
    out[o] = '\0';
}

static void write_block(FILE *f, const struct tm_block_stats *b, bool first)
{
    Dl_info info;
    char module[4096] = "?";
    uintptr_t offset = (uintptr_t)b->site;
    if (dladdr(b->site, &info) && info.dli_fname) {
        /* An absolute path, so that the tool resolves sites from any directory. */
        if (!realpath(info.dli_fname, module))
            snprintf(module, sizeof module, "%s", info.dli_fname);
        offset = (uintptr_t)b->site - (uintptr_t)info.dli_fbase;
    }
    uint64_t aborts = 0;
    for (int r = 0; r < ABORT_REASON_COUNT; r++)
        aborts += b->aborts[r];
    fprintf(f, "%s\n    {\"site\": \"%p\", \"module\": \"%s\", \"offset\": \"0x%lx\", "
               "\"commits\": %lu, \"aborts\": %lu, \"abort_reasons\": {",
            first ? "" : ",", b->site, module, (unsigned long)offset,
            (unsigned long)b->commits, (unsigned long)aborts);
    for (int r = 0; r < ABORT_REASON_COUNT; r++)
        fprintf(f, "%s\"%s\": %lu", r ? ", " : "", tm_abort_reason_names[r],
                (unsigned long)b->aborts[r]);
    uint64_t n = b->commits ? b->commits : 1;
    fprintf(f, "}, \"nested_aborts\": %lu, \"irrevocable\": %lu, \"serial\": %lu, "
               "\"max_depth\": %u, "
               "\"read_bytes\": {\"min\": %lu, \"avg\": %.1f, \"max\": %lu, \"total\": %lu}, "
               "\"write_bytes\": {\"min\": %lu, \"avg\": %.1f, \"max\": %lu, \"total\": %lu}, "
               "\"cycles\": %lu, \"htm_commits\": %lu}",
            (unsigned long)b->nested_aborts, (unsigned long)b->irrevocable,
            (unsigned long)b->serial, b->max_depth,
            (unsigned long)(b->commits ? b->read_min : 0), (double)b->read_total / (double)n,
            (unsigned long)b->read_max, (unsigned long)b->read_total,
            (unsigned long)(b->commits ? b->write_min : 0), (double)b->write_total / (double)n,
            (unsigned long)b->write_max, (unsigned long)b->write_total,
            (unsigned long)b->cycles, (unsigned long)b->htm_commits);
}

int libtm_stats_write(const char *pattern)
{
    char path[4096];
    expand_path(pattern, path, sizeof path);
    tm_htm_need_software();
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    struct tm_thread_stats all;
    collect(&all);
    fprintf(f, "{\n  \"runtime\": \"libtm\", \"version\": \"%s\", \"pid\": %d, "
               "\"algorithm\": \"%s\", \"contention_manager\": \"%s\", \"adaptive\": %s,\n"
               "  \"commits\": %lu, \"irrevocable\": %lu, \"serial\": %lu, \"aborts\": {",
            LIBTM_VERSION, (int)getpid(), libtm_algorithm(),
            tm_config.cm->name, tm_config.forced ? "false" : "true",
            (unsigned long)commits_of(&all), (unsigned long)all.irrevocable,
            (unsigned long)all.by_algo[TM_ALGO_serial]);
    for (int r = 0; r < ABORT_REASON_COUNT; r++)
        fprintf(f, "%s\"%s\": %lu", r ? ", " : "", tm_abort_reason_names[r],
                (unsigned long)all.aborts[r]);
    fprintf(f, "},\n  \"htm\": %s, \"htm_commits\": %lu, \"htm_aborts\": {",
            tm_config.htm ? "true" : "false", (unsigned long)all.htm_commits);
    for (int k = 0; k < HTM_ABORT_KINDS; k++)
        fprintf(f, "%s\"%s\": %lu", k ? ", " : "", tm_htm_abort_names[k],
                (unsigned long)all.htm_aborts[k]);
    fprintf(f, "},\n  \"open_commits\": %lu, \"compensations\": %lu",
            (unsigned long)all.open_commits, (unsigned long)all.compensations);
    fprintf(f, ",\n  \"commits_by_mode\": {\"htm\": %lu", (unsigned long)all.htm_commits);
    for (int a = 0; a < TM_ALGO_COUNT; a++)
        fprintf(f, ", \"%s\": %lu", tm_algos[a]->name, (unsigned long)all.by_algo[a]);
    fprintf(f, "},\n  \"blocks\": [");
    bool first = true;
    for (size_t i = 0; i < all.capacity; i++) {
        if (all.blocks[i].site) {
            write_block(f, &all.blocks[i], first);
            first = false;
        }
    }
    fprintf(f, "\n  ]");
    if (tm_conflicts_enabled)
        tm_conflicts_write_json(f);
    fprintf(f, "\n}\n");
    free(all.blocks);
    return fclose(f) == 0 ? 0 : -1;
}

void tm_stats_mode_shares(char *out, size_t size)
{
    struct tm_thread_stats all;
    collect(&all);
    double n = commits_of(&all) ? (double)commits_of(&all) : 1;
    size_t used = (size_t)snprintf(out, size, "htm %.1f %%", 100.0 * (double)all.htm_commits / n);
    for (int a = 0; a < TM_ALGO_COUNT && used < size; a++)
        used += (size_t)snprintf(out + used, size - used, ", %s %.1f %%", tm_algos[a]->name,
                                 100.0 * (double)all.by_algo[a] / n);
    free(all.blocks);
}

static void write_at_exit(void)
{
    if (libtm_stats_write(tm_config.stats_path) != 0)
        tm_warn("cannot write statistics to %s: %s (LIBTM_STATS names the file; %%p is the pid)",
                tm_config.stats_path, strerror(errno));
}

/* Where LIBTM_CONFLICTS=1 writes without LIBTM_STATS. */
#define CONFLICTS_DEFAULT_PATH "libtm-stats.%p.json"

void tm_stats_init(void)
{
    bool conflicts = tm_conflicts_config();
    if (conflicts && !(tm_config.stats_path && *tm_config.stats_path))
        tm_config.stats_path = CONFLICTS_DEFAULT_PATH;
    if (conflicts)
        tm_conflicts_init();
    if (tm_config.stats_path && *tm_config.stats_path) {
        tm_stats_enabled = true;
        atexit(write_at_exit);
    }
}
