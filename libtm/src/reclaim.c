/* Deferred reclamation of memory freed inside transactions.
 *
 * A speculative transaction may read a block after another transaction has unlinked and freed
 * it: it read the old pointer, and finds out that it is doomed only at its next validation.
 * Until then it reads the block (norec's validation even re-reads every logged address), so a
 * block that went back to the allocator at the freeing commit could be handed to someone else
 * or, when malloc serves it by mmap, unmapped under the reader, which then faults. So blocks
 * freed by a committed speculative transaction wait until every transaction that was running
 * when they were freed has ended.
 *
 * The scheme is epoch-like, built on the serial lock's reader flags: each attempt of a
 * transaction on the lock's read side stores a flag value of its own (tm_reader_value) and 0
 * when it ends (commit, rollback). A thread collects the blocks its commits freed and, every
 * SEAL_BLOCKS blocks, SEAL_BYTES bytes or POLL_EVERY commits, seals them into a batch: one
 * tm_serial_writer_fence (membarrier: every running thread of the process executes a full
 * barrier), then the flag of every other descriptor. An attempt whose flag is 0 then, or that
 * starts later, reads memory as it is after the frees' commits and cannot reach the blocks;
 * the batch keeps the non-zero flags it saw and is released once each of them has changed (that
 * attempt ended, and the acquire/release pair on the flag orders its reads before the free).
 * The thread looks at its batches when it seals, releases those whose attempts ended, and
 * drains them at exit. It waits for nobody, except while it holds more than HOLD_BYTES_MAX
 * or HOLD_BLOCKS_MAX: then for its oldest batch (spinning briefly, then yielding). Without the
 * fence, a reader whose flag store still sat in its store buffer would be missed although its
 * loads of the old pointer had already happened (readers store their flag without a fence:
 * serial_lock.h).
 *
 * Cost: nothing on transactions that free nothing (an attempt's flag value is one addition);
 * per freed block, a log entry and malloc_usable_size; per batch, one membarrier (0.4 us alone
 * and about 11 us with another thread running, measured on a 2-vCPU KVM guest), a walk of
 * the descriptors and a malloc. Exclusive transactions (serial, irrevocable, the hardware
 * fallback) ran with no speculative transaction beside them and free at once, as does a
 * thread while it is the only one. Hardware transactions free at once inside the
 * transaction: a hardware reader of the old pointer is aborted by the freeing commit's
 * write, and software speculative transactions never run beside hardware ones (htm.c).
 */
#include "reclaim.h"
#include "free_block.h"
#include "registry.h"
#include "serial_lock.h"
#include "wait.h"

#include <stdlib.h>
#include <string.h>

/* A batch per SEAL_BLOCKS blocks or SEAL_BYTES bytes, or after POLL_EVERY commits: enough that
 * the membarrier costs a commit little (11 us / 1024), few enough that little memory waits. */
#define SEAL_BLOCKS 1024
#define SEAL_BYTES (1u << 20)
#define POLL_EVERY 1024
#define HOLD_BYTES_MAX (64u << 20)
#define HOLD_BLOCKS_MAX 65536u

/* A running attempt that a batch waits for: the descriptor and its flag value then. */
struct watch {
    struct tm_tx *tx;
    uint32_t reader;
};

struct tm_reclaim_batch {
    struct tm_reclaim_batch *next;
    size_t blocks, bytes;
    size_t watching; /* watch[0 .. watching) have not ended yet */
    struct tm_alloc_record *records;
    struct watch watch[];
};

void tm_reclaim_defer(struct tm_tx *tx, const struct tm_alloc_record *r)
{
    struct tm_reclaim *rc = &tx->reclaim;
    *TM_LOG_PUSH(&rc->pending, struct tm_alloc_record) = *r;
    rc->pending_bytes += tm_freed_block_size(r);
}

static void free_records(const struct tm_alloc_record *r, size_t n)
{
    for (size_t i = 0; i < n; i++)
        tm_free_block(&r[i]);
}

/* Drops the watched attempts that have ended; true when none is left. */
static bool batch_done(struct tm_reclaim_batch *b)
{
    for (size_t i = 0; i < b->watching;) {
        const struct watch *w = &b->watch[i];
        if (atomic_load_explicit(&w->tx->reader, memory_order_acquire) != w->reader)
            b->watch[i] = b->watch[--b->watching];
        else
            i++;
    }
    return b->watching == 0;
}

static void release_batch(struct tm_reclaim *rc, struct tm_reclaim_batch *b)
{
    free_records(b->records, b->blocks);
    rc->held_bytes -= b->bytes;
    rc->held_blocks -= b->blocks;
    free(b);
}

static void release_done_batches(struct tm_reclaim *rc)
{
    for (struct tm_reclaim_batch **p = &rc->batches; *p;) {
        struct tm_reclaim_batch *b = *p;
        if (batch_done(b)) {
            *p = b->next;
            release_batch(rc, b);
        } else {
            p = &b->next;
        }
    }
}

/* Waits until batch_done(b): used when the thread holds too much, or exits. */
static void wait_for_batch(struct tm_reclaim_batch *b)
{
    unsigned round = 0;
    while (!batch_done(b))
        tm_wait_pause(&round);
}

/* The running attempts of other threads, after a fence that makes every flag stored before it
 * visible; appended to `out` (struct watch). */
static void collect_running(struct tm_tx *self, struct tm_log *out)
{
    tm_serial_writer_fence();
    for (struct tm_tx *d = tm_all_descriptors(); d; d = d->next_all) {
        if (d == self)
            continue;
        uint32_t reader = atomic_load_explicit(&d->reader, memory_order_acquire);
        if (reader) {
            struct watch *w = TM_LOG_PUSH(out, struct watch);
            w->tx = d;
            w->reader = reader;
        }
    }
}

/* Turns the pending blocks into a batch, or frees them at once if nobody else runs. */
static void seal(struct tm_tx *self)
{
    struct tm_reclaim *rc = &self->reclaim;
    size_t blocks = TM_LOG_COUNT(&rc->pending, struct tm_alloc_record);
    const struct tm_alloc_record *records = (const struct tm_alloc_record *)rc->pending.data;
    struct tm_log running = { 0 };
    collect_running(self, &running);
    size_t watching = TM_LOG_COUNT(&running, struct watch);
    struct tm_reclaim_batch *b = NULL;
    if (watching)
        b = malloc(sizeof *b + watching * sizeof(struct watch) + blocks * sizeof *records);
    if (b) {
        b->blocks = blocks;
        b->bytes = rc->pending_bytes;
        b->watching = watching;
        memcpy(b->watch, running.data, watching * sizeof(struct watch));
        b->records = (struct tm_alloc_record *)(void *)(b->watch + watching);
        memcpy(b->records, records, blocks * sizeof *records);
        b->next = rc->batches;
        rc->batches = b;
        rc->held_bytes += b->bytes;
        rc->held_blocks += blocks;
    } else {
        /* Nobody to wait for; or no memory for a batch: then wait here (attempts end soon). */
        const struct watch *w = (const struct watch *)(void *)running.data;
        unsigned round = 0;
        for (size_t i = 0; i < watching; i++)
            while (atomic_load_explicit(&w[i].tx->reader, memory_order_acquire) == w[i].reader)
                tm_wait_pause(&round);
        free_records(records, blocks);
    }
    tm_log_release(&running);
    rc->pending.len = 0;
    rc->pending_bytes = 0;
}

void tm_reclaim_after_commit(struct tm_tx *tx)
{
    struct tm_reclaim *rc = &tx->reclaim;
    bool full = TM_LOG_COUNT(&rc->pending, struct tm_alloc_record) >= SEAL_BLOCKS ||
                rc->pending_bytes >= SEAL_BYTES;
    if (!full && ++rc->commits_since_poll < POLL_EVERY)
        return;
    rc->commits_since_poll = 0;
    release_done_batches(rc);
    if (rc->pending.len)
        seal(tx);
    /* Too much held: wait for the oldest batches (the list's tail) until below the limits. */
    while (rc->batches && (rc->held_bytes > HOLD_BYTES_MAX || rc->held_blocks > HOLD_BLOCKS_MAX)) {
        struct tm_reclaim_batch **oldest = &rc->batches;
        while ((*oldest)->next)
            oldest = &(*oldest)->next;
        struct tm_reclaim_batch *b = *oldest;
        wait_for_batch(b);
        *oldest = NULL;
        release_batch(rc, b);
    }
}

void tm_reclaim_drain(struct tm_tx *tx)
{
    struct tm_reclaim *rc = &tx->reclaim;
    if (rc->pending.len)
        seal(tx);
    while (rc->batches) {
        struct tm_reclaim_batch *b = rc->batches;
        wait_for_batch(b);
        rc->batches = b->next;
        release_batch(rc, b);
    }
}
