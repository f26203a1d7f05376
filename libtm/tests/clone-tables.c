/* Clone tables of shared libraries: transaction_safe functions of a linked library and of a
 * dlopen'ed one, called through function pointers inside transactions, must run their
 * transactional clones (found through the tables the libraries registered): a cancel then
 * undoes their stores, which the original (uninstrumented) functions could not. The
 * dlopen'ed library is closed and opened again several times (its table must be
 * deregistered and registered again). */
#include "clone-lib.h"
#include "tmtest.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* One word per thread, so that the threads' checks do not disturb each other. */
static long shared_values[2];

static void check_through_pointers(const char *which, clone_lib_store_fn store,
                                   clone_lib_load_fn load, int thread)
{
    long *value = &shared_values[thread];
    for (int repeat = 0; repeat < 50; repeat++) {
        *value = 1;
        long seen = 0;
        __transaction_atomic {
            store(value, 2);
            seen = load(value);
            __transaction_cancel;
        }
        TMTEST_CHECK(*value == 1,
                     "%s library: a store made by its transaction_safe function through a "
                     "pointer survived a cancel (the word holds %ld): the runtime did not run "
                     "the transactional clone", which, *value);
        TMTEST_CHECK(seen == 0, "%s library: a local written by a cancelled transaction kept %ld",
                     which, seen);
        __transaction_atomic {
            store(value, 3);
            seen = load(value);
        }
        TMTEST_CHECK(*value == 3 && seen == 3,
                     "%s library: committed store/load through pointers gave %ld/%ld, expected 3/3",
                     which, *value, seen);
    }
}

static void library_path(char *path, size_t size)
{
    char self[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    TMTEST_CHECK(n > 0, "cannot read /proc/self/exe");
    self[n] = '\0';
    char *slash = strrchr(self, '/');
    *slash = '\0';
    snprintf(path, size, "%s/libtmtest-dlclones.so", self);
}

static void dlopen_cycle(const char *path, int cycle, int thread)
{
    void *library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    TMTEST_CHECK(library != NULL, "dlopen %s (cycle %d): %s (build it with make -C libtm/tests)",
                 path, cycle, dlerror());
    clone_lib_store_fn store = (clone_lib_store_fn)dlsym(library, "dlopened_store");
    clone_lib_load_fn load = (clone_lib_load_fn)dlsym(library, "dlopened_load");
    TMTEST_CHECK(store && load, "dlsym in %s: %s", path, dlerror());
    char which[64];
    snprintf(which, sizeof which, "dlopen'ed (cycle %d)", cycle);
    check_through_pointers(which, store, load, thread);
    TMTEST_CHECK(dlclose(library) == 0, "dlclose %s: %s", path, dlerror());
}

static char dl_path[PATH_MAX + 32];

static void thread_role(int index)
{
    if (index == 0) {
        for (int cycle = 0; cycle < 5; cycle++)
            dlopen_cycle(dl_path, 100 + cycle, 0);
    } else {
        for (int repeat = 0; repeat < 5; repeat++)
            check_through_pointers("linked (second thread)", linked_store_address(),
                                   linked_load_address(), 1);
    }
}

int main(int argc, char **argv)
{
    tmtest_init(argc, argv,
                "Calls transaction_safe functions of a linked and of a dlopen'ed library through\n"
                "pointers inside cancelled/committed transactions; dlclose and dlopen again.");
    library_path(dl_path, sizeof dl_path);

    check_through_pointers("linked", linked_store_address(), linked_load_address(), 0);
    check_through_pointers("linked (address taken here)", linked_store, linked_load, 0);
    for (int cycle = 0; cycle < 5; cycle++)
        dlopen_cycle(dl_path, cycle, 0);
    tmtest_note("single thread: clones of linked and dlopen'ed libraries used");
    /* Open/close in one thread while another calls the linked library's clones. */
    static long other;
    __transaction_atomic { other++; }
    tmtest_run_threads(2, thread_role);
    tmtest_note("two threads: clones used while a library was opened and closed");
    return 0;
}
