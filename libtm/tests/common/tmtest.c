/* Shared helpers of the libtm behaviour tests (see tmtest.h). */
#include "tmtest.h"

#include <dlfcn.h>
#include <libtm.h>
#include <pthread.h>
#include <stdatomic.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *program_name = "tmtest";
static void report_libtm_totals(void);
static int skipping; /* the skip reason must stay the last line of the output */

void tmtest_init(int argc, char **argv, const char *usage)
{
    const char *slash = strrchr(argv[0], '/');
    program_name = slash ? slash + 1 : argv[0];
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            printf("usage: %s [--help] [options]\n%s\n"
                   "Exit status: 0 pass, 1 fail (with the reason on stderr), 77 skip.\n",
                   program_name, usage);
            exit(0);
        }
    }
    /* Options are "--name=N" and must appear as such in the usage text. */
    for (int i = 1; i < argc; i++) {
        const char *equals = strchr(argv[i], '=');
        if (strncmp(argv[i], "--", 2) != 0)
            continue;
        char option[64];
        snprintf(option, sizeof option, "%.*s=", equals ? (int)(equals - argv[i]) : 60, argv[i]);
        if (!equals || !strstr(usage, option)) {
            fprintf(stderr, "%s: unknown option \"%s\" (see --help)\n", program_name, argv[i]);
            exit(2);
        }
    }
    setvbuf(stdout, NULL, _IOLBF, 0);
    printf("%s: runtime %s\n", program_name, _ITM_libraryVersion());
    atexit(report_libtm_totals);
}

void tmtest_fail_at(const char *file, int line, const char *fmt, ...)
{
    char message[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, sizeof message, fmt, ap);
    va_end(ap);
    fflush(stdout);
    fprintf(stderr, "FAIL %s: %s:%d: %s\n", program_name, file, line, message);
    exit(1);
}

void tmtest_skip(const char *fmt, ...)
{
    skipping = 1;
    va_list ap;
    va_start(ap, fmt);
    printf("SKIP %s: ", program_name);
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
    fflush(stdout);
    exit(77);
}

void tmtest_note(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    printf("%s: ", program_name);
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
}

static atomic_long violation_count;
static char first_violation[512];

void tmtest_violation(const char *fmt, ...)
{
    if (atomic_fetch_add(&violation_count, 1) == 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(first_violation, sizeof first_violation, fmt, ap);
        va_end(ap);
    }
}

void tmtest_check_no_violations(const char *what)
{
    long n = atomic_load(&violation_count);
    if (n != 0)
        tmtest_fail_at(__FILE__, __LINE__, "%s: %ld violation(s), the first: %s", what, n,
                       first_violation);
}

/* libtm's counters, looked up at run time so that the programs still run on GCC's libitm. */
static void report_libtm_totals(void)
{
    void (*get_totals)(struct libtm_totals *, size_t) =
        (void (*)(struct libtm_totals *, size_t))dlsym(RTLD_DEFAULT, "libtm_totals_read");
    const char *(*algorithm)(void) = (const char *(*)(void))dlsym(RTLD_DEFAULT, "libtm_algorithm");
    if (!get_totals || skipping)
        return;
    struct libtm_totals totals = { 0 };
    get_totals(&totals, sizeof totals);
    printf("%s: libtm (%s): %llu commits, %llu aborts (%llu conflicts, %llu cancels), "
           "%llu irrevocable, %llu serial\n", program_name, algorithm ? algorithm() : "?",
           (unsigned long long)totals.commits, (unsigned long long)totals.aborts,
           (unsigned long long)totals.conflict_aborts, (unsigned long long)totals.user_aborts,
           (unsigned long long)totals.irrevocable, (unsigned long long)totals.serial);
}

int tmtest_runtime_is_gcc(void)
{
    return strncmp(_ITM_libraryVersion(), "GNU libitm", 10) == 0;
}

void tmtest_require_libtm(void)
{
    if (tmtest_runtime_is_gcc())
        tmtest_skip("runs on GCC's libitm (\"%s\"), this checks libtm-only behaviour; "
                    "build libtm/lib/libitm.so.1 first", _ITM_libraryVersion());
}

struct thread_start {
    void (*fn)(int);
    int index;
    pthread_barrier_t *all_started;
};

static void *thread_main(void *arg)
{
    struct thread_start *start = arg;
    /* Everybody starts together, so that the threads really overlap. */
    pthread_barrier_wait(start->all_started);
    start->fn(start->index);
    return NULL;
}

void tmtest_run_threads(int n, void (*fn)(int index))
{
    TMTEST_CHECK(n >= 1 && n <= 1024, "cannot run %d threads (1..1024)", n);
    pthread_t *threads = calloc((size_t)n, sizeof *threads);
    struct thread_start *starts = calloc((size_t)n, sizeof *starts);
    TMTEST_CHECK(threads && starts, "out of memory starting %d threads", n);
    pthread_barrier_t all_started;
    pthread_barrier_init(&all_started, NULL, (unsigned)n);
    for (int i = 0; i < n; i++) {
        starts[i] = (struct thread_start){ fn, i, &all_started };
        int rc = pthread_create(&threads[i], NULL, thread_main, &starts[i]);
        TMTEST_CHECK(rc == 0, "pthread_create of thread %d: %s", i, strerror(rc));
    }
    for (int i = 0; i < n; i++)
        pthread_join(threads[i], NULL);
    pthread_barrier_destroy(&all_started);
    free(threads);
    free(starts);
}

static void (*busy_check)(const char *who);
static atomic_int busy_check_done;
static long busy_transactions;

static void busy_role(int index)
{
    if (index == 0) {
        busy_check("thread 0 with another thread running transactions");
        atomic_store(&busy_check_done, 1);
        return;
    }
    while (!atomic_load(&busy_check_done)) {
        __transaction_atomic {
            busy_transactions++;
        }
    }
}

long tmtest_beside_busy_thread(void (*check)(const char *who))
{
    busy_check = check;
    atomic_store(&busy_check_done, 0);
    busy_transactions = 0;
    tmtest_run_threads(2, busy_role);
    return busy_transactions;
}

void tmtest_yield(int times)
{
    for (int i = 0; i < times; i++)
        sched_yield();
}

long tmtest_option(int argc, char **argv, const char *name, long default_value)
{
    size_t len = strlen(name);
    for (int i = 1; i < argc; i++) {
        if (strncmp(argv[i], "--", 2) == 0 && strncmp(argv[i] + 2, name, len) == 0 &&
            argv[i][2 + len] == '=') {
            char *end;
            long value = strtol(argv[i] + 3 + len, &end, 10);
            if (*end != '\0' || end == argv[i] + 3 + len) {
                fprintf(stderr, "%s: option --%s wants an integer, got \"%s\"\n", program_name,
                        name, argv[i] + 3 + len);
                exit(2);
            }
            return value;
        }
    }
    return default_value;
}
