/* The per-thread transaction descriptor and the internal interfaces of the core: the serial
 * lock, the undo log, waiting, restarting. Algorithms (algo.h) and policies (events.h) build on
 * this file; it depends on neither. */
#ifndef LIBTM_TX_H
#define LIBTM_TX_H

#include "algo.h"
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

struct tm_thread_stats;

/* The per-thread state of the contention managers (contention.c). */
struct tm_cm_state {
    struct tm_tx *owner;   /* handoff: the winner of the last conflict */
    uint32_t owner_seq;    /* ... and its end count when the conflict happened */
    uint32_t waits;        /* spin/block: waits for owners in the current attempt */
    uint64_t rng;
    int64_t slice_start;   /* slice: monotonic ns at the thread's last yield */
    int tid;               /* priority, softprio: the thread's kernel id ... */
    int nice;              /* ... and its nice value before it was lowered */
    bool lowered;          /* priority, softprio: the nice value is raised now */
};

/* Which side of the serial lock a transaction holds (struct tm_tx's serial_hold). */
enum tm_hold { HOLD_NONE, HOLD_READ, HOLD_WRITE };

struct tm_tx {
    /* --- private; every begin and commit uses these: one cache line --- */
    const struct tm_algo *algo; /* the barriers' algorithm: tm_algo_irrevocable when inactive */
    enum tm_state state;
    unsigned depth;      /* software nesting depth; hardware transactions leave it 0 */
    uint32_t props;
    unsigned generation; /* tm_fork_generation when this thread took the descriptor */
    uint64_t id, id_block_end;
    struct tm_thread_stats *stats; /* the registry's too: kept with the descriptor */
    /* C++ exception state */
    uint32_t cxa_catch_count;
    uint32_t cxa_uncaught_saved;
    _Atomic unsigned adapt_commits; /* commits so far, for the adaptive policy (adapt.h) */
    uint8_t serial_hold; /* enum tm_hold */
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
    uint32_t outer_props; /* properties of the outermost transaction (restarts) */
    /* statistics of the current transaction */
    void *site;               /* return address of the outermost begin */
    uint64_t start_cycles;
    unsigned max_depth;
    struct tm_cm_state cm; /* contention manager (contention.h) */

    /* --- read by other threads: serial lock and privatization (privatization.c) --- */
    _Alignas(TM_CACHELINE) _Atomic int reader; /* 1 while a speculative transaction runs */
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
    /* --- contention managers waiting for this transaction to end --- */
    _Alignas(TM_CACHELINE) _Atomic uint32_t end_seq; /* bumped when a transaction ends */
    _Atomic uint32_t end_waiters;
    _Atomic uint64_t losers;     /* softprio: threads (index % 64) that lost to this one */
    _Atomic uint64_t lowered_by; /* softprio: threads (index % 64) this one lost to */

    /* --- registry --- */
    struct tm_tx *next_all;   /* every descriptor ever created (never freed, recycled) */
    _Atomic bool in_use;
    unsigned thread_index;

    /* --- each algorithm's private state (algo.h) --- */
    _Alignas(TM_CACHELINE) unsigned char algo_state[TM_ALGO_COUNT][TM_ALGO_STATE_SIZE];
};

#define TM_INACTIVE UINT64_MAX

/* The private state of algorithm `id` (a constant offset into the descriptor). */
#define tm_algo_state(tx, id, type)                                                          \
    ((type *)(void *)(tx)->algo_state[(id)])

/* thread.c. The descriptor lives in the thread control block's word that glibc reserves for
 * the TM runtime (%fs:0x50, where GCC's libitm keeps its own): one load, no GOT. */
static inline struct tm_tx *tm_current_tx(void)
{
    struct tm_tx *tx;
    __asm__ volatile("movq %%fs:0x50, %0" : "=r"(tx));
    return tx;
}
static inline void tm_set_current_tx(struct tm_tx *tx)
{
    __asm__ volatile("movq %0, %%fs:0x50" : : "r"(tx) : "memory");
}
#define tm_current (tm_current_tx())
struct tm_tx *tm_tx_create(void);
/* Bumped in a forked child: a thread that the child creates may inherit the control block of
 * a parent's thread (glibc reuses its memory) with that thread's descriptor in the TM word. */
extern unsigned tm_fork_generation;
static inline struct tm_tx *tm_self(void)
{
    struct tm_tx *tx = tm_current;
    if (unlikely(!tx || tx->generation != tm_fork_generation))
        tx = tm_tx_create();
    return tx;
}
struct tm_tx *tm_all_descriptors(void);
extern _Atomic unsigned tm_threads __attribute__((visibility("hidden"))); /* registered */
static inline unsigned tm_thread_count(void)
{
    return atomic_load_explicit(&tm_threads, memory_order_relaxed);
}

/* serial_lock.c: readers are speculative transactions, the writer runs alone. */
void tm_serial_lock_init(void);
void tm_serial_read_lock_slow(struct tm_tx *tx);
void tm_serial_write_lock(struct tm_tx *tx);
void tm_serial_write_unlock(struct tm_tx *tx);
bool tm_serial_try_upgrade(struct tm_tx *tx); /* reader -> writer, false if another writer */
bool tm_serial_writer_active(void);
/* The lock word (0 free, else held by a writer), the htm mode flag (htm.h) and the algorithm
 * that new software transactions use (mode.c), alone on a cache line: every hardware
 * transaction reads the first two (begin_x86_64.S: offsets 0 and 4), so writes to neighbours
 * would abort them; all change rarely, and the flag and the algorithm change only under the
 * write side. */
struct tm_serial_lock_line {
    _Alignas(TM_CACHELINE) _Atomic uint32_t word;
    _Atomic uint8_t htm_mode; /* 1: new transactions try the hardware */
    _Atomic uint8_t algo;     /* enum tm_algo_id of new software transactions */
    char padding[TM_CACHELINE - sizeof(uint32_t) - 2];
};
extern struct tm_serial_lock_line tm_serial_lock __attribute__((visibility("hidden")));
void tm_serial_lock_after_fork(void);
extern bool tm_serial_asymmetric __attribute__((visibility("hidden")));

/* The reader's side of the serial lock's handshake: its flag before its look at the word. A
 * compiler barrier where writers issue membarrier(2) (serial_lock.c), a fence otherwise. */
static inline void tm_serial_reader_fence(void)
{
    if (likely(tm_serial_asymmetric))
        atomic_signal_fence(memory_order_seq_cst);
    else
        atomic_thread_fence(memory_order_seq_cst);
}

/* The reader's flag, then its look at the word. */
static inline bool tm_serial_read_trylock(struct tm_tx *tx)
{
    atomic_store_explicit(&tx->reader, 1, memory_order_relaxed);
    tm_serial_reader_fence();
    return likely(atomic_load_explicit(&tm_serial_lock.word, memory_order_relaxed) == 0);
}

/* Waits while a writer holds the word (it sleeps). */
static inline void tm_serial_read_lock(struct tm_tx *tx)
{
    if (unlikely(!tm_serial_read_trylock(tx)))
        tm_serial_read_lock_slow(tx);
}

static inline void tm_serial_read_unlock(struct tm_tx *tx)
{
    atomic_store_explicit(&tx->reader, 0, memory_order_release);
}

/* A thread that is the only registered one runs exclusive transactions on the read side: a
 * new thread registers under the write side (thread.c), which waits for this flag. Returns
 * false when another thread is registered or a writer is there. */
static inline bool tm_serial_lock_alone(struct tm_tx *tx)
{
    atomic_store_explicit(&tx->reader, 1, memory_order_relaxed);
    tm_serial_reader_fence();
    if (likely(atomic_load_explicit(&tm_serial_lock.word, memory_order_relaxed) == 0 &&
               tm_thread_count() == 1))
        return true;
    atomic_store_explicit(&tx->reader, 0, memory_order_release);
    return false;
}

/* undo_log.c */
void tm_undo_record(struct tm_tx *tx, const void *addr, size_t len);
void tm_undo_restore(struct tm_tx *tx, size_t from, const void *cfa);

/* privatization.c: after committing, make every older transaction validate before it reads
 * again, and wait for the older ones that hold data written in place (see there). The
 * algorithms publish their snapshots with these and answer requests (tm_move_requested). */
void tm_privatization_wait(struct tm_tx *tx, uint64_t time);
void tm_privatization_wake(struct tm_tx *tx);
static inline bool tm_move_requested(const struct tm_tx *tx)
{
    return atomic_load_explicit(&tx->read_limit, memory_order_relaxed) == 0;
}
static inline void tm_publish(struct tm_tx *tx, uint64_t time)
{
    atomic_store_explicit(&tx->published, time, memory_order_release);
    if (unlikely(atomic_load_explicit(&tx->move_waiters, memory_order_relaxed)))
        tm_privatization_wake(tx);
}
static inline void tm_publish_end(struct tm_tx *tx)
{
    atomic_store_explicit(&tx->dirty, 0, memory_order_relaxed);
    tm_publish(tx, TM_INACTIVE);
}
/* Before the first lock: a committer that then misses the flag has made its request visible
 * first (the lock's compare-and-swap orders this store before the caller's next look at the
 * read limit). */
static inline void tm_mark_dirty(struct tm_tx *tx)
{
    if (!atomic_load_explicit(&tx->dirty, memory_order_relaxed))
        atomic_store_explicit(&tx->dirty, 1, memory_order_relaxed);
}

/* wait.c: bounded spinning, then yielding or blocking */
unsigned tm_processors(void); /* processors this process may run on */
void tm_wait_pause(unsigned *round);
/* A bounded spin before sleeping on another thread's answer (privatization.c):
 * tm_wait_spinning is true while the caller should look again, false when it should sleep.
 * The spin is long while that thread is likely running, short otherwise. */
struct tm_wait {
    uint64_t spin_until;
};
struct tm_wait tm_wait_start(void);
bool tm_wait_spinning(struct tm_wait *wait);
void tm_futex_wait(_Atomic uint32_t *word, uint32_t expected, long timeout_ns);
void tm_futex_wake(_Atomic uint32_t *word);     /* every sleeper */
void tm_futex_wake_one(_Atomic uint32_t *word); /* one sleeper */

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
    const struct tm_algo *forced; /* LIBTM_ALGO: this algorithm only, no adaptation */
    unsigned retries;             /* restarts before going serial */
    int cm;                       /* contention manager (contention.h) */
    bool cm_hears_ends;           /* ... which wants to hear of every transaction's end */
    int verbose;                  /* LIBTM_VERBOSE: 1 start and exit lines, 2 also each
                                   * adaptive round's measurements */
    bool rtm;                     /* the CPU has usable RTM */
    bool htm;                     /* ... and LIBTM_HTM allows it (htm.c) */
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
