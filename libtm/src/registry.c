/* The registry of descriptors (registry.h). Descriptors are never freed, so a scanner can walk
 * the list without a lock; taking a free one or adding a new one happens under a mutex. */
#include "registry.h"
#include "fatal.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static _Atomic(struct tm_tx *) all_descriptors;
static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned next_index;
_Atomic unsigned tm_threads;
unsigned tm_fork_generation;

struct tm_tx *tm_all_descriptors(void)
{
    return atomic_load_explicit(&all_descriptors, memory_order_acquire);
}

struct tm_tx *tm_registry_take(void)
{
    struct tm_tx *tx = NULL;
    pthread_mutex_lock(&registry_lock);
    for (struct tm_tx *d = tm_all_descriptors(); d; d = d->next_all) {
        if (!atomic_load_explicit(&d->in_use, memory_order_acquire)) {
            tx = d;
            break;
        }
    }
    if (!tx) {
        if (posix_memalign((void **)&tx, TM_CACHELINE, sizeof *tx) != 0)
            tm_fatal("out of memory creating a thread descriptor");
        memset(tx, 0, sizeof *tx);
        tx->thread_index = next_index++;
        atomic_store(&tx->published, TM_INACTIVE);
        atomic_store(&tx->in_use, true);
        tx->next_all = tm_all_descriptors();
        atomic_store_explicit(&all_descriptors, tx, memory_order_release);
    } else {
        atomic_store(&tx->in_use, true);
    }
    pthread_mutex_unlock(&registry_lock);
    return tx;
}

void tm_registry_lock(void)
{
    pthread_mutex_lock(&registry_lock);
}

void tm_registry_unlock(void)
{
    pthread_mutex_unlock(&registry_lock);
}

void tm_registry_after_fork(struct tm_tx *self)
{
    pthread_mutex_init(&registry_lock, NULL);
    tm_fork_generation++;
    if (self)
        self->generation = tm_fork_generation;
    unsigned n = 0;
    for (struct tm_tx *d = tm_all_descriptors(); d; d = d->next_all) {
        if (d != self) {
            atomic_store(&d->in_use, false);
            atomic_store(&d->reader, 0);
            atomic_store(&d->published, TM_INACTIVE);
            atomic_store(&d->read_limit, 0);
        } else if (atomic_load(&d->in_use)) {
            n++;
        }
    }
    atomic_store(&tm_threads, n);
}
