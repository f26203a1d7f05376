/* Fan-out of transaction events to statistics, contention management and adaptation. */
#include "events.h"
#include "adapt.h"
#include "contention.h"
#include "stats.h"

void tm_event_begin(struct tm_tx *tx)
{
    tx->cm_waits = 0;
    tx->bytes_read = 0;
    tx->bytes_written = 0;
    if (tm_stats_enabled)
        tx->start_cycles = tm_cycles();
}

void tm_event_commit(struct tm_tx *tx)
{
    tm_stats_commit(tx);
    tm_adapt_commit(tx);
    if (unlikely(tm_config.cm == CM_PRIORITY))
        tm_cm_after_commit(tx);
}

void tm_event_abort(struct tm_tx *tx, enum tm_abort_reason reason)
{
    tm_stats_abort(tx, reason);
}

void tm_event_nested_abort(struct tm_tx *tx)
{
    tm_stats_nested_abort(tx);
}
