/* Beginning, committing, cancelling and restarting transactions; nesting; irrevocability.
 * libtm/ABI.md §4-§7 is the contract. */
#include "transaction.h"
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

static inline void release_serial_lock(struct tm_tx *tx)
{
    if (tx->serial_hold == HOLD_READ)
        tm_serial_read_unlock(tx);
    else if (tx->serial_hold == HOLD_WRITE)
        tm_serial_write_unlock(tx);
    tx->serial_hold = HOLD_NONE;
}

/* ---- nesting -------------------------------------------------------------------------- */

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
    struct tm_checkpoint *cp = TM_LOG_PUSH(&tx->checkpoints, struct tm_checkpoint);
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
        tx->id = cp->id;
        tx->props = cp->props;
        tx->stack_top = cp->stack_top;
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

/* ---- serial mode ---------------------------------------------------------------------------
 * The cost of a transaction in every single-threaded program, and in serial mode: beginning
 * (and later committing) a transaction that cannot cancel while transactions run one at a
 * time. It runs the uninstrumented path at once, exclusively: a thread alone on the serial
 * lock's read side (tm_serial_lock_alone: no atomic instruction), otherwise with one
 * compare-and-swap on the lock word (in serial mode no reader can run, so there is nobody to
 * drain). No checkpoint, no logs, no stack frame. Everything else, and a busy lock word, takes
 * the general path below. */

static inline bool take_exclusive_fast(struct tm_tx *tx)
{
    if (tm_thread_count() == 1) {
        if (!tm_serial_lock_alone(tx))
            return false;
        tx->serial_hold = HOLD_READ;
        return true;
    }
    uint32_t free_word = 0;
    if (!tm_serial_turn_allows(tx) ||
        !atomic_compare_exchange_strong_explicit(&tm_serial_lock.word, &free_word, 1,
                                                 memory_order_acquire, memory_order_relaxed))
        return false;
    tx->serial_hold = HOLD_WRITE;
    /* The mode may have turned speculative before the word was ours: readers may run. */
    if (unlikely(atomic_load_explicit(&tm_serial_lock.speculative, memory_order_relaxed))) {
        release_serial_lock(tx);
        return false;
    }
    return true;
}

/* Only what an exclusive transaction that cannot cancel reads again: no checkpoint (it never
 * restarts), no outer properties or private-stack bound (only restarts and rollbacks read
 * them), no begin site or depth record (statistics are off on this path). tx->algo already is
 * tm_algo_irrevocable: between transactions it always is. */
static inline __attribute__((always_inline)) bool begin_serial(struct tm_tx *tx, uint32_t props)
{
    if ((props & (pr_hasNoAbort | pr_undoLogCode)) != pr_hasNoAbort || tm_stats_enabled ||
        atomic_load_explicit(&tm_serial_lock.algo, memory_order_relaxed) != TM_ALGO_serial ||
        !take_exclusive_fast(tx))
        return false;
    tx->state = TX_IRREVOCABLE;
    tx->irrevocable_needed = needs_irrevocability(props);
    tx->depth = 1;
    tx->props = props;
    tx->id = tm_next_id(tx);
    tm_eh_begin(tx);
    return true;
}

static inline __attribute__((always_inline)) bool commit_serial(struct tm_tx *tx)
{
    if (tx->state != TX_IRREVOCABLE || tx->depth != 1 ||
        (tx->actions.len | tx->allocs.len | tx->exception_objects.len) || tm_stats_enabled)
        return false;
    release_serial_lock(tx);
    tx->depth = 0;
    tx->state = TX_INACTIVE;
    tm_event_commit(tx);
    return true;
}

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

_Static_assert(TM_ALGO_serial == TM_ALGO_SERIAL_INDEX &&
                   offsetof(struct tm_serial_lock_line, algo) == TM_SERIAL_LOCK_ALGO_OFFSET,
               "stub_abi.h: the serial algorithm");

/* The stub calls this first while the mode is serial, before it saves any register: the serial
 * fast path, or 0 when the transaction needs tm_begin and its checkpoint. */
uint32_t tm_begin_serial(uint32_t props) __attribute__((visibility("hidden")));

uint32_t tm_begin_serial(uint32_t props)
{
    /* Inside a hardware transaction (a cancellable nested begin) it must abort first. */
    tm_htm_need_software();
    props &= ~(uint32_t)TM_PR_HTM_PRIVATE; /* the stub's bits (stub_abi.h) */
    struct tm_tx *tx = tm_current;
    if (likely(tx && tx->depth == 0 && tx->generation == tm_fork_generation) &&
        begin_serial(tx, props))
        return (props & pr_uninstrumentedCode) ? a_runUninstrumentedCode : a_runInstrumentedCode;
    return 0;
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
    uint32_t kind = props & (pr_instrumentedCode | pr_doesGoIrrevocable | pr_undoLogCode);
    if (unlikely(!tx || tx->depth != 0 || tx->generation != tm_fork_generation ||
                 kind != pr_instrumentedCode || tm_stats_enabled || tm_htm_mode_on() ||
                 !atomic_load_explicit(&tm_serial_lock.speculative, memory_order_relaxed)))
        return false;
    if (unlikely(!tm_serial_read_trylock(tx))) {
        tm_serial_read_unlock(tx);
        return false;
    }
    /* Stable while the read side is held. */
    const struct tm_algo *algo = tm_mode_algo();
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
    tx->read_path = algo->read_path;
    tx->write_path = algo->write_path;
    tx->jb = *jb;
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
    tm_actions_rollback(tx, 0);
    tm_allocs_rollback(tx, 0);
    tm_eh_rollback(tx, NULL);
    tx->checkpoints.len = 0;
    tx->exception_objects.len = 0;
}

void tm_restart(struct tm_tx *tx, enum tm_abort_reason reason)
{
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
        tm_actions_rollback(tx, saved.actions_len);
        tm_allocs_rollback(tx, saved.allocs_len);
        tm_eh_rollback(tx, &saved);
        tx->id = saved.id;
        tx->props = saved.props;
        tx->stack_top = saved.stack_top;
        tx->depth = saved.depth;
        tm_use_algo(tx, saved.algo);
        if (saved.algo->refresh_paths)
            saved.algo->refresh_paths(tx);
        tx->state = saved.state;
        tm_event_nested_abort(tx);
        tm_longjmp(&saved.jb, a_abortTransaction | a_restoreLiveVariables);
    }
    struct tm_jmpbuf jb = tx->jb;
    rollback_all(tx);
    tx->depth = 0;
    tx->state = TX_INACTIVE;
    tm_use_algo(tx, &tm_algo_irrevocable);
    tx->stack_top = 0;
    tm_event_abort(tx, ABORT_USER);
    tm_longjmp(&jb, a_abortTransaction | a_restoreLiveVariables);
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
    tm_event_commit(tx); /* still knows how the transaction ran */
    tx->depth = 0;
    tx->state = TX_INACTIVE;
    tm_use_algo(tx, &tm_algo_irrevocable); /* barriers outside transactions touch memory directly */
    tx->stack_top = 0;
    if (privatization_time)
        tm_privatization_wait(tx, privatization_time);
    after_commit(tx, speculative);
    return true;
}

/* The speculative path's common commit: an outermost speculative transaction without user
 * actions, allocations, exception objects or held blocks, statistics off, and a contention
 * manager that need not hear of it. Does what commit_outermost does for it, and returns
 * false when the algorithm refused the commit (the caller restarts the transaction). */
static inline __attribute__((always_inline)) bool commit_speculative(struct tm_tx *tx)
{
    uint64_t privatization_time = 0;
    if (!tx->algo->commit(tx, &privatization_time))
        return false;
    tm_serial_read_unlock(tx);
    tx->serial_hold = HOLD_NONE;
    tx->undo_log.len = 0;
    tx->checkpoints.len = 0;
    tx->stats->by_algo[tx->algo->id]++;
    tm_adapt_commit(tx);
    tx->depth = 0;
    tx->state = TX_INACTIVE;
    tm_use_algo(tx, &tm_algo_irrevocable);
    if (privatization_time)
        tm_privatization_wait(tx, privatization_time);
    return true;
}

static inline bool commit_speculative_applies(const struct tm_tx *tx)
{
    return tx && tx->depth == 1 && tx->state == TX_SPECULATIVE &&
           !(tx->actions.len | tx->allocs.len | tx->exception_objects.len) &&
           !tm_reclaim_holds(tx) && !tm_stats_enabled && !tm_config.cm_hears_ends;
}

void _ITM_commitTransaction(void)
{
    struct tm_tx *tx = tm_current;
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
    if (tx->state == TX_IRREVOCABLE)
        return;
    if (tx->state == TX_SERIAL) {
        mark_irrevocable(tx);
        return;
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
