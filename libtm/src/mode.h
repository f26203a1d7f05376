/* The execution mode: which algorithm new software transactions use and whether they try
 * hardware transactions first. Both live on the serial lock's line (serial_lock.h, which also
 * reads them) and change only under its write side, so no transaction ever runs concurrently
 * with one of another algorithm, and every hardware transaction (which reads the line) aborts
 * on a change. While
 * hardware transactions are on, software transactions run exclusively (the hardware would not
 * notice a speculative one's in-place writes): the software algorithm is then serial. */
#ifndef LIBTM_MODE_H
#define LIBTM_MODE_H

#include "serial_lock.h"

/* Switches to hardware transactions (with serial software transactions) or to `algo`.
 * Waits for running speculative transactions to end. tx is the caller's descriptor (or NULL
 * outside any thread's transaction); the caller is not inside a transaction. */
void tm_mode_set(struct tm_tx *tx, bool htm, enum tm_algo_id algo);

#endif
