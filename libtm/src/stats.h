/* Statistics per thread and per atomic block (the return address of the begin call).
 * Collected only when LIBTM_STATS is set; the process totals are always counted. */
#ifndef LIBTM_STATS_H
#define LIBTM_STATS_H

#include "tx.h"
#include "conflicts.h"

struct tm_block_stats {
    void *site;
    uint64_t commits, aborts[ABORT_REASON_COUNT], nested_aborts;
    uint64_t irrevocable, serial;
    uint64_t read_min, read_max, read_total;
    uint64_t write_min, write_max, write_total;
    uint64_t cycles;
    unsigned max_depth;
    uint64_t htm_commits; /* of commits, in a hardware transaction */
};

struct tm_thread_stats {
    struct tm_block_stats *blocks; /* open addressing by site */
    size_t capacity, used;
    /* totals, kept even when per-block statistics are off */
    uint64_t aborts[ABORT_REASON_COUNT];
    uint64_t irrevocable; /* commits that the code made irrevocable (not serial by policy) */
    uint64_t by_algo[TM_ALGO_COUNT]; /* software commits by algorithm (exclusive: serial) */
    /* Hardware commits (also in commits) of exited threads; living ones count them in their
     * descriptor's htm_commits. Hardware attempts that aborted, by kind. */
    uint64_t htm_commits, htm_aborts[HTM_ABORT_KINDS];
    /* Of the commits, open transactions' (libtm_open) and compensations'. */
    uint64_t open_commits, compensations;
    struct tm_conflicts_thread *conflicts; /* LIBTM_CONFLICTS (conflicts.c), else NULL */
};

extern const char *const tm_abort_reason_names[ABORT_REASON_COUNT];
extern const char *const tm_htm_abort_names[HTM_ABORT_KINDS];

/* Per-block statistics on: the barriers count bytes (barriers.h), begin notes the time. */
static inline void tm_stats_begin(struct tm_tx *tx)
{
    tx->bytes_read = 0;
    tx->bytes_written = 0;
    tx->start_cycles = tm_cycles();
    if (unlikely(tm_conflicts_enabled))
        tm_conflicts_begin(tx);
}

void tm_stats_thread_start(struct tm_tx *tx);
void tm_stats_thread_exit(struct tm_tx *tx);
void tm_stats_block_commit(struct tm_tx *tx);

/* The process totals are always counted; per-block statistics only with LIBTM_STATS. */
static inline void tm_stats_commit(struct tm_tx *tx)
{
    struct tm_thread_stats *ts = tx->stats;
    ts->by_algo[tx->algo->id]++; /* exclusive ones count as serial */
    ts->irrevocable += tx->irrevocable_needed;
    if (unlikely(tm_stats_enabled))
        tm_stats_block_commit(tx);
}
void tm_stats_block_htm_commit(struct tm_tx *tx);

/* A hardware attempt aborted (counted in the fallback path, outside the transaction). */
static inline void tm_stats_htm_abort(struct tm_tx *tx, enum tm_htm_abort_kind kind)
{
    tx->stats->htm_aborts[kind]++;
}

void tm_stats_abort(struct tm_tx *tx, enum tm_abort_reason reason);
void tm_stats_nested_abort(struct tm_tx *tx);
void tm_stats_init(void);
/* "htm 12.0 %, orec 80.0 %, norec 0.0 %, serial 8.0 %" of the commits so far. */
void tm_stats_mode_shares(char *out, size_t size);

#endif
