/* Changing the execution mode (mode.h). */
#include "mode.h"
#include "config.h"

void tm_mode_set(struct tm_tx *tx, bool htm, enum tm_algo_id algo)
{
    if (htm && !tm_config.htm)
        return;
    if (htm)
        algo = TM_ALGO_serial;
    if (tm_htm_mode_on() == htm &&
        atomic_load_explicit(&tm_serial_lock.algo, memory_order_relaxed) == algo)
        return;
    tm_serial_write_lock(tx);
    tm_serial_turns_reset();
    atomic_store_explicit(&tm_serial_lock.algo, (uint8_t)algo, memory_order_relaxed);
    atomic_store_explicit(&tm_serial_lock.speculative, tm_algos[algo]->speculative,
                          memory_order_relaxed);
    atomic_store_explicit(&tm_serial_lock.htm_mode, htm, memory_order_relaxed);
    tm_serial_write_unlock(tx);
}
