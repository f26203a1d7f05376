/* libtm_open (include/libtm.h): the open-nesting extension's entry point. What it means for the
 * thread's transaction (when the compensation is registered, and when not); how an open
 * transaction runs beside its parent is transaction.c's. */
#include "actions.h"
#include "fatal.h"
#include "htm_guard.h"
#include "thread.h"
#include "transaction.h"
#include "../include/libtm.h"

/* The declaration's transaction_safe pointer types let GCC check the callers' functions; here
 * they are plain functions (transaction.c finds their clones). */
void libtm_open(libtm_safe_fn fn, void *arg, libtm_safe_fn compensate, void *carg)
{
    /* Inside a hardware transaction: it aborts, and the enclosing transaction runs again in
     * software (exclusively, as software transactions run while hardware ones are on), where
     * this runs fn in a transaction of its own beside it. */
    tm_htm_need_software();
    if (!fn)
        tm_fatal_abort("libtm_open: fn is NULL; pass the transaction_safe function that the "
                       "open transaction runs");
    struct tm_tx *tx = tm_self();
    tm_run_open(tx, (itm_user_action)fn, arg, __builtin_return_address(0), false);
    /* Outside a transaction, or in an irrevocable one, nothing can roll fn back. */
    if (compensate && tx->depth > 0 && tx->state != TX_IRREVOCABLE)
        tm_actions_add_compensation(tx, (itm_user_action)compensate, carg);
}
