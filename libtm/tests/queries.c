/* Runtime queries and thread life cycle: _ITM_inTransaction is 0 outside transactions (also in
 * a thread that never used TM), 1 or 2 inside; _ITM_getTransactionId is _ITM_noTransactionId
 * (1) outside and stays the same in a flat-nested transaction; _ITM_versionCompatible(90);
 * a transaction started from a pthread-key destructor during thread exit works (also after
 * the runtime's own per-thread destructor may have run). */
#include "tmtest.h"

#include <pthread.h>
#include <string.h>

int _ITM_versionCompatible(int version) TMTEST_PURE;

static long shared_value;
static pthread_key_t exit_key;
static atomic_long destructor_transactions;

TMTEST_PURE static int mode_now(void) { return _ITM_inTransaction(); }
TMTEST_PURE static uint64_t id_now(void) { return _ITM_getTransactionId(); }

static void check_queries(const char *who)
{
    TMTEST_CHECK(_ITM_inTransaction() == tmtest_outside,
                 "%s: _ITM_inTransaction() = %d outside any transaction, expected 0", who,
                 _ITM_inTransaction());
    TMTEST_CHECK(_ITM_getTransactionId() == TMTEST_NO_TRANSACTION_ID,
                 "%s: _ITM_getTransactionId() = %llu outside any transaction, expected 1", who,
                 (unsigned long long)_ITM_getTransactionId());
    int mode = -1, inner_mode = -1;
    uint64_t id = 0, inner_id = 0;
    __transaction_atomic {
        shared_value++;
        mode = mode_now();
        id = id_now();
        __transaction_atomic { /* cannot cancel: may be flattened */
            shared_value++;
            inner_mode = mode_now();
            inner_id = id_now();
        }
    }
    TMTEST_CHECK(mode == tmtest_retryable || mode == tmtest_irrevocable,
                 "%s: _ITM_inTransaction() = %d inside a transaction, expected 1 or 2", who, mode);
    TMTEST_CHECK(inner_mode == tmtest_retryable || inner_mode == tmtest_irrevocable,
                 "%s: _ITM_inTransaction() = %d inside a nested transaction", who, inner_mode);
    TMTEST_CHECK(inner_id >= id, "%s: a nested transaction's id %llu is below its parent's %llu",
                 who, (unsigned long long)inner_id, (unsigned long long)id);
    TMTEST_CHECK(_ITM_inTransaction() == tmtest_outside,
                 "%s: _ITM_inTransaction() = %d after the commit", who, _ITM_inTransaction());
}

static void destructor_runs_transaction(void *value)
{
    long rounds = (long)value;
    __transaction_atomic {
        shared_value++;
    }
    atomic_fetch_add(&destructor_transactions, 1);
    /* Ask for another destructor round: by then the runtime's own per-thread destructor has
     * run too (the order of key destructors within a round is unspecified). */
    if (rounds < 2)
        pthread_setspecific(exit_key, (void *)(rounds + 1));
}

static void *never_used_tm(void *arg)
{
    (void)arg;
    TMTEST_CHECK(_ITM_inTransaction() == tmtest_outside,
                 "a thread that never ran a transaction: _ITM_inTransaction() = %d, expected 0",
                 _ITM_inTransaction());
    TMTEST_CHECK(_ITM_getTransactionId() == TMTEST_NO_TRANSACTION_ID,
                 "a thread that never ran a transaction: _ITM_getTransactionId() = %llu",
                 (unsigned long long)_ITM_getTransactionId());
    return NULL;
}

static void *exiting_thread(void *arg)
{
    (void)arg;
    check_queries("new thread");
    pthread_setspecific(exit_key, (void *)1L);
    return NULL;
}

int main(int argc, char **argv)
{
    tmtest_init(argc, argv,
                "Checks _ITM_inTransaction/_ITM_getTransactionId/_ITM_versionCompatible and\n"
                "transactions started by thread-exit destructors.");
    TMTEST_CHECK(_ITM_versionCompatible(90), "_ITM_versionCompatible(90) is false");
    TMTEST_CHECK(!_ITM_versionCompatible(91), "_ITM_versionCompatible(91) is true");
    const char *version = _ITM_libraryVersion();
    TMTEST_CHECK(version != NULL && strlen(version) > 0, "_ITM_libraryVersion() is empty");

    pthread_t thread;
    TMTEST_CHECK(pthread_create(&thread, NULL, never_used_tm, NULL) == 0, "pthread_create");
    pthread_join(thread, NULL);
    check_queries("main thread");
    for (int i = 0; i < 3; i++)
        check_queries("main thread, again");

    TMTEST_CHECK(pthread_key_create(&exit_key, destructor_runs_transaction) == 0,
                 "pthread_key_create");
    long before = shared_value;
    for (int i = 0; i < 50; i++) {
        TMTEST_CHECK(pthread_create(&thread, NULL, exiting_thread, NULL) == 0, "pthread_create");
        pthread_join(thread, NULL);
    }
    TMTEST_CHECK(atomic_load(&destructor_transactions) == 50 * 2,
                 "%ld transactions ran in thread-exit destructors, expected 100",
                 atomic_load(&destructor_transactions));
    TMTEST_CHECK(shared_value == before + 50 * (2 + 2),
                 "shared value %ld, expected %ld (2 per thread body, 2 per thread exit)",
                 shared_value, before + 50 * 4);
    tmtest_note("queries correct; 100 transactions ran in thread-exit destructors");
    return 0;
}
