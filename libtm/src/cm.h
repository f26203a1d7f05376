/* The contention-manager interface and the registry of managers (managers.def), as algo.h is
 * for algorithms.
 *
 * A contention manager decides what a speculative transaction does when it finds a location
 * owned by another transaction (wait, or restart), what it does before it restarts, and what a
 * transaction's end tells the others. It hears of these only through its operations, called by
 * contention.h's dispatch; the core never names a manager. Each manager keeps its state in two
 * slots of the descriptor that only it reads: a private one (this thread's) and a shared one
 * (what other threads read or write: an end count to wait on, a conflict matrix). Every manager
 * has its slots in every descriptor, so that libtm_set_contention_manager can switch managers
 * while threads run. Every wait is bounded or ends when the transaction waited for ends. */
#ifndef LIBTM_CM_H
#define LIBTM_CM_H

#include <stdbool.h>

struct tm_tx;

/* Registry indexes, from managers.def. */
enum tm_cm_id {
#define TM_CONTENTION_MANAGER(name) TM_CM_##name,
#include "managers.def"
#undef TM_CONTENTION_MANAGER
    TM_CM_COUNT
};

struct tm_cm {
    const char *name;
    enum tm_cm_id id;
    /* tx found a location that `owner`'s transaction holds: true after waiting (the algorithm
     * looks again), false to restart. NULL: restart at once. */
    bool (*conflict)(struct tm_tx *tx, struct tm_tx *owner);
    /* Between the rollback and the re-execution of a transaction that will restart (not after
     * a cancel). NULL: restart at once. */
    void (*before_restart)(struct tm_tx *tx);
    /* The outermost transaction ended (committed, or rolled back). NULL: the manager needs not
     * hear it, and ends then cost nothing. */
    void (*ended)(struct tm_tx *tx, bool committed);
    /* A descriptor starts or stops serving a thread (NULL: nothing to do). Every manager
     * hears these, not only the selected one. */
    void (*thread_start)(struct tm_tx *tx);
    void (*thread_exit)(struct tm_tx *tx);
};

/* The registered managers, indexed by enum tm_cm_id; the first is the default. */
extern const struct tm_cm *const tm_cms[TM_CM_COUNT];
/* The registered manager of that name, or NULL. */
const struct tm_cm *tm_cm_by_name(const char *name);
/* "backoff, immediate, ..., slice": for messages. */
const char *tm_cm_names(void);

#define TM_CONTENTION_MANAGER(name) extern const struct tm_cm tm_cm_##name;
#include "managers.def"
#undef TM_CONTENTION_MANAGER

/* The sizes of each manager's two slots in the descriptor (the managers check theirs). */
#define TM_CM_STATE_SIZE 32
#define TM_CM_SHARED_SIZE 32

/* Manager `id`'s private and shared state in descriptor `tx` (a constant offset each). */
#define tm_cm_state(tx, id, type) ((type *)(void *)(tx)->cm_state[(id)])
#define tm_cm_shared(tx, id, type) ((type *)(void *)(tx)->cm_shared[(id)])

#endif
