/* Waiting for another transaction to end, for the contention managers (cm_wait.c): an end
 * count that a manager keeps in its shared slot (cm.h) and bumps at every end of its thread's
 * transactions, and the waits on it. */
#ifndef LIBTM_CM_WAIT_H
#define LIBTM_CM_WAIT_H

#include "privatization.h"

struct tm_cm_end_count {
    _Atomic uint32_t seq;     /* bumped when a transaction of the thread ends */
    _Atomic uint32_t waiters; /* threads sleeping on seq */
};

/* A transaction of this thread ended. `sleepers`: waiters may sleep on the count (then the full
 * barrier between the count and the waiter count that tm_cm_sleep_until_end needs, and a
 * wake-up). Only the count's own thread writes it. */
void tm_cm_announce_end(struct tm_cm_end_count *count, bool sleepers);
/* Sleeps until `owner`'s end count (of a manager's slot in owner) differs from seq, or
 * timeout_ns passes (if > 0). */
void tm_cm_sleep_until_end(struct tm_tx *owner, struct tm_cm_end_count *count, uint32_t seq,
                           long timeout_ns);
/* Waits until `owner`'s end count moves: sleeping (bounded) if `block`, else spinning
 * (bounded, then yielding the processor). */
void tm_cm_wait_for_end(struct tm_tx *tx, struct tm_tx *owner, struct tm_cm_end_count *count,
                        bool block);

/* A thread waiting in privatization.c for this transaction to move on is answered before and
 * after each wait, so that waits do not chain. */
static inline void tm_cm_answer_move_request(struct tm_tx *tx)
{
    if (tx->algo->move_snapshot && tm_move_requested(tx))
        tx->algo->move_snapshot(tx);
}

#endif
