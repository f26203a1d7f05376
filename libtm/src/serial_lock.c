/* The serial lock: a reader-writer lock where readers are speculative transactions (one flag
 * per descriptor, Dekker-style with the writer flag) and the writer is the one serial or
 * irrevocable transaction that must run alone. Writers queue on a mutex (blocking); a writer
 * waits for the readers to drain by yielding; readers blocked by a writer sleep on a futex. */
#include "tx.h"

#include <pthread.h>

static pthread_mutex_t writer_mutex = PTHREAD_MUTEX_INITIALIZER;
static _Atomic int writer_active;
static _Atomic uint32_t writer_generation; /* futex word: bumped when a writer leaves */
static _Atomic uint32_t readers_sleeping;

bool tm_serial_writer_active(void)
{
    return atomic_load_explicit(&writer_active, memory_order_relaxed) != 0;
}

void tm_serial_read_lock(struct tm_tx *tx)
{
    for (;;) {
        atomic_store_explicit(&tx->reader, 1, memory_order_seq_cst);
        if (likely(!atomic_load_explicit(&writer_active, memory_order_seq_cst)))
            return;
        atomic_store_explicit(&tx->reader, 0, memory_order_seq_cst);
        unsigned round = 0;
        while (atomic_load_explicit(&writer_active, memory_order_acquire)) {
            if (round < 12) {
                tm_wait_pause(&round);
                continue;
            }
            uint32_t gen = atomic_load(&writer_generation);
            atomic_fetch_add(&readers_sleeping, 1);
            if (atomic_load(&writer_active))
                tm_futex_wait(&writer_generation, gen, 10 * 1000 * 1000);
            atomic_fetch_sub(&readers_sleeping, 1);
        }
    }
}

void tm_serial_read_unlock(struct tm_tx *tx)
{
    atomic_store_explicit(&tx->reader, 0, memory_order_release);
}

static void drain_readers(struct tm_tx *self)
{
    for (struct tm_tx *d = tm_all_descriptors(); d; d = d->next_all) {
        if (d == self)
            continue;
        unsigned round = 0;
        while (atomic_load_explicit(&d->reader, memory_order_seq_cst))
            tm_wait_pause(&round);
    }
}

void tm_serial_write_lock(struct tm_tx *tx)
{
    pthread_mutex_lock(&writer_mutex);
    atomic_store_explicit(&writer_active, 1, memory_order_seq_cst);
    drain_readers(tx);
}

bool tm_serial_try_upgrade(struct tm_tx *tx)
{
    if (pthread_mutex_trylock(&writer_mutex) != 0)
        return false;
    atomic_store_explicit(&writer_active, 1, memory_order_seq_cst);
    atomic_store_explicit(&tx->reader, 0, memory_order_release);
    drain_readers(tx);
    return true;
}

void tm_serial_write_unlock(struct tm_tx *tx)
{
    (void)tx;
    atomic_store_explicit(&writer_active, 0, memory_order_seq_cst);
    atomic_fetch_add(&writer_generation, 1);
    if (atomic_load(&readers_sleeping))
        tm_futex_wake(&writer_generation);
    pthread_mutex_unlock(&writer_mutex);
}

void tm_serial_lock_after_fork(void)
{
    pthread_mutex_init(&writer_mutex, NULL);
    atomic_store(&writer_active, 0);
    atomic_store(&readers_sleeping, 0);
}
