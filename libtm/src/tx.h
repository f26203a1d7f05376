/* The per-thread transaction descriptor and the internal interfaces between the runtime's
 * parts: algorithms (dispatch table), serial lock, undo log, events. */
#ifndef LIBTM_TX_H
#define LIBTM_TX_H

#include "itm_abi.h"
#include "log.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TM_CACHELINE 64
#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

/* Registers saved by _ITM_beginTransaction (begin_x86_64.S relies on this layout). */
struct tm_jmpbuf {
    void *cfa; /* caller's stack pointer after begin returns */
    uint64_t rbx, rbp, r12, r13, r14, r15;
    void *rip; /* return address into the caller */
};

/* How the current transaction executes. */
enum tm_state {
    TX_INACTIVE = 0,
    TX_SPECULATIVE, /* orec or norec: holds the serial lock's read side */
    TX_SERIAL,      /* exclusive (serial lock write side), undo-logged: may still cancel */
    TX_IRREVOCABLE, /* exclusive, no logging, cannot cancel */
};

/* Why a transaction restarts (statistics, retry policy). */
enum tm_abort_reason {
    ABORT_CONFLICT_READ = 0, /* read found a location locked by another transaction */
    ABORT_CONFLICT_WRITE,    /* write found a location locked by another transaction */
    ABORT_VALIDATE,          /* the read set changed (snapshot extension or commit) */
    ABORT_GO_SERIAL,         /* restart to run serial-irrevocable (mode change failed) */
    ABORT_USER,              /* __transaction_cancel */
    ABORT_EXCEPTION,         /* commit failed while an exception left the transaction */
    ABORT_REASON_COUNT
};

struct tm_tx;

/* An algorithm (a "method" in GCC's terms). Writes always take effect in place and are
 * undo-logged (see DESIGN.md: GCC may copy instrumented stack arrays with a plain memcpy). */
struct tm_algo {
    const char *name;
    bool speculative;        /* runs concurrently under the serial lock's read side */
    bool needs_quiescence;   /* committing writers wait for older snapshots (privatization) */
    void (*begin)(struct tm_tx *tx);
    void (*read)(struct tm_tx *tx, const void *addr, void *dst, size_t len);
    void (*write)(struct tm_tx *tx, void *addr, const void *src, size_t len);
    /* Makes the transaction's effects visible; false means it must restart instead. */
    bool (*commit)(struct tm_tx *tx);
    /* Called after the undo log was applied: release ownership, forget the read set. */
    void (*rollback)(struct tm_tx *tx);
    /* Checks the read set is still valid now (used before becoming irrevocable). */
    bool (*validate)(struct tm_tx *tx);
};

extern const struct tm_algo tm_algo_orec;
extern const struct tm_algo tm_algo_norec;
extern const struct tm_algo tm_algo_serial;      /* exclusive, undo log */
extern const struct tm_algo tm_algo_irrevocable; /* exclusive, direct */

/* A closed-nesting checkpoint: what an inner __transaction_cancel restores. */
struct tm_checkpoint {
    struct tm_jmpbuf jb;
    size_t undo_len, actions_len, allocs_len;
    uint64_t id;
    uint32_t props;
    unsigned depth; /* nesting depth outside the nested transaction */
    const struct tm_algo *algo;
    enum tm_state state;
    uint32_t cxa_catch_count, cxa_uncaught;
    void *site;
    uintptr_t stack_top;
};

struct tm_user_action {
    itm_user_action fn;
    void *arg;
    bool on_commit; /* commit action (else undo action) */
};

enum tm_alloc_kind {
    ALLOC_MALLOC,    /* allocated here: free() on rollback */
    ALLOC_NEW,       /* operator new: operator delete on rollback */
    ALLOC_NEW_ARRAY, /* operator new[]: operator delete[] on rollback */
    ALLOC_EXCEPTION, /* __cxa_allocate_exception: freed on rollback */
    FREE_MALLOC,     /* free() deferred to commit */
    FREE_DELETE,     /* operator delete deferred to commit */
    FREE_DELETE_ARRAY,
    FREE_DELETE_SIZED,
};

struct tm_alloc_record {
    void *ptr;
    size_t size;
    enum tm_alloc_kind kind;
};

struct tm_block_stats;

struct tm_tx {
    /* --- private, hot --- */
    const struct tm_algo *algo;
    enum tm_state state;
    enum { HOLD_NONE, HOLD_READ, HOLD_WRITE } serial_hold; /* serial lock side held */
    void *htm_site;      /* begin site of the hardware transaction (statistics; htm_abi.h) */
    unsigned depth;      /* software nesting depth; hardware transactions leave it 0 */
    uint32_t props;
    uint64_t htm_commits; /* hardware commits of this thread (statistics read it racily) */
    uint64_t snapshot;   /* orec: time of the snapshot; norec: sequence lock value */
    bool owns_locks;     /* orec: holds orecs; norec: holds the sequence lock */
    uint64_t commit_time; /* set by a commit that needs quiescence, else 0 */
    struct tm_log read_log;
    void *last_read_orec;   /* orec: last read-log entry, to skip repeats */
    uint64_t last_read_value;
    struct tm_log lock_log; /* orec: orecs acquired, with their previous versions */
    struct tm_log undo_log;
    struct tm_log actions;
    struct tm_log allocs;
    struct tm_log checkpoints;
    struct tm_log exception_objects; /* {ptr, size} of exceptions allocated by this transaction */
    struct tm_jmpbuf jb; /* where the outermost transaction restarts */
    /* CFA of the innermost transaction that can roll back: stack below it (frames of functions
     * called inside that transaction) is dead after a rollback, so accesses there bypass the
     * algorithm (no orecs, no logs). */
    uintptr_t stack_top;
    uint64_t id, id_block_end;
    uint32_t restarts;   /* of the current outermost transaction */
    enum tm_abort_reason last_abort;
    bool go_serial;      /* next (re)start runs exclusively */
    uint32_t outer_props; /* properties of the outermost transaction (restarts) */
    /* C++ exception state */
    uint32_t cxa_catch_count;
    uint32_t cxa_uncaught_saved;
    /* statistics of the current transaction */
    void *site;               /* return address of the outermost begin */
    uint64_t bytes_read, bytes_written;
    uint64_t start_cycles;
    unsigned max_depth;
    /* contention management */
    uint32_t cm_waits;  /* waits for owners in the current attempt */
    uint64_t rng;

    /* --- shared with other threads (own cache lines) --- */
    _Alignas(TM_CACHELINE) _Atomic uint64_t published; /* snapshot time or TM_INACTIVE */
    _Atomic int reader;       /* serial lock: 1 while a speculative transaction runs */
    _Alignas(TM_CACHELINE) _Atomic uint32_t end_seq; /* bumped when a transaction ends */
    _Atomic uint32_t end_waiters;
    _Atomic uint64_t priority;   /* contention manager "priority" policy */

    /* --- registry --- */
    struct tm_tx *next_all;   /* every descriptor ever created (never freed, recycled) */
    _Atomic bool in_use;
    unsigned thread_index;
    struct tm_thread_stats *stats;
};

#define TM_INACTIVE UINT64_MAX

/* thread.c */
extern __thread struct tm_tx *tm_current;
struct tm_tx *tm_tx_create(void);
static inline struct tm_tx *tm_self(void)
{
    struct tm_tx *tx = tm_current;
    if (unlikely(!tx))
        tx = tm_tx_create();
    return tx;
}
struct tm_tx *tm_all_descriptors(void);
unsigned tm_thread_count(void);

/* serial_lock.c: readers are speculative transactions, the writer runs alone. */
void tm_serial_read_lock(struct tm_tx *tx);
void tm_serial_read_unlock(struct tm_tx *tx);
void tm_serial_write_lock(struct tm_tx *tx);
void tm_serial_write_unlock(struct tm_tx *tx);
bool tm_serial_try_upgrade(struct tm_tx *tx); /* reader -> writer, false if another writer */
bool tm_serial_writer_active(void);
/* The lock word (0 free, else held by a writer) and the htm mode flag (htm.h), alone on a cache
 * line: every hardware transaction reads both (begin_x86_64.S: at offsets 0 and 4), so writes
 * to neighbours would abort them; both change rarely, and each change must abort them. */
struct tm_serial_lock_line {
    _Alignas(TM_CACHELINE) _Atomic uint32_t word;
    _Atomic uint8_t htm_mode; /* 1: new transactions try the hardware */
    char padding[TM_CACHELINE - sizeof(uint32_t) - 1];
};
extern struct tm_serial_lock_line tm_serial_lock __attribute__((visibility("hidden")));
void tm_serial_lock_after_fork(void);

/* undo_log.c */
void tm_undo_record(struct tm_tx *tx, const void *addr, size_t len);
void tm_undo_restore(struct tm_tx *tx, size_t from, const void *cfa);

/* quiesce.c: privatization safety */
void tm_quiesce(struct tm_tx *tx, uint64_t time);

/* wait.c: bounded spinning, then yielding or blocking */
void tm_wait_pause(unsigned *round);
void tm_futex_wait(_Atomic uint32_t *word, uint32_t expected, long timeout_ns);
void tm_futex_wake(_Atomic uint32_t *word);

/* transaction.c */
void tm_restart(struct tm_tx *tx, enum tm_abort_reason reason) __attribute__((noreturn));
void tm_go_irrevocable(struct tm_tx *tx);
void tm_longjmp(const struct tm_jmpbuf *jb, uint32_t action) __attribute__((noreturn));
uint64_t tm_new_id_block(struct tm_tx *tx);
/* A new transaction id (ids grow; a closed-nested transaction gets a larger one). */
static inline uint64_t tm_next_id(struct tm_tx *tx)
{
    if (likely(tx->id + 1 < tx->id_block_end))
        return ++tx->id;
    return tm_new_id_block(tx);
}

/* actions.c and alloc.c */
void tm_actions_run_commit(struct tm_tx *tx);
void tm_actions_rollback(struct tm_tx *tx, size_t from);
void tm_allocs_commit(struct tm_tx *tx);
void tm_allocs_rollback(struct tm_tx *tx, size_t from);
void tm_allocs_record(struct tm_tx *tx, void *ptr, size_t size, enum tm_alloc_kind kind);
void tm_allocs_forget(struct tm_tx *tx, void *ptr);

/* eh.c */
void tm_eh_begin(struct tm_tx *tx);
void tm_eh_rollback(struct tm_tx *tx, const struct tm_checkpoint *cp);
uint32_t tm_eh_uncaught_count(void);
void tm_eh_discard_exception(void *exception);

/* config.c */
struct tm_config {
    const struct tm_algo *algo; /* speculative algorithm */
    bool forced;                /* LIBTM_ALGO given: no adaptation */
    bool serial_only;           /* LIBTM_ALGO=serial */
    unsigned retries;           /* restarts before going serial */
    int cm;                     /* contention manager (cm.h) */
    bool verbose;
    bool htm;                   /* the CPU has RTM and LIBTM_HTM allows it (htm.c) */
    const char *stats_path;
};
extern struct tm_config tm_config;
void tm_config_init(void);

/* clone_table.c */
void *tm_clone_lookup(void *fn);

/* True for addresses in frames created inside the innermost cancellable transaction. */
static inline bool tm_private_stack(const struct tm_tx *tx, const void *addr)
{
    uintptr_t a = (uintptr_t)addr, sp;
    __asm__("movq %%rsp, %0" : "=r"(sp));
    return a < tx->stack_top && a >= sp;
}

static inline uint64_t tm_cycles(void)
{
    return __builtin_ia32_rdtsc();
}

#endif
