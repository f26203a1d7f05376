/* The serial lock: a reader-writer lock where readers are speculative transactions (one flag
 * per descriptor, Dekker-style against the lock word) and the writer is the one serial or
 * irrevocable transaction that must run alone.
 *
 * The lock word is a futex mutex among writers (0 free, 1 held, 2 held and a writer may
 * sleep), as glibc's mutex: a waiting writer sleeps on the word and an unlock wakes one of
 * them (waking all would send every sleeper onto the processors to find the word taken again,
 * which with 8 threads on 2 cores halves the throughput of serial mode). Readers treat any
 * non-zero value as "a writer is there" and sleep on a gate of their own, which an unlock
 * opens for all of them at once: they can all run.
 *
 * Readers are many and writers rare, so the fence that a Dekker handshake needs sits on the
 * writer's side: a reader stores its flag and reads the word with only a compiler barrier
 * between, and a writer that must see the readers first makes every running thread of the
 * process execute a full barrier (membarrier(2), private expedited) before it reads their
 * flags. Where the kernel lacks membarrier, readers fence themselves.
 *
 * A writer only waits for readers when one can run: while the mode's algorithm is speculative
 * (the lock line says so), or while a thread alone runs its transactions on the read side
 * (tm_serial_lock_alone). In serial mode a writer takes the word and goes, like a mutex. */
#include "serial_lock.h"
#include "algo.h"
#include "wait.h"

#include <linux/membarrier.h>
#include <sys/syscall.h>
#include <unistd.h>

/* Alone on its cache line: every hardware transaction reads it, so a neighbour's writes would
 * abort them all. */
struct tm_serial_lock_line tm_serial_lock = { .algo = TM_ALGO_serial, .speculative = false };
#define lock_word tm_serial_lock.word

bool tm_serial_asymmetric; /* membarrier works: readers need no fence (tx.h) */

/* Where readers sleep while a writer holds the word: bumped by an unlock that saw sleepers. */
static struct {
    _Alignas(TM_CACHELINE) _Atomic uint32_t seq;
    _Atomic uint32_t sleepers;
} reader_gate;

void tm_serial_lock_init(void)
{
    tm_serial_asymmetric = syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) == 0;
}

/* The writer's side: every reader's flag store is visible, or that reader sees the word. */
void tm_serial_writer_fence(void)
{
    if (!tm_serial_asymmetric ||
        syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0) != 0)
        atomic_thread_fence(memory_order_seq_cst);
}

bool tm_serial_writer_active(void)
{
    return atomic_load_explicit(&lock_word, memory_order_relaxed) != 0;
}

/* A reader sleeps until the writer's unlock (the word may be taken again by then). No spinning:
 * the writer is an irrevocable transaction, which may run long. */
static void reader_wait(void)
{
    uint32_t seq = atomic_load_explicit(&reader_gate.seq, memory_order_acquire);
    atomic_fetch_add_explicit(&reader_gate.sleepers, 1, memory_order_seq_cst);
    /* Dekker with the unlock: it clears the word, then looks for sleepers. The word says 2
     * when one may sleep: an unlock that clears a 1 (the serial fast path's) looks no further. */
    uint32_t word = atomic_load_explicit(&lock_word, memory_order_seq_cst);
    while (word == 1 && !atomic_compare_exchange_weak_explicit(&lock_word, &word, 2,
                                                               memory_order_seq_cst,
                                                               memory_order_seq_cst))
        ;
    if (word != 0)
        tm_futex_wait(&reader_gate.seq, seq, 0);
    atomic_fetch_sub_explicit(&reader_gate.sleepers, 1, memory_order_relaxed);
}

void tm_serial_read_lock_slow(struct tm_tx *tx)
{
    do {
        atomic_store_explicit(&tx->reader, 0, memory_order_relaxed);
        reader_wait();
    } while (!tm_serial_read_trylock(tx));
}

static void drain_readers(struct tm_tx *self)
{
    tm_serial_writer_fence();
    for (struct tm_tx *d = tm_all_descriptors(); d; d = d->next_all) {
        if (d == self)
            continue;
        unsigned round = 0;
        while (atomic_load_explicit(&d->reader, memory_order_seq_cst))
            tm_wait_pause(&round);
    }
}

/* Once the word is held the mode is stable (it changes only under the word): readers can be
 * running while it is speculative, or while a thread alone runs on the read side. */
static void after_word_taken(struct tm_tx *tx)
{
    if (atomic_load_explicit(&tm_serial_lock.speculative, memory_order_relaxed) ||
        tm_thread_count() <= 1)
        drain_readers(tx);
}

void tm_serial_write_lock(struct tm_tx *tx)
{
    uint32_t c = 0;
    if (unlikely(!atomic_compare_exchange_strong_explicit(&lock_word, &c, 1,
                                                          memory_order_seq_cst,
                                                          memory_order_relaxed))) {
        /* Sleep, as a mutex does: in serial mode the thread that holds the word usually takes
         * it next, with its data in its cache, while a spinning waiter would pull the word and
         * the data over to its processor at every hand-over. Taken with 2: other writers may
         * sleep, so the unlock wakes one. */
        while (atomic_exchange_explicit(&lock_word, 2, memory_order_seq_cst) != 0)
            tm_futex_wait(&lock_word, 2, 0);
    }
    after_word_taken(tx);
}

bool tm_serial_try_upgrade(struct tm_tx *tx)
{
    uint32_t c = 0;
    if (!atomic_compare_exchange_strong(&lock_word, &c, 1))
        return false;
    /* The caller keeps its reader flag until it ends (tm_serial_write_unlock): it still holds
     * what it read speculatively, which deferred frees must wait for (reclaim.c). Nobody
     * drains readers meanwhile: that needs the word. */
    drain_readers(tx); /* the caller is a speculative transaction: others may be too */
    return true;
}

static void turn_offer(struct tm_tx *tx, uint32_t word);

void tm_serial_write_unlock(struct tm_tx *tx)
{
    if (tx && atomic_load_explicit(&tx->reader, memory_order_relaxed))
        atomic_store_explicit(&tx->reader, 0, memory_order_release); /* an upgraded reader */
    tm_serial_after_unlock(tx, atomic_exchange_explicit(&lock_word, 0, memory_order_seq_cst));
}

void tm_serial_after_unlock(struct tm_tx *tx, uint32_t word)
{
    if (word == 2)
        tm_futex_wake_one(&lock_word);
    if (unlikely(atomic_load_explicit(&reader_gate.sleepers, memory_order_seq_cst))) {
        atomic_fetch_add_explicit(&reader_gate.seq, 1, memory_order_release);
        tm_futex_wake(&reader_gate.seq);
    }
    if (unlikely(word == 2 ||
                 atomic_load_explicit(&tm_serial_lock.next_turn, memory_order_relaxed) != NULL))
        turn_offer(tx, word);
}

/* ---- turns ------------------------------------------------------------------------------
 * In serial mode with several threads the word is a mutex, and under contention a mutex
 * loses to a single thread: a waiter pulls the word's cache line over at every release,
 * sleeps and is woken by a system call, and the data moves between the processors with the
 * transactions. On the 2-vCPU EPYC (no RTM), 2 threads in serial mode took 2.0 x the time of
 * 1 on graph (tiny transactions), 2.1 x on genome and 1.5 x on travel; the mutex builds
 * 2.5 x on graph.
 *
 * So a holder whose transactions follow each other begins a turn: when TURN_STREAK of its
 * releases in a row found another thread waiting (asleep on the word, or queued), it begins a
 * turn (turn = holder): for TURN_NS only it takes the word, alone, so the word's line and the
 * data stay in its cache. A thread that finds somebody's turn queues (next_turn; the others
 * sleep until the line is free). When the turn is over the queued thread takes it, woken by
 * the holder, which goes on meanwhile (a woken thread may wait for a processor: the lock is
 * not left unused). The turn ends early when its holder has not committed for TURN_IDLE_NS
 * and is outside a transaction (it waits at a barrier, works outside transactions, or left):
 * the turn is then nobody's, and the queued thread takes the word. A turn that is over is
 * anybody's while the word is free, so that where transactions rarely meet, the word is taken
 * at once as before; without a waiting thread turns cost nothing.
 *
 * Without a turn the word is a mutex, as glibc's: a thread that finds it taken sleeps on it
 * (marking it 2) and the release wakes one. That is what a server needs, whose many threads
 * each run a transaction now and then between long stretches of other work (httpd's cache:
 * two short transactions per request of 100 us, 64 threads on 2 processors): a release
 * rarely meets a waiter twice in a row, so no turn begins. When every contended release began
 * a turn, there, a waiter slept until the holder had not committed for 4 x TURN_IDLE_NS, the
 * turn then passed to it for another TURN_NS, and a third thread slept until its timeout: the
 * cache served 0.65-0.79 x the requests of its mutex mode, on GCC's libitm 0.78-0.96 x.
 *
 * Correctness does not depend on turns: every exclusive transaction in serial mode still takes
 * the word, which alone makes them exclusive; a turn only says who tries. */
/* A turn's length: each hand-over makes the new holder fetch, line by line, what the other
 * processor wrote during its turn, so a short turn spends itself refilling its cache. Serial
 * mode forced, 2 threads, time to completion (run twice, libtm/bench, 2-vCPU EPYC): graph
 * 1.00-1.04 s with turns of 1 ms, 0.68-0.86 s of 5 ms, 0.63-0.73 s of 20 ms, 0.66-0.83 s of
 * 100 ms; genome 0.27-0.36 / 0.17-0.19 / 0.16-0.21 / 0.20-0.26 s; travel the same with each.
 * A thread that leaves its transactions still passes the turn on at once (TURN_IDLE_NS). */
#define TURN_NS (20 * 1000 * 1000LL)
#define TURN_IDLE_NS (20 * 1000LL)
/* Releases that found a thread waiting, each within TURN_IDLE_NS per commit of the holder
 * after the one before, before the holder begins a turn: a thread in a loop of transactions
 * meets the waiting thread again within a few of its commits of a few microseconds each; a
 * thread that runs a transaction now and then between long stretches of other work commits
 * every 50 us or more. */
#define TURN_STREAK 2
/* A sleeper on the word wakes after this at the latest (it is woken by the release). */
#define WORD_BACKSTOP_NS (1000 * 1000L)

/* Where threads that wait behind the queued one sleep: bumped when the line frees. */
static struct {
    _Alignas(TM_CACHELINE) _Atomic uint32_t seq;
    _Atomic uint32_t sleepers;
} line_gate;

/* The line is free (one sleeper may queue now), or the turn ended (`all` of them go for
 * the word). */
static void line_freed(bool all)
{
    if (atomic_load_explicit(&line_gate.sleepers, memory_order_seq_cst)) {
        atomic_fetch_add_explicit(&line_gate.seq, 1, memory_order_release);
        if (all)
            tm_futex_wake(&line_gate.seq);
        else
            tm_futex_wake_one(&line_gate.seq);
    }
}

/* This thread leaves the line if it is in it. */
static void line_leave(struct tm_tx *tx)
{
    struct tm_tx *queued = tx;
    if (atomic_compare_exchange_strong(&tm_serial_lock.next_turn, &queued, NULL))
        line_freed(false);
}

/* The queued thread wakes (it looks at the turn again). */
static void wake_queued(struct tm_tx *next)
{
    atomic_fetch_add_explicit(&next->turn_signal, 1, memory_order_seq_cst);
    if (atomic_load_explicit(&next->turn_asleep, memory_order_seq_cst))
        tm_futex_wake(&next->turn_signal);
}

/* Turns are for software serial mode (there are none while hardware transactions are on). */
static bool turns_apply(void)
{
    return atomic_load_explicit(&tm_serial_lock.algo, memory_order_relaxed) == TM_ALGO_serial &&
           !atomic_load_explicit(&tm_serial_lock.htm_mode, memory_order_relaxed);
}

static bool crowded(void)
{
    return tm_thread_count() > tm_processors();
}

/* This thread takes the turn from `owner` (the caller saw it due). */
static bool take_turn(struct tm_tx *tx, struct tm_tx *owner, int64_t now)
{
    if (!atomic_compare_exchange_strong(&tm_serial_lock.turn, &owner, tx))
        return false;
    atomic_store_explicit(&tm_serial_lock.turn_start, now, memory_order_relaxed);
    atomic_store_explicit(&tm_serial_lock.turn_woken, 0, memory_order_relaxed);
    line_leave(tx);
    return true;
}

/* The turn of `owner` ends: nobody's (the caller saw it over or its holder idle). */
static void end_turn(struct tm_tx *owner)
{
    if (atomic_compare_exchange_strong(&tm_serial_lock.turn, &owner, NULL))
        line_freed(true);
}

/* The word's holder released it while a thread is queued: begin a turn; or, once its turn is
 * over, wake the queued thread, which takes the turn when it runs. The holder goes on until
 * then: on a busy machine a woken thread may wait for a processor, and a turn handed to it
 * would leave the lock unused meanwhile. */
static void turn_offer(struct tm_tx *tx, uint32_t word)
{
    struct tm_tx *next = atomic_load_explicit(&tm_serial_lock.next_turn, memory_order_relaxed);
    if (next == tx)
        next = NULL;
    if (!tx || !turns_apply())
        return;
    struct tm_tx *turn = atomic_load_explicit(&tm_serial_lock.turn, memory_order_relaxed);
    if (!turn) {
        /* A release that found a thread waiting: the holder's streak of them. */
        if (word != 2 && !next)
            return;
        unsigned commits = tm_commits_so_far(tx);
        int64_t now = tm_now_ns(), since = now - tx->turn_contended_ns;
        bool dense = since < TURN_NS &&
                     since < (int64_t)(commits - tx->turn_contended_at) * TURN_IDLE_NS;
        tx->turn_streak = dense ? tx->turn_streak + 1 : 0;
        tx->turn_contended_at = commits;
        tx->turn_contended_ns = now;
        if (tx->turn_streak >= TURN_STREAK)
            take_turn(tx, NULL, now);
        else if (next)
            wake_queued(next); /* (a sleeper on the word was woken by the release) */
        return;
    }
    if (!next)
        return;
    /* Ours: a look at the clock every 8th release is often enough (a turn is long). */
    if (turn != tx || (tm_commits_so_far(tx) & 7) ||
        atomic_load_explicit(&tm_serial_lock.turn_woken, memory_order_relaxed))
        return;
    if (tm_now_ns() - atomic_load_explicit(&tm_serial_lock.turn_start, memory_order_relaxed) <
        TURN_NS)
        return;
    atomic_store_explicit(&tm_serial_lock.turn_woken, 1, memory_order_relaxed);
    wake_queued(next);
}

/* Sleeps until the line may be free (the caller looks again). */
static void line_wait(void)
{
    uint32_t seq = atomic_load_explicit(&line_gate.seq, memory_order_acquire);
    atomic_fetch_add_explicit(&line_gate.sleepers, 1, memory_order_seq_cst);
    if (atomic_load_explicit(&tm_serial_lock.next_turn, memory_order_seq_cst) &&
        atomic_load_explicit(&tm_serial_lock.turn, memory_order_seq_cst) && turns_apply())
        tm_futex_wait(&line_gate.seq, seq, TURN_NS);
    atomic_fetch_sub_explicit(&line_gate.sleepers, 1, memory_order_relaxed);
}

/* Waits while it is another thread's turn (the caller looks again). The queued thread takes
 * the turn once it is over, or ends it once its holder has not committed for TURN_IDLE_NS
 * (4 x while threads outnumber processors) with the word free; it sleeps in between, woken by
 * the holder at the turn's end. The other waiting threads sleep until the line is free.
 * Nobody spins for another's turn: the holder may be waiting for a processor. */
static void wait_for_turn(struct tm_tx *tx)
{
    struct tm_tx *owner = atomic_load(&tm_serial_lock.turn);
    if (owner == tx) {
        /* Our turn, taken while the word was busy (or another thread took the free word in
         * passing): it comes back within one transaction. */
        unsigned round = 0;
        while (atomic_load_explicit(&lock_word, memory_order_relaxed) != 0 && turns_apply())
            tm_wait_pause(&round);
        return;
    }
    if (!owner)
        return;
    struct tm_tx *line = NULL;
    atomic_compare_exchange_strong(&tm_serial_lock.next_turn, &line, tx);
    unsigned seen = tm_commits_so_far(owner);
    int64_t seen_at = tm_now_ns();
    int64_t look = crowded() ? 4 * TURN_IDLE_NS : TURN_IDLE_NS;
    for (;;) {
        if (atomic_load(&tm_serial_lock.turn) != owner || !turns_apply())
            return; /* taken, ended or no more turns */
        struct tm_tx *queued = atomic_load_explicit(&tm_serial_lock.next_turn, memory_order_relaxed);
        if (queued != tx) {
            line = NULL;
            if (!queued && atomic_compare_exchange_strong(&tm_serial_lock.next_turn, &line, tx))
                continue; /* the line was free: queued now */
            line_wait();
            continue;
        }
        int64_t now = tm_now_ns();
        unsigned commits = tm_commits_so_far(owner);
        if (commits != seen) {
            seen = commits;
            seen_at = now;
        }
        int64_t held = now - atomic_load_explicit(&tm_serial_lock.turn_start, memory_order_relaxed);
        bool word_free = atomic_load_explicit(&lock_word, memory_order_relaxed) == 0;
        if (held >= TURN_NS) {
            take_turn(tx, owner, now); /* over: ours */
            return;
        }
        if (word_free && now - seen_at >= look) {
            /* The holder went idle: the turn is nobody's, the word a mutex again. */
            end_turn(owner);
            line_leave(tx);
            return;
        }
        uint32_t signal = atomic_load_explicit(&tx->turn_signal, memory_order_seq_cst);
        atomic_store_explicit(&tx->turn_asleep, 1, memory_order_seq_cst);
        if (atomic_load(&tm_serial_lock.turn) == owner)
            tm_futex_wait(&tx->turn_signal, signal, look);
        atomic_store_explicit(&tx->turn_asleep, 0, memory_order_relaxed);
    }
}

/* Takes the free word: with 2 when the thread has slept on it (others may sleep there too,
 * and the release must wake one), else with 1. */
static bool word_take(bool slept)
{
    if (slept)
        return atomic_exchange_explicit(&lock_word, 2, memory_order_seq_cst) == 0;
    uint32_t free_word = 0;
    return atomic_compare_exchange_strong_explicit(&lock_word, &free_word, 1, memory_order_seq_cst,
                                                   memory_order_relaxed);
}

void tm_serial_exclusive_lock(struct tm_tx *tx)
{
    bool slept = false; /* on the word, as a mutex's waiter */
    for (;;) {
        if (!turns_apply()) {
            if (!slept || !word_take(true)) {
                tm_serial_write_lock(tx);
                return;
            }
            after_word_taken(tx);
            return;
        }
        /* A turn that is over is nobody's while its holder is outside a transaction. */
        struct tm_tx *turn = atomic_load_explicit(&tm_serial_lock.turn, memory_order_relaxed);
        if (turn && turn != tx && atomic_load_explicit(&lock_word, memory_order_relaxed) == 0 &&
            tm_now_ns() - atomic_load_explicit(&tm_serial_lock.turn_start, memory_order_relaxed) >=
                TURN_NS) {
            end_turn(turn);
            turn = atomic_load_explicit(&tm_serial_lock.turn, memory_order_relaxed);
        }
        if (!turn || turn == tx) {
            if (word_take(slept)) {
                after_word_taken(tx); /* the mode may have changed before the word was ours */
                line_leave(tx);
                return;
            }
            if (!turn) {
                /* Nobody's turn: wait as a mutex's waiter, woken by the release. */
                line_leave(tx);
                if (atomic_exchange_explicit(&lock_word, 2, memory_order_seq_cst) == 0) {
                    after_word_taken(tx);
                    return;
                }
                tm_futex_wait(&lock_word, 2, WORD_BACKSTOP_NS);
                slept = true;
                continue;
            }
        }
        wait_for_turn(tx);
    }
}

void tm_serial_turns_reset(void)
{
    atomic_store(&tm_serial_lock.turn, NULL);
    atomic_store(&tm_serial_lock.next_turn, NULL);
    line_freed(true);
}

void tm_serial_turn_leave(struct tm_tx *tx)
{
    struct tm_tx *expected = tx;
    atomic_compare_exchange_strong(&tm_serial_lock.turn, &expected, NULL);
    line_leave(tx);
}

void tm_serial_lock_after_fork(void)
{
    /* The child has only the forking thread: if it held the lock it still does. */
    struct tm_tx *self = tm_current;
    if (!self || (self->serial_hold != HOLD_WRITE && self->serial_hold != HOLD_WRITE_FAST))
        atomic_store(&lock_word, 0);
    atomic_store(&reader_gate.sleepers, 0); /* they were the parent's other threads */
    atomic_store(&line_gate.sleepers, 0);
    tm_serial_turns_reset();
}
