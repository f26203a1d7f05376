/* Thread descriptors (thread.h): taken from the registry (registry.c) at a thread's first
 * transaction, recycled when the thread exits; fork handling; transaction ids. */
#include "thread.h"
#include "events.h"
#include "fatal.h"
#include "reclaim.h"
#include "serial_lock.h"
#include "startup.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>


static pthread_key_t exit_key;
static pthread_once_t exit_key_once = PTHREAD_ONCE_INIT;

/* The descriptors of tx's open transactions (and of theirs) go back to the registry. */
static void release_open_descriptors(struct tm_tx *tx)
{
    for (struct tm_tx *d = tx->open_child, *next; d; d = next) {
        next = d->open_child;
        tm_reclaim_drain(d);
        tm_event_open_descriptor(d, false);
        d->open_child = NULL;
        atomic_store_explicit(&d->in_use, false, memory_order_release);
    }
    tx->open_child = NULL;
}

static void thread_exit(void *arg)
{
    struct tm_tx *tx = arg;
    if (tx->depth > 0)
        tm_fatal("a thread exited inside a transaction (pthread_exit or a thread "
                 "cancellation from transactional code); the transaction cannot finish");
    release_open_descriptors(tx);
    tm_reclaim_drain(tx); /* blocks freed by its transactions that others might still read */
    tm_serial_turn_leave(tx);
    tm_set_current_tx(NULL);
    unsigned left = atomic_fetch_sub_explicit(&tm_threads, 1, memory_order_relaxed) - 1;
    tm_event_thread_exit(tx, left);
    /* Keep the logs' memory: the next thread that takes this descriptor reuses it. */
    atomic_store_explicit(&tx->in_use, false, memory_order_release);
}

/* No transaction may be half-done when the process forks: the child would inherit in-place
 * writes that nobody can roll back and orecs that nobody releases. So fork waits, as the serial
 * lock's writer, until no other transaction runs (unless the forking thread is itself inside a
 * transaction, which then already runs alone or is the child's problem). */
static __thread bool fork_holds_serial;

static void fork_prepare(void)
{
    struct tm_tx *self = tm_current;
    fork_holds_serial = !self || self->depth == 0;
    if (fork_holds_serial)
        tm_serial_write_lock(self);
    tm_registry_lock();
}

static void fork_parent(void)
{
    tm_registry_unlock();
    if (fork_holds_serial)
        tm_serial_write_unlock(tm_current);
}

/* In the child only the forking thread exists: every other descriptor is free again, its open
 * transactions' too. */
static void fork_child(void)
{
    struct tm_tx *self = tm_current;
    if (self)
        self->open_child = NULL;
    tm_registry_after_fork(self);
    tm_serial_lock_after_fork();
    fork_holds_serial = false;
}

static void make_exit_key(void)
{
    if (pthread_key_create(&exit_key, thread_exit) != 0)
        tm_fatal("cannot create the thread-exit key");
    pthread_atfork(fork_prepare, fork_parent, fork_child);
    tm_startup();
}

/* Configuration is read when the library loads (so LIBTM_VERBOSE speaks at start), or at the
 * first transaction if that comes first (another library's constructor). */
__attribute__((constructor)) static void library_init(void)
{
    pthread_once(&exit_key_once, make_exit_key);
}

/* Ids come from a global counter in blocks, so threads rarely touch it. */
static _Atomic uint64_t next_id_block = 2;
#define ID_BLOCK 65536

uint64_t tm_new_id_block(struct tm_tx *tx)
{
    uint64_t start = atomic_fetch_add(&next_id_block, ID_BLOCK);
    tx->id_block_end = start + ID_BLOCK;
    return tx->id = start;
}

/* The lowest address of this thread's stack (algorithms tell the transaction's own frames
 * from shared data by it), or 0 when the thread library cannot say. */
static uintptr_t stack_low_end(void)
{
    pthread_attr_t attr;
    void *addr = NULL;
    size_t size = 0;
    if (pthread_getattr_np(pthread_self(), &attr) != 0)
        return 0;
    if (pthread_attr_getstack(&attr, &addr, &size) != 0)
        addr = NULL;
    pthread_attr_destroy(&attr);
    return (uintptr_t)addr;
}

/* A descriptor from the registry, idle, for the thread whose stack starts at stack_lo. */
static struct tm_tx *take_descriptor(uintptr_t stack_lo)
{
    struct tm_tx *tx = tm_registry_take();
    tx->state = TX_INACTIVE;
    tm_use_algo(tx, &tm_algo_irrevocable);
    tx->depth = 0;
    tx->id = 0;
    tx->id_block_end = 0;
    tx->htm_site = NULL;
    tx->open_child = NULL;
    tx->open_parent = NULL;
    tx->open_privatization = 0;
    tx->stack_lo = stack_lo;
    tx->generation = tm_fork_generation;
    return tx;
}

struct tm_tx *tm_open_descriptor_take(struct tm_tx *tx)
{
    struct tm_tx *d = take_descriptor(tx->stack_lo);
    tm_event_open_descriptor(d, true);
    tx->open_child = d;
    return d;
}

struct tm_tx *tm_tx_create(void)
{
    pthread_once(&exit_key_once, make_exit_key);
    struct tm_tx *tx = take_descriptor(stack_low_end());
    /* Registered under the serial lock's write side: a thread that was alone may be running
     * an exclusive transaction on the read side (tm_serial_lock_alone), which this waits for. */
    tm_serial_write_lock(tx);
    unsigned count = atomic_fetch_add_explicit(&tm_threads, 1, memory_order_relaxed) + 1;
    tm_serial_write_unlock(tx);
    tm_set_current_tx(tx);
    pthread_setspecific(exit_key, tx);
    tm_event_thread_start(tx, count);
    return tx;
}
