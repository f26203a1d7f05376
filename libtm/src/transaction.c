/* Beginning, committing, cancelling and restarting transactions; nesting (flat, closed, and
 * open: libtm_open); irrevocability. libtm/ABI.md §4-§7 is the contract. */
#include "transaction.h"
#include "algo_norec.h"
#include "actions.h"
#include "alloc.h"
#include "clone_table.h"
#include "adapt.h"
#include "config.h"
#include "eh.h"
#include "events.h"
#include "fatal.h"
#include "htm.h"
#include "privatization.h"
#include "reclaim.h"
#include "serial_lock.h"
#include "stats.h"
#include "thread.h"
#include "undo_log.h"

#include <stddef.h>
#include <string.h>

/* ---- starting the outermost transaction ------------------------------------------------ */

static uint32_t start_open(struct tm_tx *tx, const struct tm_jmpbuf *jb); /* open nesting */
static void run_compensation(struct tm_tx *tx, itm_user_action fn, void *arg);
static void settle_open_after_cancel(struct tm_tx *tx);

static inline __attribute__((always_inline)) void enter_exclusive(struct tm_tx *tx,
                                                                   bool irrevocable)
{
    if (tm_thread_count() == 1 && tm_serial_lock_alone(tx)) {
        tx->serial_hold = HOLD_READ;
    } else {
        tm_serial_exclusive_lock(tx);
        tx->serial_hold = HOLD_WRITE;
    }
    tx->state = irrevocable ? TX_IRREVOCABLE : TX_SERIAL;
    tm_use_algo(tx, irrevocable ? &tm_algo_irrevocable : &tm_algo_serial);
}

/* A transaction without an instrumented path, or one that certainly goes irrevocable, must be
 * irrevocable when begin returns (ABI.md §4). */
static inline bool needs_irrevocability(uint32_t props)
{
    return !(props & pr_instrumentedCode) || (props & pr_doesGoIrrevocable);
}

/* Chooses how the outermost transaction runs and returns the code path to take. A transaction
 * that may cancel keeps its undo log even when it runs alone. `jb` is the begin's checkpoint,
 * kept before anything can restart the transaction (a speculative begin may) and only if it
 * can ever return to its begin: an irrevocable transaction cannot. On a restart it is NULL:
 * the descriptor has it already. */
static inline __attribute__((always_inline)) uint32_t start_outermost(struct tm_tx *tx,
                                                                      const struct tm_jmpbuf *jb)
{
    uint32_t props = tx->outer_props;
    if (unlikely(props & TM_PR_OPEN))
        return start_open(tx, jb);
    bool cancellable = !(props & pr_hasNoAbort);
    bool must_be_irrevocable = needs_irrevocability(props);

    tx->irrevocable_needed = must_be_irrevocable;
    tm_event_begin(tx);
    const struct tm_algo *algo = tm_mode_algo();
    if (!must_be_irrevocable && !tx->go_serial && algo->speculative) {
        tm_serial_read_lock(tx);
        /* The mode changes only under the write side: read again now that it is stable. */
        algo = tm_mode_algo();
        if (likely(algo->speculative)) {
            tx->serial_hold = HOLD_READ;
            tx->state = TX_SPECULATIVE;
            tm_use_algo(tx, algo);
            if (jb)
                tx->jb = *jb;
            algo->begin(tx);
            return a_runInstrumentedCode | a_saveLiveVariables;
        }
        tm_serial_read_unlock(tx);
    }
    enter_exclusive(tx, must_be_irrevocable || !cancellable);
    if (tx->state == TX_IRREVOCABLE)
        return (props & pr_uninstrumentedCode) ? a_runUninstrumentedCode : a_runInstrumentedCode;
    if (jb)
        tx->jb = *jb;
    return a_runInstrumentedCode | a_saveLiveVariables;
}

/* The transaction ended. Barriers outside transactions touch memory directly; the private-stack
 * bound means nothing until the next revocable transaction sets it. */
static inline void finish(struct tm_tx *tx)
{
    tx->depth = 0;
    tx->state = TX_INACTIVE;
    tm_use_algo(tx, &tm_algo_irrevocable);
}

static inline void release_serial_lock(struct tm_tx *tx)
{
    if (tx->serial_hold == HOLD_READ || tx->serial_hold == HOLD_READ_ALONE)
        tm_serial_read_unlock(tx);
    else if (tx->serial_hold == HOLD_WRITE || tx->serial_hold == HOLD_WRITE_FAST)
        tm_serial_write_unlock(tx);
    tx->serial_hold = HOLD_NONE;
}

/* ---- nesting -------------------------------------------------------------------------- */

/* What a cancel of the closed nested transaction that begins now restores (ABI.md §6). */
static void checkpoint_save(const struct tm_tx *tx, struct tm_checkpoint *cp,
                            const struct tm_jmpbuf *jb)
{
    cp->jb = *jb;
    cp->undo_len = tx->undo_log.len;
    cp->actions_len = tx->actions.len;
    cp->allocs_len = tx->allocs.len;
    cp->id = tx->id;
    cp->props = tx->props;
    cp->depth = tx->depth;
    cp->algo = tx->algo;
    cp->state = tx->state;
    cp->cxa_catch_count = tx->cxa_catch_count;
    cp->cxa_uncaught = tm_eh_uncaught_count();
    cp->stack_top = tx->stack_top;
}

/* Back in the enclosing transaction after the nested one committed: its id, properties and
 * private stack (the nested one's logs and actions now belong to it). */
static void checkpoint_resume(struct tm_tx *tx, const struct tm_checkpoint *cp)
{
    tx->id = cp->id;
    tx->props = cp->props;
    tx->stack_top = cp->stack_top;
}

/* ... or after the nested one was cancelled and its logs rolled back: also the depth and the
 * way the enclosing transaction runs. */
static void checkpoint_restore(struct tm_tx *tx, const struct tm_checkpoint *cp)
{
    checkpoint_resume(tx, cp);
    tx->depth = cp->depth;
    tm_use_algo(tx, cp->algo);
    if (cp->algo->refresh_paths)
        cp->algo->refresh_paths(tx);
    tx->state = cp->state;
}

static struct tm_checkpoint *top_checkpoint(struct tm_tx *tx)
{
    size_t n = TM_LOG_COUNT(&tx->checkpoints, struct tm_checkpoint);
    return n ? TM_LOG_AT(&tx->checkpoints, struct tm_checkpoint, n - 1) : NULL;
}

static uint32_t begin_nested(struct tm_tx *tx, uint32_t props, const struct tm_jmpbuf *jb)
{
    if (props & pr_hasNoAbort) {
        /* Flat nesting: the inner transaction cannot cancel, so it simply joins the outer. */
        tx->depth++;
        if (tx->depth > tx->max_depth)
            tx->max_depth = tx->depth;
        if (needs_irrevocability(props))
            tm_go_irrevocable(tx);
        if (tx->state == TX_IRREVOCABLE && (props & pr_uninstrumentedCode))
            return a_runUninstrumentedCode;
        return a_runInstrumentedCode;
    }
    /* Closed nesting: remember where an inner cancel returns to. */
    checkpoint_save(tx, TM_LOG_PUSH(&tx->checkpoints, struct tm_checkpoint), jb);
    tx->stack_top = (uintptr_t)jb->cfa;
    tx->depth++;
    if (tx->depth > tx->max_depth)
        tx->max_depth = tx->depth;
    tx->id = tm_next_id(tx);
    tx->props = props;
    if (tx->state == TX_IRREVOCABLE) {
        /* Still alone, but the inner part must be undo-logged so that it can cancel. */
        tx->state = TX_SERIAL;
        tm_use_algo(tx, &tm_algo_serial);
    }
    return a_runInstrumentedCode | a_saveLiveVariables;
}

static void commit_nested(struct tm_tx *tx)
{
    struct tm_checkpoint *cp = top_checkpoint(tx);
    if (cp && cp->depth == tx->depth - 1) {
        checkpoint_resume(tx, cp);
        if (cp->state == TX_IRREVOCABLE && tx->state == TX_SERIAL) {
            /* Back in an irrevocable outer transaction: the inner's undo log is useless. */
            tx->undo_log.len = cp->undo_len;
            tx->state = TX_IRREVOCABLE;
            tm_use_algo(tx, &tm_algo_irrevocable);
        }
        tx->checkpoints.len -= sizeof *cp;
    }
    tx->depth--;
}

/* ---- begin (called by the assembly stub) ---------------------------------------------- */

static inline uint32_t begin_general(uint32_t props, const struct tm_jmpbuf *jb)
{
    struct tm_tx *tx = tm_self();
    if (unlikely(props & pr_undoLogCode))
        tm_fatal("transaction compiled with pr_undoLogCode, which no runtime supports");
    if (tx->depth > 0)
        return begin_nested(tx, props, jb);
    tx->stack_top = (uintptr_t)jb->cfa;
    tx->props = tx->outer_props = props;
    tx->site = jb->rip;
    tx->restarts = 0;
    tx->go_serial = false;
    tx->depth = 1;
    tx->max_depth = 1;
    tx->id = tm_next_id(tx);
    tm_eh_begin(tx);
    return start_outermost(tx, jb);
}

/* Everything tm_begin's fast path leaves out. */
static uint32_t __attribute__((noinline)) begin_slow(uint32_t props, const struct tm_jmpbuf *jb)
{
    /* A begin the stub did not run in hardware, inside a hardware transaction (a cancellable
     * nested transaction, say): the whole transaction retries in software. */
    tm_htm_need_software();
    props &= ~(uint32_t)TM_PR_HTM_PRIVATE; /* the stub's bits (stub_abi.h) */
    return begin_general(props, jb);
}

/* The speculative path's common begin, written so that it calls nothing before its end and
 * saves no registers: an outermost transaction with an instrumented path that need not be
 * irrevocable, in a speculative mode, hardware transactions and statistics off, the serial
 * lock free. Does what begin_general and start_outermost do for it, or nothing (false). */
static inline __attribute__((always_inline)) bool begin_speculative(struct tm_tx *tx,
                                                                    uint32_t props,
                                                                    const struct tm_jmpbuf *jb)
{
    uint32_t kind = props & (pr_instrumentedCode | pr_doesGoIrrevocable | pr_undoLogCode |
                             TM_PR_OPEN);
    if (unlikely(!tx || tx->depth != 0 || tx->generation != tm_fork_generation ||
                 kind != pr_instrumentedCode || tm_stats_enabled || tm_htm_mode_on() ||
                 !atomic_load_explicit(&tm_serial_lock.speculative, memory_order_relaxed)))
        return false;
    if (unlikely(!tm_serial_read_trylock(tx))) {
        tm_serial_read_unlock(tx);
        return false;
    }
    /* Stable while the read side is held; the look above was before it, and the mode may have
     * become serial since (a transaction of a serial algorithm on the read side would run
     * unguarded beside others). */
    const struct tm_algo *algo = tm_mode_algo();
    if (unlikely(!algo->speculative)) {
        tm_serial_read_unlock(tx);
        return false;
    }
    props &= ~(uint32_t)TM_PR_HTM_PRIVATE;
    tx->props = tx->outer_props = props;
    tx->stack_top = (uintptr_t)jb->cfa;
    tx->site = jb->rip;
    tx->restarts = 0;
    tx->go_serial = false;
    tx->irrevocable_needed = false;
    tx->depth = 1;
    tx->max_depth = 1;
    tx->id = tm_next_id(tx);
    tm_eh_begin(tx);
    tx->serial_hold = HOLD_READ;
    tx->state = TX_SPECULATIVE;
    tx->algo = algo;
    /* Both path bytes with one load, into the descriptor and its mirror (tx is current). */
    _Static_assert(offsetof(struct tm_algo, write_path) == offsetof(struct tm_algo, read_path) + 1 &&
                       offsetof(struct tm_tx, write_path) == offsetof(struct tm_tx, read_path) + 1,
                   "read_path and write_path side by side");
    uint16_t paths;
    __builtin_memcpy(&paths, &algo->read_path, sizeof paths);
    __builtin_memcpy(&tx->read_path, &paths, sizeof paths);
    tm_paths_mirror(paths);
    tx->jb = *jb;
    if (algo == &tm_algo_norec)
        tm_norec_begin_fast(tx);
    else
        algo->begin(tx);
    return true;
}

uint32_t tm_begin(uint32_t props, const struct tm_jmpbuf *jb)
    __attribute__((visibility("hidden")));

uint32_t tm_begin(uint32_t props, const struct tm_jmpbuf *jb)
{
    if (likely(begin_speculative(tm_current, props, jb)))
        return a_runInstrumentedCode | a_saveLiveVariables;
    return begin_slow(props, jb);
}

/* ---- rollback, restart, cancel --------------------------------------------------------- */

/* Undoes everything the outermost transaction did and leaves the serial lock. */
static void rollback_all(struct tm_tx *tx)
{
    tm_undo_restore(tx, 0, tx->jb.cfa);
    tx->algo->rollback(tx);
    release_serial_lock(tx);
    tm_actions_rollback(tx, 0, run_compensation);
    tm_allocs_rollback(tx, 0);
    tm_eh_rollback(tx, NULL);
    tx->checkpoints.len = 0;
    tx->exception_objects.len = 0;
}

void tm_restart(struct tm_tx *tx, enum tm_abort_reason reason)
{
    if (unlikely(tm_conflicts_enabled))
        tm_conflicts_before_rollback(tx, reason); /* while the logs still say what was read */
    rollback_all(tx);
    tx->restarts++;
    tm_event_abort(tx, reason); /* decides tx->go_serial */
    tx->depth = 1;
    tx->props = tx->outer_props;
    tx->stack_top = (uintptr_t)tx->jb.cfa;
    uint32_t action = start_outermost(tx, NULL);
    tm_longjmp(&tx->jb, (action & (a_runInstrumentedCode | a_runUninstrumentedCode)) |
                            a_restoreLiveVariables);
}

void _ITM_abortTransaction(uint32_t reason)
{
    tm_htm_need_software();
    struct tm_tx *tx = tm_current;
    if (!tx || tx->depth == 0)
        tm_fatal_abort("_ITM_abortTransaction (__transaction_cancel) called outside a transaction");
    if (reason != userAbort && reason != (userAbort | outerAbort))
        tm_fatal_abort("_ITM_abortTransaction called with reason %u; only 1 (cancel) and 17 "
                       "(cancel [[outer]]) exist", reason);
    struct tm_checkpoint *cp = top_checkpoint(tx);
    enum tm_state outermost_state =
        tx->checkpoints.len ? TM_LOG_AT(&tx->checkpoints, struct tm_checkpoint, 0)->state
                            : tx->state;
    if (tx->state == TX_IRREVOCABLE ||
        ((reason & outerAbort) && outermost_state == TX_IRREVOCABLE))
        tm_fatal_abort("__transaction_cancel in an irrevocable transaction (it already ran "
                       "unsafe code or called _ITM_changeTransactionMode); it cannot roll back");

    if (!(reason & outerAbort) && cp) {
        /* Closed nesting: roll back only the innermost cancellable transaction. */
        struct tm_checkpoint saved = *cp;
        tx->checkpoints.len -= sizeof *cp;
        tm_undo_restore(tx, saved.undo_len, saved.jb.cfa);
        tm_actions_rollback(tx, saved.actions_len, run_compensation);
        tm_allocs_rollback(tx, saved.allocs_len);
        tm_eh_rollback(tx, &saved);
        checkpoint_restore(tx, &saved);
        tm_event_nested_abort(tx);
        tm_longjmp(&saved.jb, a_abortTransaction | a_restoreLiveVariables);
    }
    struct tm_jmpbuf jb = tx->jb;
    rollback_all(tx);
    finish(tx);
    if (unlikely(tx->open_privatization))
        settle_open_after_cancel(tx);
    tm_event_abort(tx, ABORT_USER);
    tm_longjmp(&jb, a_abortTransaction | a_restoreLiveVariables);
}

/* The serial fast path's begin takes the next id without a look at its block's end: the
 * commits look, with a margin far larger than the fast begins between two looks. */
#define ID_MARGIN (4 * TM_ADAPT_CHECK_EVERY)

static inline void id_block_check(struct tm_tx *tx)
{
    if (unlikely(tx->id + ID_MARGIN >= tx->id_block_end))
        tm_new_id_block(tx);
}

/* ---- commit ---------------------------------------------------------------------------- */

/* Runs after the outermost commit, outside the transaction: they may start new ones. A
 * transaction that ran speculatively may have freed blocks that others still read. */
static void after_commit(struct tm_tx *tx, bool speculative)
{
    if (tx->actions.len)
        tm_actions_run_commit(tx);
    if (tx->allocs.len)
        tm_allocs_commit(tx, speculative && tm_thread_count() > 1);
    if (unlikely(tm_reclaim_holds(tx)))
        tm_reclaim_after_commit(tx);
}

static bool commit_outermost(struct tm_tx *tx)
{
    /* An irrevocable transaction wrote directly and cannot fail: nothing to commit. */
    uint64_t privatization_time = 0;
    bool speculative = tx->state == TX_SPECULATIVE;
    if (tx->state != TX_IRREVOCABLE && !tx->algo->commit(tx, &privatization_time))
        return false;
    release_serial_lock(tx);
    tx->undo_log.len = 0;
    tx->checkpoints.len = 0;
    tx->exception_objects.len = 0;
    id_block_check(tx); /* the serial fast path's begin does not look */
    tm_event_commit(tx); /* still knows how the transaction ran */
    finish(tx);
    if (unlikely(tx->open_privatization)) {
        /* Open transactions committed inside: other transactions move past them too. */
        if (tx->open_privatization > privatization_time && tx->open_privatization > 1)
            privatization_time = tx->open_privatization;
        tx->open_privatization = 0;
    }
    if (privatization_time)
        tm_privatization_wait(tx, privatization_time);
    after_commit(tx, speculative);
    return true;
}

/* The speculative path's common commit: an outermost speculative transaction without user
 * actions, allocations, exception objects, held blocks or committed open transactions,
 * statistics off, and a contention manager that need not hear of it. Does what commit_outermost does for it, and returns
 * false when the algorithm refused the commit (the caller restarts the transaction). */
static inline __attribute__((always_inline)) bool commit_speculative(struct tm_tx *tx)
{
    uint64_t privatization_time = 0;
    if (tx->algo == &tm_algo_norec)
        tm_norec_end(tm_norec_state(tx)); /* norec_commit: always succeeds, no wait */
    else if (!tx->algo->commit(tx, &privatization_time))
        return false;
    tm_serial_read_unlock(tx);
    tx->undo_log.len = 0;
    tx->checkpoints.len = 0;
    tx->stats->by_algo[tx->algo->id]++;
    tm_adapt_commit(tx);
    /* finish() with statistics off: inactive, no hold, depth 0, direct paths, in one store. */
    tx->algo = &tm_algo_irrevocable;
    tx->run = 0;
    tm_paths_mirror(0);
    if (privatization_time)
        tm_privatization_wait(tx, privatization_time);
    return true;
}

/* ---- serial mode ---------------------------------------------------------------------------
 * The cost of a transaction in every single-threaded program, and in serial mode: a
 * transaction that cannot cancel, begun while transactions run one at a time, runs its
 * uninstrumented path exclusively. begin_x86_64.S begins it as a mutex is taken (one
 * compare-and-swap on the serial lock's word, which also checks the mode; no checkpoint, no
 * stack frame, no call) and marks the descriptor's run word TM_RUN_SERIAL_FAST; its commit
 * (commit_serial_fast) is a mutex's release: one exchange on the word, one counter, and one
 * look at whether a thread waits for its turn. What that leaves out runs later, or in rare
 * cases, out of line (serial_fast_commit_after): waking a waiter, the serial lock's turns,
 * and every TM_ADAPT_CHECK_EVERY commits the adaptive policy's look at the clock, the id
 * block's end and the blocks held for other transactions' readers. The fast path is never
 * taken while statistics are on or the contention manager hears ends (the mode bytes say so:
 * tm_startup). */
_Static_assert(TM_ALGO_serial == TM_ALGO_SERIAL_INDEX &&
                   offsetof(struct tm_serial_lock_line, algo) == TM_SERIAL_LOCK_ALGO_OFFSET &&
                   offsetof(struct tm_serial_lock_line, htm_mode) == TM_SERIAL_LOCK_MODE_OFFSET &&
                   offsetof(struct tm_serial_lock_line, speculative) ==
                       TM_SERIAL_LOCK_MODE_OFFSET + 2 &&
                   offsetof(struct tm_serial_lock_line, general_only) ==
                       TM_SERIAL_LOCK_MODE_OFFSET + 3 &&
                   offsetof(struct tm_serial_lock_line, turn) == TM_SERIAL_LOCK_TURN_OFFSET,
               "stub_abi.h: the serial lock's line");
_Static_assert(offsetof(struct tm_tx, run) == TM_TX_RUN_OFFSET &&
                   offsetof(struct tm_tx, state) == TM_TX_RUN_OFFSET &&
                   offsetof(struct tm_tx, serial_hold) == TM_TX_RUN_OFFSET + 3 &&
                   offsetof(struct tm_tx, depth) == TM_TX_RUN_OFFSET + 4 &&
                   offsetof(struct tm_tx, generation) == TM_TX_GENERATION_OFFSET &&
                   offsetof(struct tm_tx, id) == TM_TX_ID_OFFSET &&
                   offsetof(struct tm_tx, irrevocable_needed) == TM_TX_IRREVOCABLE_NEEDED_OFFSET &&
                   offsetof(struct tm_tx, reader) == TM_TX_READER_OFFSET &&
                   offsetof(struct tm_tx, actions) == TM_CACHELINE,
               "stub_abi.h: the descriptor's first line");
_Static_assert(TM_RUN_SERIAL_FAST == (TX_IRREVOCABLE | (uint64_t)TM_READ_DIRECT << 8 |
                                      (uint64_t)TM_WRITE_DIRECT << 16 |
                                      (uint64_t)HOLD_WRITE_FAST << 24 | (uint64_t)1 << 32) &&
                   TM_RUN_SERIAL_ALONE == (TX_IRREVOCABLE | (uint64_t)HOLD_READ_ALONE << 24 |
                                           (uint64_t)1 << 32) &&
                   TX_INACTIVE == 0 && TM_READ_DIRECT == 0 && TM_WRITE_DIRECT == 0 &&
                   HOLD_NONE == 0 && a_runUninstrumentedCode == 2 &&
                   TM_HTM_PROPS_WANTED == (pr_instrumentedCode | pr_uninstrumentedCode |
                                           pr_hasNoAbort),
               "stub_abi.h: the serial fast path's run word");

static __attribute__((noinline)) void serial_fast_commit_after(struct tm_tx *tx, uint32_t word,
                                                               uint64_t commits)
{
    tm_serial_after_unlock(tx, word);
    if ((commits & (TM_ADAPT_CHECK_EVERY - 1)) == 0) {
        id_block_check(tx);
        if (unlikely(tm_reclaim_holds(tx)))
            tm_reclaim_after_commit(tx);
        tm_adapt_check(tx);
    }
}

/* A transaction of the serial fast path commits (the caller has seen that it has no user
 * actions, allocations or exception objects for the general commit), else false. */
static inline __attribute__((always_inline)) bool commit_serial_fast(struct tm_tx *tx)
{
    /* finish(): inactive, direct paths (statistics are off), no hold, depth 0; tx->algo
     * stayed tm_algo_irrevocable. */
    uint64_t commits = atomic_load_explicit(&tx->serial_fast_commits, memory_order_relaxed) + 1;
    if (tx->run == TM_RUN_SERIAL_ALONE) {
        tx->run = 0;
        atomic_store_explicit(&tx->serial_fast_commits, commits, memory_order_relaxed);
        tm_serial_read_unlock(tx);
        if (unlikely((commits & (TM_ADAPT_CHECK_EVERY - 1)) == 0))
            serial_fast_commit_after(tx, 1, commits);
        return true;
    }
    if (tx->run != TM_RUN_SERIAL_FAST)
        return false;
    tx->run = 0;
    atomic_store_explicit(&tx->serial_fast_commits, commits, memory_order_relaxed);
    uint32_t word = tm_serial_word_release();
    if (unlikely(word != 1 || tm_serial_turn_queued() ||
                 (commits & (TM_ADAPT_CHECK_EVERY - 1)) == 0))
        serial_fast_commit_after(tx, word, commits);
    return true;
}

/* An exclusive transaction of the general path that cannot cancel and has nothing for the
 * general commit. */
static inline bool commit_serial(struct tm_tx *tx)
{
    if (tx->state != TX_IRREVOCABLE || tx->depth != 1 ||
        (tx->actions.len | tx->allocs.len | tx->exception_objects.len) || tm_stats_enabled)
        return false;
    release_serial_lock(tx);
    finish(tx);
    id_block_check(tx);
    tm_event_commit(tx);
    return true;
}

static inline bool commit_speculative_applies(const struct tm_tx *tx)
{
    return tx && tx->depth == 1 && tx->state == TX_SPECULATIVE &&
           !(tx->actions.len | tx->allocs.len | tx->exception_objects.len |
             tx->open_privatization) &&
           !tm_reclaim_holds(tx) && !tm_stats_enabled && !tm_config.cm_hears_ends;
}

/* The speculative path's common commit, apart so that the serial fast path needs no stack
 * frame; _ITM_commitTransaction has checked what commit_speculative_applies checks. */
static __attribute__((noinline)) void commit_speculative_out(struct tm_tx *tx)
{
    if (unlikely(!commit_speculative(tx)))
        tm_restart(tx, ABORT_VALIDATE);
}

/* Everything but the serial fast path, apart so that the fast path needs no stack frame. */
static __attribute__((noinline)) void commit_general(struct tm_tx *tx)
{
    if (likely(!tm_htm_mode_on() && commit_speculative_applies(tx))) {
        if (likely(commit_speculative(tx)))
            return;
        tm_restart(tx, ABORT_VALIDATE);
    }
    if (tm_in_htm()) {
        tm_htm_commit();
        return;
    }
    if (likely(tx) && commit_serial(tx))
        return;
    if (unlikely(!tx || tx->depth == 0))
        tm_fatal_abort("_ITM_commitTransaction called outside a transaction");
    if (tx->depth > 1) {
        commit_nested(tx);
        return;
    }
    if (!commit_outermost(tx))
        tm_restart(tx, ABORT_VALIDATE);
}

void _ITM_commitTransaction(void)
{
    struct tm_tx *tx = tm_current;
    if (likely(tx) && !(tx->actions.len | tx->allocs.len | tx->exception_objects.len)) {
        if (commit_serial_fast(tx))
            return;
        /* The speculative commit without commit_general's second look at the descriptor. */
        if (likely(!tm_htm_mode_on() && commit_speculative_applies(tx))) {
            commit_speculative_out(tx);
            return;
        }
    }
    commit_general(tx);
}

/* An exception leaves the transaction: it commits. If it cannot, the exception in flight is
 * dropped because the re-executed transaction throws its own. */
void _ITM_commitTransactionEH(void *exception)
{
    if (tm_in_htm()) {
        tm_htm_commit();
        return;
    }
    struct tm_tx *tx = tm_current;
    if (unlikely(!tx || tx->depth == 0))
        tm_fatal_abort("_ITM_commitTransactionEH called outside a transaction");
    if (tx->depth > 1) {
        commit_nested(tx);
        return;
    }
    if (!commit_outermost(tx)) {
        tm_eh_discard_exception(exception);
        tm_restart(tx, ABORT_EXCEPTION);
    }
}

/* ---- irrevocability -------------------------------------------------------------------- */

static void mark_irrevocable(struct tm_tx *tx)
{
    tx->state = TX_IRREVOCABLE;
    tm_use_algo(tx, &tm_algo_irrevocable);
    tx->undo_log.len = 0;
    /* Nothing can roll back any more: inner commits must not return to a revocable mode. */
    size_t n = TM_LOG_COUNT(&tx->checkpoints, struct tm_checkpoint);
    for (size_t i = 0; i < n; i++) {
        struct tm_checkpoint *cp = TM_LOG_AT(&tx->checkpoints, struct tm_checkpoint, i);
        cp->state = TX_IRREVOCABLE;
        cp->algo = &tm_algo_irrevocable;
        cp->undo_len = 0;
    }
}

void tm_go_irrevocable(struct tm_tx *tx)
{
    tx->irrevocable_needed = true;
    if (tx->state == TX_IRREVOCABLE) {
        /* A transaction of the serial fast path counts it in the general commit. */
        if (tx->serial_hold == HOLD_WRITE_FAST)
            tx->serial_hold = HOLD_WRITE;
        else if (tx->serial_hold == HOLD_READ_ALONE)
            tx->serial_hold = HOLD_READ;
        return;
    }
    if (tx->state == TX_SERIAL) {
        mark_irrevocable(tx);
        return;
    }
    if (tx->open_parent) {
        /* An open transaction cannot take the serial lock beside its parent, which holds it:
         * the outermost transaction restarts to run alone (escalate). */
        tx->go_serial = true;
        tm_restart(tx, ABORT_GO_SERIAL);
    }
    /* Speculative: become the serial lock's writer, then make sure what we read still holds. */
    if (!tm_serial_try_upgrade(tx))
        tm_restart(tx, ABORT_GO_SERIAL);
    tx->serial_hold = HOLD_WRITE;
    if (!tx->algo->validate(tx))
        tm_restart(tx, ABORT_GO_SERIAL);
    /* Alone now: publishes the writes done so far and cannot fail; nobody runs whom a
     * privatization wait would concern. */
    uint64_t unused_time;
    tx->algo->commit(tx, &unused_time);
    mark_irrevocable(tx);
}

void _ITM_changeTransactionMode(int mode)
{
    tm_htm_need_software(); /* irrevocable means the serial lock: retry in software */
    struct tm_tx *tx = tm_current;
    if (!tx || tx->depth == 0)
        tm_fatal_abort("_ITM_changeTransactionMode called outside a transaction");
    if (mode != 0)
        tm_fatal_abort("_ITM_changeTransactionMode: unknown mode %d (only modeSerialIrrevocable, 0)",
                       mode);
    tm_go_irrevocable(tx);
}

/* A function without a transactional clone can only run irrevocably (ABI.md). */
void *_ITM_getTMCloneOrIrrevocable(void *fn)
{
    tm_htm_need_software();
    void *clone = tm_clone_lookup(fn);
    if (clone)
        return clone;
    struct tm_tx *tx = tm_current;
    if (tx && tx->depth > 0)
        tm_go_irrevocable(tx);
    return fn;
}

/* ---- open nesting (libtm_open: open.c) -----------------------------------------------------
 * An open transaction runs a function as a transaction of its own while the transaction that
 * called libtm_open (its parent) is still running, and commits before libtm_open returns. It
 * runs on a descriptor of its own (tm_open_descriptor), which the thread makes current
 * meanwhile: the parent's logs, locks, snapshot, published time and reader flag stay as they
 * are, and to the algorithm the two are two transactions. Only the serial lock is shared: the
 * open transaction runs under its parent's hold (the parent's reader flag stands for both: a
 * writer waits for the parent, which waits for its open transaction), so it never takes the lock
 * itself, and what would need the lock's write side (running alone after too many restarts,
 * irrevocability) or cannot succeed beside the parent (a location the parent holds) restarts the
 * outermost transaction instead, which then runs alone (escalate). Under a parent that keeps
 * other writers out (serial or irrevocable, or norec's sequence lock) it runs with the serial
 * algorithm (alone among writers, undo-logged so that it can roll back); otherwise with the
 * parent's algorithm, beside every other transaction.
 *
 * It waits for nobody the parent could wait for: it takes no lock, its contention manager's
 * waits are bounded, and the privatization wait for its commit (and the release of the blocks
 * it freed) waits for the outermost transaction's end (commit_outermost,
 * settle_open_after_cancel), when the thread goes on outside transactions. So two threads whose
 * open transactions conflict with each other's parents both make progress. The outermost
 * transaction's commit path keeps one call of each of those waits, which the compiler then
 * inlines there. */

/* The parent keeps every other writer out (it runs alone, or its algorithm says so): then the
 * open transaction runs alone among writers, without a speculative algorithm. */
static bool excludes_writers(struct tm_tx *parent)
{
    if (parent->state == TX_SERIAL || parent->state == TX_IRREVOCABLE)
        return true;
    return parent->algo->excludes_writers && parent->algo->excludes_writers(parent);
}

static struct tm_tx *open_root(struct tm_tx *tx)
{
    while (tx->open_parent)
        tx = tx->open_parent;
    return tx;
}

/* The actions of the levels from `d` up to (not including) root join the root's, the oldest
 * first (rollback runs them newest first). */
static void adopt_actions(struct tm_tx *root, struct tm_tx *d)
{
    if (d == root)
        return;
    adopt_actions(root, d->open_parent);
    if (d->actions.len) {
        void *to = tm_log_append(&root->actions, d->actions.len);
        memcpy(to, d->actions.data, d->actions.len);
        d->actions.len = 0;
    }
}

/* The open transaction `tx` (rolled back) cannot go on beside its ancestors: it conflicted with
 * a location one of them holds, needs to become irrevocable, or restarted too often. Every
 * open level between it and the outermost transaction is abandoned (its memory restored and
 * locks released, newest first; its undo actions and compensations join the outermost
 * transaction's), and the outermost transaction restarts to run alone: then its open
 * transactions run alone too. */
static void __attribute__((noreturn)) escalate(struct tm_tx *tx)
{
    struct tm_tx *root = open_root(tx);
    for (struct tm_tx *d = tx->open_parent; d != root; d = d->open_parent) {
        tm_undo_restore(d, 0, d->jb.cfa);
        d->algo->rollback(d);
    }
    adopt_actions(root, tx->open_parent);
    for (struct tm_tx *d = tx, *up; d != root; d = up) {
        up = d->open_parent;
        if (d != tx) {
            tm_allocs_rollback(d, 0);
            tm_eh_rollback(d, NULL);
            d->checkpoints.len = 0;
            d->exception_objects.len = 0;
            tm_event_abort(d, ABORT_GO_SERIAL);
        }
        finish(d);
        d->open_parent = NULL;
    }
    tm_set_current_tx(root);
    tm_restart(root, ABORT_GO_SERIAL);
}

/* Begins (or restarts) an open transaction on tx under its parent's hold of the serial lock. */
static __attribute__((noinline)) uint32_t start_open(struct tm_tx *tx, const struct tm_jmpbuf *jb)
{
    struct tm_tx *parent = tx->open_parent;
    if (tx->go_serial)
        escalate(tx);
    tx->irrevocable_needed = false;
    tm_event_begin(tx);
    if (jb)
        tx->jb = *jb;
    if (excludes_writers(parent)) {
        tx->state = TX_SERIAL;
        tm_use_algo(tx, &tm_algo_serial);
    } else {
        tx->state = TX_SPECULATIVE;
        tm_use_algo(tx, parent->algo);
        tx->algo->begin(tx);
    }
    return a_runInstrumentedCode | a_saveLiveVariables;
}

/* An open transaction must not write what an enclosing transaction wrote: that one's rollback
 * would restore the old bytes under the compensation, which then undoes the open transaction a
 * second time. Both logs are short where open transactions pay (a counter, an allocator), and
 * this costs a look at each pair of entries; writes into the open transaction's own frames,
 * dead once it ends, do not count. */
static void check_own_data(struct tm_tx *tx)
{
    if (tx->undo_log.len == 0)
        return;
    for (struct tm_tx *a = tx->open_parent; a; a = a->open_parent) {
        size_t len;
        const void *at = tm_undo_overlap(a, tx, tx->stack_lo, (uintptr_t)tx->jb.cfa, &len);
        if (at)
            tm_fatal_abort("libtm_open: the open transaction wrote %zu byte(s) at %p, which its "
                           "enclosing transaction had written; an open transaction may only "
                           "touch data that only open transactions touch (libtm(7), OPEN "
                           "NESTING)", len, at);
    }
}

/* Commits the open transaction tx (depth 1): its effects are visible to every other transaction
 * now. What its commit leaves to do is the outermost transaction's: the privatization wait
 * (open_privatization), the blocks it freed, and its commit actions, which join the parent's
 * (tm_run_open). */
static void commit_open(struct tm_tx *tx)
{
    uint64_t privatization_time = 0;
    check_own_data(tx);
    if (tx->state != TX_IRREVOCABLE && !tx->algo->commit(tx, &privatization_time))
        tm_restart(tx, ABORT_VALIDATE);
    tx->undo_log.len = 0;
    tx->checkpoints.len = 0;
    tx->exception_objects.len = 0;
    tm_event_open_commit(tx);
    finish(tx);
    struct tm_tx *root = open_root(tx);
    if (privatization_time < 1)
        privatization_time = 1; /* nonzero: the root has something to settle */
    if (root->open_privatization < privatization_time)
        root->open_privatization = privatization_time;
}

uint32_t _ITM_beginTransaction(uint32_t properties, ...) __attribute__((returns_twice));

/* fn(arg) as a transaction on the thread's current descriptor: begun by the ABI's entry point,
 * so that a restart returns here as it returns to compiled code (nothing here changes after the
 * begin, and the descriptor is read again). `clone` is fn's transactional clone (NULL: fn has
 * none and runs irrevocably). Beside a parent it runs the clone and commits in commit_open;
 * alone (no transaction encloses it any more) it is an ordinary transaction, which may run fn
 * itself (serially or in hardware). */
static __attribute__((noinline)) void run_transaction(uint32_t props, itm_user_action fn,
                                                      itm_user_action clone, void *arg,
                                                      void *site)
{
    uint32_t action = _ITM_beginTransaction(props);
    struct tm_tx *tx = tm_current;
    tx->site = site;
    if (action & a_abortTransaction)
        return; /* cancelled with _ITM_abortTransaction(17), which GCC's code cannot do here */
    if (!clone)
        tm_go_irrevocable(tx);
    if ((action & a_runUninstrumentedCode) || !clone)
        fn(arg);
    else
        clone(arg);
    if (tx->open_parent)
        commit_open(tx);
    else
        _ITM_commitTransaction();
}

/* fn's clone, remembered in the descriptor that runs open transactions. */
static itm_user_action open_clone(struct tm_tx *open, itm_user_action fn)
{
    struct tm_clone_memo *memo = open->open_clones;
    unsigned changes = atomic_load_explicit(&tm_clone_tables_changes, memory_order_acquire);
    if (memo[0].fn != (void *)fn || memo[0].changes != changes) {
        struct tm_clone_memo older = memo[0];
        if (memo[1].fn == (void *)fn && memo[1].changes == changes)
            memo[0] = memo[1];
        else
            memo[0] = (struct tm_clone_memo){ (void *)fn, tm_clone_lookup((void *)fn), changes };
        memo[1] = older;
    }
    return (itm_user_action)memo[0].clone;
}

void tm_run_open(struct tm_tx *tx, itm_user_action fn, void *arg, void *site, bool compensation)
{
    struct tm_tx *open = tm_open_descriptor(tx);
    bool beside_parent = tx->serial_hold != HOLD_NONE || tx->open_parent;
    open->open_parent = beside_parent ? tx : NULL;
    itm_user_action clone = open_clone(open, fn);
    uint32_t props = beside_parent ? pr_instrumentedCode | TM_PR_OPEN
                     : clone       ? pr_instrumentedCode | pr_uninstrumentedCode | pr_hasNoAbort
                                   : pr_uninstrumentedCode | pr_hasNoAbort;
    tm_set_current_tx(open);
    run_transaction(props, fn, clone, arg, site);
    tm_set_current_tx(tx);
    tm_event_open_done(open, compensation);
    if (beside_parent) {
        open->open_parent = NULL;
        /* libtm_open's commit actions join tx's: they run after the outermost commit and are
         * dropped if tx rolls back (its compensation then undoes the open transaction). A
         * compensation runs in a rollback, which its commit actions would disturb: they run
         * now. Blocks it freed may still be read by others: the outermost transaction holds
         * them (reclaim.c). */
        if (open->actions.len) {
            if (compensation)
                tm_actions_run_commit(open);
            else
                tm_actions_adopt_commit(tx, open);
        }
        if (open->allocs.len)
            tm_allocs_commit_open(open, open_root(tx));
    }
}

static void nothing(void *arg)
{
    (void)arg;
}

/* The outermost transaction was cancelled after open transactions committed in it: before the
 * thread goes on outside transactions, the others move past those commits. An empty
 * transaction of its own does that: it reads at a snapshot newer than every one of them, and
 * its commit (commit_outermost) waits for the others as a read-only commit does. */
static __attribute__((noinline)) void settle_open_after_cancel(struct tm_tx *tx)
{
    struct tm_tx *open = tm_open_descriptor(tx);
    tx->open_privatization = 0;
    tm_set_current_tx(open);
    run_transaction(pr_instrumentedCode | pr_uninstrumentedCode | pr_hasNoAbort, nothing,
                    nothing, NULL, (void *)settle_open_after_cancel);
    tm_set_current_tx(tx);
}

/* Rolling back, a compensation runs as an open transaction of the transaction being rolled
 * back: beside it while it still holds the serial lock (a nested transaction's cancel, an open
 * transaction's restart), alone once it released it (the outermost rollback). Its site names
 * it by its function's first line (a site is a return address: statistics look one byte
 * before it). */
static void run_compensation(struct tm_tx *tx, itm_user_action fn, void *arg)
{
    tm_run_open(tx, fn, arg, (char *)(void *)fn + 1, true);
}
