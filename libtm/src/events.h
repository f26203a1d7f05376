/* Transaction events in one place: begin, commit, abort (with its reason) and conflicts.
 * Statistics, the contention manager and the adaptive mode choice listen here, so that the
 * algorithms never call them directly. */
#ifndef LIBTM_EVENTS_H
#define LIBTM_EVENTS_H

#include "tx.h"

void tm_event_begin(struct tm_tx *tx);    /* an outermost transaction (re)starts */
void tm_event_commit(struct tm_tx *tx);   /* the outermost transaction committed */
void tm_event_abort(struct tm_tx *tx, enum tm_abort_reason reason); /* rolled back */
void tm_event_nested_abort(struct tm_tx *tx); /* a closed nested transaction cancelled */

#endif
