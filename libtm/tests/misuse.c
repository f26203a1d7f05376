/* Misuse of the TM runtime, one case per run (the first argument); misuse.sh checks that each
 * ends with one clear "libtm: ..." line on stderr and the defined exit status:
 *   cancel-irrevocable  __transaction_cancel in a transaction that went irrevocable: abort()
 *   drop-references     _ITM_dropReferences (not supported, as in GCC's libitm): exit 1
 *   thread-exit         pthread_exit inside a (relaxed, irrevocable) transaction: exit 1
 *   open-writes-parent-data  libtm_open's function writes what its enclosing transaction
 *                       wrote (that one's rollback would undo it under the compensation):
 *                       abort() (libtm only: found with dlsym)
 *   open-null-function  libtm_open(NULL, ...): abort() (libtm only)
 * Reaching the end of a case is itself the failure "the runtime accepted the misuse". */
#include "tmtest.h"

#include <dlfcn.h>
#include <libtm.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

static long shared_value;

/* Makes the running transaction serial-irrevocable, as GCC's code does before an unsafe call
 * in a relaxed transaction (a relaxed transaction cannot contain __transaction_cancel itself,
 * and a nested atomic one would be cancellable on its own). */
TMTEST_PURE static void become_irrevocable(void)
{
    _ITM_changeTransactionMode(0 /* modeSerialIrrevocable */);
}

static void cancel_in_irrevocable(void)
{
    __transaction_atomic {
        shared_value = 1;
        become_irrevocable();
        shared_value = 2;
        __transaction_cancel;
    }
}

static void drop_references(void)
{
    __transaction_atomic {
        shared_value = 3;
        _ITM_dropReferences(&shared_value, sizeof shared_value);
    }
}

static void *exit_inside_transaction(void *arg)
{
    (void)arg;
    __transaction_relaxed {
        shared_value = 4;
        pthread_exit(NULL);
    }
    return NULL;
}

/* libtm's open nesting, found at run time so that the program also runs on GCC's libitm. */
static libtm_open_t find_libtm_open(void)
{
    libtm_open_t open_fn = (libtm_open_t)dlsym(RTLD_DEFAULT, "libtm_open");
    if (!open_fn)
        tmtest_skip("the runtime has no libtm_open (GCC's libitm)");
    return open_fn;
}

static long parent_written; /* read by main, or GCC drops the writes to it */

LIBTM_SAFE static void write_parent_data(void *arg)
{
    parent_written = (long)arg;
}

static void open_writes_parent_data(void)
{
    libtm_open_t open_fn = find_libtm_open();
    int cancel = shared_value < 0; /* never: only makes the transaction cancellable */
    __transaction_atomic {
        parent_written = 1;
        open_fn(write_parent_data, (void *)2, NULL, NULL);
        if (cancel)
            __transaction_cancel;
    }
}

static void open_null_function(void)
{
    libtm_open_t open_fn = find_libtm_open();
    __transaction_atomic {
        shared_value = 5;
        open_fn(NULL, NULL, NULL, NULL);
    }
}

static void thread_exit(void)
{
    pthread_t thread;
    TMTEST_CHECK(pthread_create(&thread, NULL, exit_inside_transaction, NULL) == 0,
                 "pthread_create failed");
    pthread_join(thread, NULL);
}

int main(int argc, char **argv)
{
    tmtest_init(argc, argv,
                "Runs one misuse case: cancel-irrevocable | drop-references | thread-exit |\n"
                "open-writes-parent-data | open-null-function\n"
                "(or \"runtime\": prints the loaded runtime's _ITM_libraryVersion()).");
    if (argc != 2) {
        fprintf(stderr, "misuse: give one case: cancel-irrevocable, drop-references, "
                        "thread-exit, open-writes-parent-data or open-null-function (see --help)\n");
        return 2;
    }
    if (strcmp(argv[1], "runtime") == 0) { /* which runtime is loaded, for misuse.sh */
        printf("%s\n", _ITM_libraryVersion());
        return 0;
    }
    if (strcmp(argv[1], "cancel-irrevocable") == 0)
        cancel_in_irrevocable();
    else if (strcmp(argv[1], "drop-references") == 0)
        drop_references();
    else if (strcmp(argv[1], "thread-exit") == 0)
        thread_exit();
    else if (strcmp(argv[1], "open-writes-parent-data") == 0)
        open_writes_parent_data();
    else if (strcmp(argv[1], "open-null-function") == 0)
        open_null_function();
    else {
        fprintf(stderr, "misuse: unknown case \"%s\" (see --help)\n", argv[1]);
        return 2;
    }
    printf("misuse: the runtime accepted %s and the program went on (%ld)\n", argv[1],
           parent_written);
    return 3;
}
