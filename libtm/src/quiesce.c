/* Privatization safety by quiescence: after a writer commits at time t, it waits until no
 * other thread still runs a transaction whose snapshot is older than t. Such a transaction
 * could otherwise read data the committed transaction made private, or write it back on
 * rollback. Each thread publishes its snapshot (TM_INACTIVE outside transactions). */
#include "tx.h"

void tm_quiesce(struct tm_tx *tx, uint64_t time)
{
    for (struct tm_tx *d = tm_all_descriptors(); d; d = d->next_all) {
        if (d == tx)
            continue;
        unsigned round = 0;
        while (atomic_load_explicit(&d->published, memory_order_acquire) < time)
            tm_wait_pause(&round);
    }
}
