/* Conflict records (LIBTM_CONFLICTS=1): for every abort that another transaction caused, the
 * victim's atomic block, the location (the address whose read failed validation or whose lock
 * was held), the block whose write caused it where the algorithm can know, and whether the
 * words really changed; for hardware aborts, the RTM status codes by block. Kept per thread
 * (struct tm_thread_stats), merged at thread exit, written into the statistics file
 * (libtm-stats --conflicts reads it).
 *
 * Cost: nothing while off. Everything is reached from paths that only run with per-block
 * statistics on (which LIBTM_CONFLICTS turns on: the barriers then go through the algorithms'
 * tables, where conflict_watch.c watches), or from aborts. */
#ifndef LIBTM_CONFLICTS_H
#define LIBTM_CONFLICTS_H

#include "tx.h"

#include <stdio.h>

extern bool tm_conflicts_enabled __attribute__((visibility("hidden")));

/* How a conflict's location relates to what the writer wrote. */
enum tm_conflict_class {
    CONFLICT_TRUE,         /* the words the victim read (or wanted) changed or were written */
    CONFLICT_FALSE_STRIPE, /* orec: other words of the same 32-byte stripe were written */
    CONFLICT_FALSE_ALIAS,  /* orec: another stripe whose record is the same was written */
    CONFLICT_UNKNOWN,      /* the algorithm cannot tell (no location found, a serial writer) */
    CONFLICT_CLASSES
};

/* What the algorithm found before the rollback (conflict_watch.c fills it in). */
struct tm_conflict_found {
    const void *addr;   /* NULL: unknown */
    void *writer_site;  /* NULL: unknown */
    enum tm_conflict_class cls;
};

/* Reads LIBTM_CONFLICTS; true when on (statistics must then be on too: stats.c). */
bool tm_conflicts_config(void);
void tm_conflicts_init(void);

/* Per-thread state: created at the thread's first transaction, merged at its exit. */
void tm_conflicts_thread_exit(struct tm_thread_stats *ts);

/* An outermost attempt begins (from tm_stats_begin: statistics on). */
void tm_conflicts_begin(struct tm_tx *tx);

/* The access the transaction is making (the table barriers note it before the algorithm
 * runs, so that a lock found held has an address). */
void tm_conflicts_note_access(struct tm_tx *tx, const void *addr, size_t len);
/* A read noted by the watched orec barriers (the word and its value then). */
struct tm_conflict_read {
    const void *addr;
    uint64_t value;
    size_t len;
};
const struct tm_conflict_read *tm_conflicts_reads(struct tm_tx *tx, size_t *count);
/* orec: a read the transaction logged and its value (for the true/false check at abort). */
void tm_conflicts_note_read(struct tm_tx *tx, const void *addr, const void *value, size_t len);
/* A conflict with a lock owner (events.c). */
void tm_conflicts_note_owner(struct tm_tx *tx, struct tm_tx *owner);

/* tm_restart, before the rollback: what the algorithm's logs still say. */
void tm_conflicts_before_rollback(struct tm_tx *tx, enum tm_abort_reason reason);
/* tm_stats_abort: counts the record of an abort caused by another transaction. */
void tm_conflicts_abort(struct tm_tx *tx, enum tm_abort_reason reason);
/* A hardware attempt aborted with RTM status `status`. */
void tm_conflicts_htm_abort(struct tm_tx *tx, uint32_t status);

/* Heap blocks that transactions allocated (alloc.c): named by the allocating block. */
void tm_conflicts_heap_alloc(struct tm_tx *tx, void *ptr, size_t size);
void tm_conflicts_heap_free(void *ptr);
/* The allocating block of the heap block holding `addr`, and the offset in it. */
bool tm_conflicts_heap_find(const void *addr, void **site, size_t *offset);

/* The "conflicts" and "htm_abort_codes" members of the statistics file (after "blocks"). */
void tm_conflicts_write_json(FILE *f);

/* conflict_watch.c: the algorithm-specific parts. */
void tm_conflict_watch_init(void);
void tm_conflict_find(struct tm_tx *tx, enum tm_abort_reason reason, const void *pending,
                      size_t pending_len, void *owner_site, struct tm_conflict_found *out);
/* orec: a store the transaction made under its lock (the writer's side table). */
void tm_conflict_orec_wrote(struct tm_tx *tx, const void *addr, size_t len);
/* norec: the transaction took the sequence lock: it is the next committer. */
void tm_conflict_norec_writer(struct tm_tx *tx);

#endif
