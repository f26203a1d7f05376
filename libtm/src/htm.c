/* Hardware transactions (Intel RTM) for transactions that offer an uninstrumented path and
 * cannot cancel, with the serial lock as fallback, as GCC's libitm "htm" method does.
 *
 * Coordination: hardware transactions read the serial lock word and the htm mode flag, so a
 * serial or irrevocable software transaction (the lock's writer) and switching the mode off
 * abort them all. Speculative software transactions (orec, norec) write in place, which the
 * hardware does not notice, so they never run while the mode is on: start_outermost checks the
 * mode after taking the lock's read side and goes exclusive when it is on, and the mode is only
 * switched on under the write side (no reader left). So while the mode is on every software
 * transaction is exclusive: serial-irrevocable, or serial with undo log when it may cancel.
 * The adaptive tuner (adapt.c) decides when the mode is on. */
#include "htm.h"
#include "events.h"
#include "thread.h"
#include "config.h"
#include "wait.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

_Static_assert(offsetof(struct tm_tx, htm_site) == TM_TX_HTM_SITE_OFFSET, "stub_abi.h: site");
_Static_assert(sizeof(bool) == 1, "begin_x86_64.S reads tm_stats_enabled as a byte");
_Static_assert((TM_PR_HTM_FELL_BACK | TM_PR_HTM_ATTEMPT_MASK) == TM_PR_HTM_PRIVATE &&
                   (TM_PR_HTM_ATTEMPT_MASK >> TM_PR_HTM_ATTEMPT_SHIFT) == 63,
               "stub_abi.h: private property bits");
_Static_assert(offsetof(struct tm_serial_lock_line, word) == 0 &&
                   offsetof(struct tm_serial_lock_line, htm_mode) == TM_SERIAL_LOCK_HTM_MODE_OFFSET,
               "stub_abi.h: serial lock line");
_Static_assert((TM_HTM_PROPS_WANTED & TM_HTM_PROPS_MASK) == TM_HTM_PROPS_WANTED &&
                   TM_HTM_PROPS_WANTED == (pr_instrumentedCode | pr_uninstrumentedCode |
                                           pr_hasNoAbort) &&
                   TM_HTM_PROPS_MASK == (TM_HTM_PROPS_WANTED | pr_doesGoIrrevocable |
                                         pr_undoLogCode),
               "stub_abi.h: property bits");

__thread uint32_t tm_htm_nested;

/* RTM abort status bits (Intel SDM vol. 1, 16.3.5). */
#define XABORT_EXPLICIT (1u << 0)
#define XABORT_RETRY    (1u << 1)
#define XABORT_CONFLICT (1u << 2)
#define XABORT_CAPACITY (1u << 3)

/* Hardware attempts of one transaction before it takes the serial lock: after conflicts
 * (the CPU says a retry may succeed), and after waits for a serial transaction to end. */
#define HTM_MAX_CONFLICT_ATTEMPTS 4
#define HTM_MAX_LOCK_WAITS 16

static enum tm_htm_abort_kind abort_kind(uint32_t status)
{
    if (status & XABORT_EXPLICIT)
        return HTM_ABORT_EXPLICIT;
    if (status & XABORT_CONFLICT)
        return HTM_ABORT_CONFLICT;
    if (status & XABORT_CAPACITY)
        return HTM_ABORT_CAPACITY;
    return HTM_ABORT_OTHER;
}

/* Called by the begin stub after a hardware abort, outside any transaction, with the abort
 * status and the property word (attempts so far in its top bits). Returns the property word
 * for another hardware attempt, or 0 to run the software path. */
uint32_t tm_htm_retry(uint32_t status, uint32_t props) __attribute__((visibility("hidden")));
uint32_t tm_htm_retry(uint32_t status, uint32_t props)
{
    struct tm_tx *tx = tm_self();
    if (tx->depth > 0)
        return 0; /* a begin nested in a software transaction, which holds the serial lock */
    tm_event_htm_abort(tx, abort_kind(status));
    if (unlikely(tm_conflicts_enabled))
        tm_conflicts_htm_abort(tx, status);
    uint32_t attempts = ((props & TM_PR_HTM_ATTEMPT_MASK) >> TM_PR_HTM_ATTEMPT_SHIFT) + 1;
    props = (props & ~TM_PR_HTM_ATTEMPT_MASK) | (attempts << TM_PR_HTM_ATTEMPT_SHIFT);
    if (status & XABORT_EXPLICIT) {
        if ((status >> 24) != TM_HTM_ABORT_LOCKED)
            return 0; /* mode off, or an entry point that needs software */
        /* A serial transaction runs: wait for it instead of queueing behind it. */
        unsigned round = 0;
        while (atomic_load_explicit(&tm_serial_lock.word, memory_order_acquire) != 0)
            tm_wait_pause(&round);
        return attempts < HTM_MAX_LOCK_WAITS && tm_htm_mode_on() ? props : 0;
    }
    /* Capacity aborts and faults would happen again; conflicts may not. */
    bool retry = (status & XABORT_RETRY) && attempts < HTM_MAX_CONFLICT_ATTEMPTS;
    return retry && tm_htm_mode_on() ? props : 0;
}

/* Every TM_HTM_COUNT_BATCH hardware commits, or every one with per-block statistics on. */
void tm_htm_commit_slow(struct tm_tx *tx)
{
    tm_event_htm_commits(tx, tx->htm_commits % TM_HTM_COUNT_BATCH == 0 ? TM_HTM_COUNT_BATCH : 0);
}
