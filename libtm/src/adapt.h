/* The adaptive choice between speculation and serial execution (DESIGN.md "Adapt to the
 * machine"): with one thread, or when measured throughput says so, transactions run serially
 * (irrevocable and uninstrumented when they cannot cancel, undo-logged when they can). */
#ifndef LIBTM_ADAPT_H
#define LIBTM_ADAPT_H

#include "tx.h"

bool tm_adapt_prefers_serial(struct tm_tx *tx);
void tm_adapt_commit(struct tm_tx *tx);
const char *tm_adapt_mode_name(void);

#endif
