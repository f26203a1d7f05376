/* The per-thread transaction descriptor (struct tm_tx) and what every part of the runtime
 * reads of it. The services around it have headers of their own: registry.h (every
 * descriptor), thread.h (this thread's), serial_lock.h, privatization.h, undo_log.h, wait.h,
 * transaction.h, config.h. This file calls none of them. */
#ifndef LIBTM_TX_H
#define LIBTM_TX_H

#include "algo.h"
#include "cm.h"
#include "stub_abi.h"
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
    TX_SPECULATIVE, /* a speculative algorithm: holds the serial lock's read side */
    TX_SERIAL,      /* exclusive (serial lock write side), undo-logged: may still cancel */
    TX_IRREVOCABLE, /* exclusive, no logging, cannot cancel */
};

/* Why a transaction restarts or ends (statistics, contention management, retry policy). */
enum tm_abort_reason {
    ABORT_CONFLICT_READ = 0, /* read found a location locked by another transaction */
    ABORT_CONFLICT_WRITE,    /* write found a location locked by another transaction */
    ABORT_VALIDATE,          /* the read set changed (snapshot extension or commit) */
    ABORT_GO_SERIAL,         /* restart to run serial-irrevocable (mode change failed) */
    ABORT_USER,              /* __transaction_cancel */
    ABORT_EXCEPTION,         /* commit failed while an exception left the transaction */
    ABORT_REASON_COUNT
};

/* Why a hardware transaction aborted (statistics). */
enum tm_htm_abort_kind { HTM_ABORT_CONFLICT, HTM_ABORT_CAPACITY, HTM_ABORT_EXPLICIT,
                         HTM_ABORT_OTHER, HTM_ABORT_KINDS };

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
    uintptr_t stack_top;
};

enum tm_action_kind {
    ACTION_COMMIT,     /* _ITM_addUserCommitAction: after the outermost commit */
    ACTION_UNDO,       /* _ITM_addUserUndoAction: on rollback */
    ACTION_COMPENSATE, /* libtm_open's compensation: on rollback, as a transaction */
};

struct tm_user_action {
    itm_user_action fn;
    void *arg;
    enum tm_action_kind kind;
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

struct tm_thread_stats;

/* Blocks freed by committed speculative transactions that other transactions may still read:
 * returned to the allocator later (reclaim.c). */
struct tm_reclaim_batch;
struct tm_reclaim {
    struct tm_log pending;       /* struct tm_alloc_record, not yet in a batch */
    size_t pending_bytes;
    struct tm_reclaim_batch *batches; /* sealed, waiting for readers to move on */
    size_t held_bytes, held_blocks;   /* in the batches */
    uint32_t commits_since_poll;
};

/* Which side of the serial lock a transaction holds (struct tm_tx's serial_hold). */
enum tm_hold {
    HOLD_NONE,
    HOLD_READ,
    HOLD_WRITE,
    HOLD_WRITE_FAST, /* the write side, taken by the serial fast path (begin_x86_64.S) */
    HOLD_READ_ALONE, /* the read side of a thread alone, taken by the serial fast path */
};

/* Which fast path the barriers take (barriers.h), chosen with the algorithm (tm_use_algo) so
 * that a barrier looks at one byte instead of comparing algorithms and statistics. */
enum tm_read_path {
    TM_READ_DIRECT, /* plain load: exclusive, or the location is ours (a norec writer) */
    TM_READ_NOREC,  /* norec's logged read */
    TM_READ_OREC,   /* orec's read */
    TM_READ_CALL,   /* the algorithm's load through its table (statistics count first) */
};
enum tm_write_path {
    TM_WRITE_DIRECT, /* plain store: irrevocable */
    TM_WRITE_LOGGED, /* undo log, then store: serial, a norec writer */
    TM_WRITE_OREC,   /* orec lock, undo log, store */
    TM_WRITE_CALL,   /* the algorithm's store through its table */
};

struct tm_tx {
    /* --- private; every begin and commit uses these: one cache line --- */
    const struct tm_algo *algo; /* the barriers' algorithm: tm_algo_irrevocable when inactive */
    /* How the transaction runs, in one word that the serial fast path (begin_x86_64.S and
     * _ITM_commitTransaction) tests and writes with one instruction: 0 between transactions
     * while statistics are off, TM_RUN_SERIAL_FAST in its transactions. */
    union {
        struct {
            uint8_t state;       /* enum tm_state */
            uint8_t read_path;   /* enum tm_read_path */
            uint8_t write_path;  /* enum tm_write_path */
            uint8_t serial_hold; /* enum tm_hold */
            unsigned depth;      /* software nesting depth; hardware transactions leave it 0 */
        };
        uint64_t run;
    };
    unsigned generation; /* tm_fork_generation when this thread took the descriptor */
    /* Commits so far: those of the serial fast path, and the others (read by the adaptive
     * policy, the serial lock's turns and the statistics: tm_commits_so_far). */
    _Atomic unsigned adapt_commits;
    /* The transaction's id, the last one handed out from [.., id_block_end) (thread.h; the
     * serial fast path increments it and looks at the block's end every 64 commits). */
    uint64_t id, id_block_end;
    struct tm_thread_stats *stats; /* the registry's too: kept with the descriptor */
    _Atomic uint64_t serial_fast_commits;
    bool irrevocable_needed; /* the code asked for it (unsafe call, mode change, no
                              * instrumented path), as opposed to serial by policy */
    bool go_serial;      /* next (re)start runs exclusively (retry policy) */
    /* --- what a commit runs after the transaction; the serial commit checks the lengths --- */
    _Alignas(TM_CACHELINE) struct tm_log actions;
    struct tm_log allocs;
    struct tm_log exception_objects; /* {ptr, size} of exceptions allocated by this transaction */
    /* --- private, used by revocable transactions --- */
    void *htm_site;      /* begin site of the hardware transaction (statistics; stub_abi.h) */
    uint64_t htm_commits; /* hardware commits of this thread (statistics read it racily) */
    uint64_t serial_fast_counted; /* serial_fast_commits of the descriptor's earlier threads */
    struct tm_log undo_log;
    /* CFA of the innermost transaction that can roll back: stack below it (frames of functions
     * called inside that transaction) is dead after a rollback, so stores there bypass the
     * algorithm (no orecs, no logs). Meaningless while no revocable transaction runs. */
    uintptr_t stack_top;
    uintptr_t stack_lo;  /* lowest address of the thread's stack (0 if unknown) */
    uint64_t bytes_read, bytes_written; /* counted by the barriers while statistics are on */
    struct tm_log checkpoints;
    struct tm_jmpbuf jb; /* where the outermost transaction restarts */
    uint32_t restarts;   /* of the current outermost transaction */
    uint32_t attempts;   /* reader flag values handed out so far (tm_reader_value) */
    uint32_t outer_props; /* properties of the outermost transaction (restarts) */
    uint32_t props;       /* ... and of the innermost (closed nesting's checkpoints) */
    /* C++ exception state */
    uint32_t cxa_catch_count;
    uint32_t cxa_uncaught_saved;
    /* statistics of the current transaction */
    void *site;               /* return address of the outermost begin */
    uint64_t start_cycles;
    unsigned max_depth;
    struct tm_reclaim reclaim; /* blocks freed by committed transactions, not yet released */
    /* Open nesting (transaction.c: libtm_open). The descriptor that runs the open transactions
     * begun in this one's transactions (NULL until the first); while an open transaction runs
     * on this descriptor beside the transaction that began it, that one's descriptor (whose
     * serial-lock hold it shares); and in the outermost one, the latest privatization time of
     * the open transactions committed in it (1 if none needs a wait; 0: nothing to settle). */
    struct tm_tx *open_child;
    struct tm_tx *open_parent;
    uint64_t open_privatization;
    /* In the descriptor of open transactions: the clones of the last two functions run, the
     * most recent first (a lookup costs as much as the open transaction's commit). */
    struct tm_clone_memo {
        void *fn, *clone;
        unsigned changes; /* tm_clone_tables_changes when looked up */
    } open_clones[2];

    /* --- read by other threads: serial lock and privatization (privatization.c) --- */
    /* Non-zero while a transaction runs on the serial lock's read side: a value of its own per
     * attempt (tm_reader_value), so that a thread that saw it can tell later whether that
     * attempt has ended (reclaim.c). */
    _Alignas(TM_CACHELINE) _Atomic uint32_t reader;
    /* The snapshot time of a running transaction whose algorithm makes commits wait for older
     * snapshots (orec), else TM_INACTIVE. */
    _Atomic uint64_t published;
    /* What the algorithm's read fast path compares orec versions with (never more than its
     * snapshot allows). A thread waiting for this transaction to move on (privatization.c)
     * sets it to 0: the next barrier then validates and moves the snapshot forward (or
     * restarts); see tm_move_requested. Only this thread raises it, by compare-and-swap. */
    _Atomic uint64_t read_limit;
    _Atomic uint32_t dirty;        /* holds locks over data written in place */
    _Atomic uint32_t moved;        /* bumped on publishing while someone sleeps on it */
    _Atomic uint32_t move_waiters; /* threads sleeping until this one publishes */
    /* --- each contention manager's state that other threads read or write (cm.h) --- */
    _Alignas(TM_CACHELINE) unsigned char cm_shared[TM_CM_COUNT][TM_CM_SHARED_SIZE];
    /* --- the serial lock's turns (serial_lock.c) --- */
    _Alignas(TM_CACHELINE) _Atomic uint32_t turn_signal; /* bumped to wake this thread */
    _Atomic uint32_t turn_asleep;                        /* sleeps on turn_signal */
    /* This thread's releases that found another thread waiting, each one close after the
     * one before (serial_lock.c: a turn begins only for a holder whose transactions follow
     * each other), and its commit count and clock at the last of them. */
    unsigned turn_streak;
    unsigned turn_contended_at;
    int64_t turn_contended_ns;

    /* --- registry --- */
    struct tm_tx *next_all;   /* every descriptor ever created (never freed, recycled) */
    _Atomic bool in_use;
    unsigned thread_index;

    /* --- each algorithm's and each contention manager's private state (algo.h, cm.h) --- */
    _Alignas(TM_CACHELINE) unsigned char algo_state[TM_ALGO_COUNT][TM_ALGO_STATE_SIZE];
    unsigned char cm_state[TM_CM_COUNT][TM_CM_STATE_SIZE];
};

#define TM_INACTIVE UINT64_MAX
/* The commits of descriptor d so far, modulo 2^32 (other threads read it racily). */
static inline unsigned tm_commits_so_far(const struct tm_tx *d)
{
    return atomic_load_explicit(&d->adapt_commits, memory_order_relaxed) +
           (unsigned)atomic_load_explicit(&d->serial_fast_commits, memory_order_relaxed);
}

extern bool tm_stats_enabled __attribute__((visibility("hidden"))); /* begin_x86_64.S reads it */

/* thread.c. The descriptor lives in the thread control block's word that glibc reserves for
 * the TM runtime (%fs:0x50, where GCC's libitm keeps its own): one load, no GOT. */
static inline struct tm_tx *tm_current_tx(void)
{
    struct tm_tx *tx;
    __asm__ volatile("movq %%fs:0x50, %0" : "=r"(tx));
    return tx;
}
#define tm_current (tm_current_tx())

/* The current descriptor's read_path and write_path, mirrored in the next reserved word
 * (%fs:0x58, where GCC's libitm keeps its dispatch pointer): a barrier compares that byte
 * with one instruction and needs no test for a missing descriptor, since a thread without
 * one has 0 there (TM_READ_DIRECT, TM_WRITE_DIRECT). Written wherever the current
 * descriptor's paths change or another descriptor becomes current; the run word's writes
 * (begin_x86_64.S, the serial fast commit) leave both paths direct, as they were. */
static inline unsigned tm_paths_word(const struct tm_tx *tx)
{
    return tx ? (unsigned)tx->read_path | (unsigned)tx->write_path << 8 : 0;
}
static inline void tm_paths_mirror(unsigned paths)
{
    __asm__ volatile("movw %w0, %%fs:0x58" : : "r"(paths) : "memory");
}
/* Loads through GCC's %fs address space, so that a comparison takes the byte directly. */
static inline uint8_t tm_read_path_now(void)
{
    return *(const __seg_fs uint8_t *)0x58;
}
static inline uint8_t tm_write_path_now(void)
{
    return *(const __seg_fs uint8_t *)0x59;
}

/* The barriers' paths; statistics take the algorithm's table, where the bytes are counted. */
static inline void tm_use_paths(struct tm_tx *tx, enum tm_read_path r, enum tm_write_path w)
{
    tx->read_path = tm_stats_enabled ? TM_READ_CALL : (uint8_t)r;
    tx->write_path = tm_stats_enabled ? TM_WRITE_CALL : (uint8_t)w;
    if (tx == tm_current)
        tm_paths_mirror(tm_paths_word(tx));
}

/* Makes `algo` the one the barriers use. */
static inline void tm_use_algo(struct tm_tx *tx, const struct tm_algo *algo)
{
    tx->algo = algo;
    tm_use_paths(tx, (enum tm_read_path)algo->read_path, (enum tm_write_path)algo->write_path);
}

/* The private state of algorithm `id` (a constant offset into the descriptor). */
#define tm_algo_state(tx, id, type)                                                          \
    ((type *)(void *)(tx)->algo_state[(id)])

static inline void tm_set_current_tx(struct tm_tx *tx)
{
    __asm__ volatile("movq %0, %%fs:0x50" : : "r"(tx) : "memory");
    tm_paths_mirror(tm_paths_word(tx));
}
/* True for addresses in frames created inside the innermost cancellable transaction. */
static inline bool tm_private_stack(const struct tm_tx *tx, const void *addr)
{
    uintptr_t a = (uintptr_t)addr, sp;
    __asm__("movq %%rsp, %0" : "=r"(sp));
    return a < tx->stack_top && a >= sp;
}

/* Whether `d` is a transaction that tx, an open transaction, runs beside (its parent, or
 * theirs): this thread's own, suspended until tx ends. */
static inline bool tm_open_ancestor(const struct tm_tx *tx, const struct tm_tx *d)
{
    for (const struct tm_tx *p = tx->open_parent; p; p = p->open_parent)
        if (p == d)
            return true;
    return false;
}

static inline uint64_t tm_cycles(void)
{
    return __builtin_ia32_rdtsc();
}

#endif
