/* Queries and the small ABI functions: version, transaction state and id, errors. */
#include "tx.h"
#include "fatal.h"
#include "htm_guard.h"

#include <stdlib.h>

const char *_ITM_libraryVersion(void)
{
    return "libtm 1.0 (drop-in for GNU libitm 0.90)";
}

int _ITM_versionCompatible(int version)
{
    return version == ITM_VERSION_NUMBER;
}

int _ITM_inTransaction(void)
{
    if (tm_in_htm())
        return inRetryableTransaction;
    struct tm_tx *tx = tm_current;
    if (!tx || tx->depth == 0)
        return outsideTransaction;
    return tx->state == TX_IRREVOCABLE ? inIrrevocableTransaction : inRetryableTransaction;
}

itm_transaction_id _ITM_getTransactionId(void)
{
    tm_htm_need_software();
    struct tm_tx *tx = tm_current;
    return tx && tx->depth > 0 ? tx->id : ITM_NO_TRANSACTION_ID;
}

void _ITM_error(const void *location, int code)
{
    (void)location;
    tm_fatal_abort("_ITM_error called by compiled code (error code %d)", code);
}
