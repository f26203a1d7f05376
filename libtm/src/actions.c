/* User commit and undo actions (_ITM_addUserCommitAction / _ITM_addUserUndoAction) and the
 * compensations of open transactions (libtm_open). All kinds share one per-thread list, so that
 * a rollback runs undo actions and compensations in reverse registration order; its length is
 * part of every closed-nesting checkpoint. */
#include "actions.h"
#include "fatal.h"
#include "htm_guard.h"

/* Outside a transaction (a transactional clone called from plain code, e.g. libstdc++'s
 * exception destructors) a commit action runs at once and an undo action never runs. */
void _ITM_addUserCommitAction(itm_user_action fn, itm_transaction_id resuming_id, void *arg)
{
    tm_htm_need_software(); /* the list would be rolled back, or outlive the commit */
    struct tm_tx *tx = tm_current;
    if (resuming_id != ITM_NO_TRANSACTION_ID)
        tm_fatal_abort("_ITM_addUserCommitAction: resumingTransactionId must be "
                       "_ITM_noTransactionId (1), got %llu", (unsigned long long)resuming_id);
    if (!tx || tx->depth == 0) {
        fn(arg);
        return;
    }
    *TM_LOG_PUSH(&tx->actions, struct tm_user_action) =
        (struct tm_user_action){ fn, arg, ACTION_COMMIT };
}

void _ITM_addUserUndoAction(itm_user_action fn, void *arg)
{
    tm_htm_need_software();
    struct tm_tx *tx = tm_current;
    if (!tx || tx->depth == 0)
        return;
    *TM_LOG_PUSH(&tx->actions, struct tm_user_action) =
        (struct tm_user_action){ fn, arg, ACTION_UNDO };
}

void tm_actions_add_compensation(struct tm_tx *tx, itm_user_action fn, void *arg)
{
    *TM_LOG_PUSH(&tx->actions, struct tm_user_action) =
        (struct tm_user_action){ fn, arg, ACTION_COMPENSATE };
}

void tm_actions_adopt_commit(struct tm_tx *to, struct tm_tx *from)
{
    size_t n = TM_LOG_COUNT(&from->actions, struct tm_user_action);
    for (size_t i = 0; i < n; i++) {
        struct tm_user_action *a = TM_LOG_AT(&from->actions, struct tm_user_action, i);
        if (a->kind == ACTION_COMMIT)
            *TM_LOG_PUSH(&to->actions, struct tm_user_action) = *a;
    }
    from->actions.len = 0;
}

/* Commit actions run in registration order, outside any transaction. They may start new
 * transactions, which use the thread's action list: so the list is detached first. */
void tm_actions_run_commit(struct tm_tx *tx)
{
    if (tx->actions.len == 0)
        return;
    struct tm_log list = tx->actions;
    tx->actions = (struct tm_log){ 0 };
    size_t n = TM_LOG_COUNT(&list, struct tm_user_action);
    for (size_t i = 0; i < n; i++) {
        struct tm_user_action *a = TM_LOG_AT(&list, struct tm_user_action, i);
        if (a->kind == ACTION_COMMIT)
            a->fn(a->arg);
    }
    if (tx->actions.data == NULL) {
        list.len = 0;
        tx->actions = list; /* keep the capacity */
    } else {
        tm_log_release(&list);
    }
}

/* Undo actions and compensations registered after `from` run newest first; commit actions after
 * it are dropped. A compensation's entry goes only once it committed: if running it restarts the
 * outermost transaction instead (transaction.c), that rollback runs it. */
void tm_actions_rollback(struct tm_tx *tx, size_t from, tm_compensator compensate)
{
    while (tx->actions.len > from) {
        struct tm_user_action a =
            *(struct tm_user_action *)(tx->actions.data + tx->actions.len - sizeof a);
        if (a.kind == ACTION_COMPENSATE)
            compensate(tx, a.fn, a.arg);
        tx->actions.len -= sizeof a;
        if (a.kind == ACTION_UNDO)
            a.fn(a.arg);
    }
}
