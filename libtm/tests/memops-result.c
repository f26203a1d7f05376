/* Code that GCC 12 builds on the result of _ITM_memcpy/_ITM_memmove/_ITM_memset (libtm/ABI.md
 * §18): it models them as the string functions they replace (the result is the destination)
 * and forms the next destination from %rax, although the ABI declares them void. Each reuse_*
 * function below is a transaction whose code does that; the program first reads its own
 * disassembly to see that the compiler still does, then runs every one at sizes around each
 * boundary of libtm's copies (orec's 32-byte stripes, the 512-byte chunks) and checks every
 * byte of the destination and of 1 KB on each side, alone and next to a thread that commits
 * transactions. Under LIBTM_ALGO=orec or norec libtm's totals must show that the transactions
 * ran speculatively. On GCC's libitm (ml_wt) such code dies: that is checked in a child. */
#include "tmtest.h"
#include "result-reuse.h"

#include <dlfcn.h>
#include <libtm.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define GUARD 1024     /* bytes on each side of the destination that must not change */
#define MAX_FIRST 4099 /* largest first copy */
#define MAX_SECOND 513 /* largest second copy */
#define FILL_TAIL 7    /* bytes the private-frame case sets after both copies */
#define SPAN (MAX_FIRST + MAX_SECOND + FILL_TAIL + 8)
#define ARENA (GUARD + SPAN + GUARD)

static uint8_t arena[ARENA] __attribute__((aligned(64)));
static uint8_t expected[ARENA];
static uint8_t source[SPAN] __attribute__((aligned(64)));
static uint8_t tail[MAX_SECOND + 8];

/* ---- the transactions (noipa: one real call each, named as below in the binary) ---------- */

#define REUSE __attribute__((noipa))

REUSE void reuse_memcpy_memcpy(uint8_t *d, const uint8_t *s, size_t n, const uint8_t *t, size_t m)
{
    __transaction_atomic {
        uint8_t *b = memcpy(d, s, n);
        memcpy(b + n, t, m);
    }
}

REUSE void reuse_memmove_memmove(uint8_t *d, const uint8_t *s, size_t n, const uint8_t *t,
                                 size_t m)
{
    __transaction_atomic {
        uint8_t *b = memmove(d, s, n);
        memmove(b + n, t, m);
    }
}

/* Both moves overlap their source: the first by `shift` bytes either way, the second (m > n)
 * copies the result onto itself, backwards. */
REUSE void reuse_memmove_overlap(uint8_t *d, ptrdiff_t shift, size_t n, size_t m)
{
    __transaction_atomic {
        uint8_t *b = memmove(d, d + shift, n);
        memmove(b + n, b, m);
    }
}

REUSE void reuse_memset_memset(uint8_t *d, int c, size_t n, int e, size_t m)
{
    __transaction_atomic {
        uint8_t *b = memset(d, c, n);
        memset(b + n, e, m);
    }
}

REUSE void reuse_memcpy_memset(uint8_t *d, const uint8_t *s, size_t n, int e, size_t m)
{
    __transaction_atomic {
        uint8_t *b = memcpy(d, s, n);
        memset(b + n, e, m);
    }
}

REUSE void reuse_memset_memcpy(uint8_t *d, int c, size_t n, const uint8_t *t, size_t m)
{
    __transaction_atomic {
        uint8_t *b = memset(d, c, n);
        memcpy(b + n, t, m);
    }
}

/* Memcached's item assembly (the pattern of the issue): the pointer is advanced by hand. */
struct item {
    size_t nbytes;
    uint8_t *data;
};
static struct item the_item;

REUSE void reuse_item_append(struct item *it, const uint8_t *key, size_t klen, const uint8_t *val,
                             size_t vlen)
{
    __transaction_atomic {
        uint8_t *buf = it->data;
        memcpy(buf, key, klen);
        buf += klen;
        memcpy(buf, val, vlen);
        it->nbytes = klen + vlen;
    }
}

/* A record built in a frame created inside the transaction (libtm's private-stack path), then
 * copied out: the transactional clone reuses the results. */
#define FILL_BYTE 0x5e
__attribute__((transaction_safe, noipa)) void reuse_build_in_frame(uint8_t *d, const uint8_t *s,
                                                                    size_t n, const uint8_t *t,
                                                                    size_t m)
{
    uint8_t record[SPAN];
    uint8_t *b = memcpy(record, s, n);
    b = memcpy(b + n, t, m);
    memset(b + m, FILL_BYTE, FILL_TAIL);
    memcpy(d, record, n + m + FILL_TAIL);
}

REUSE void reuse_private_record(uint8_t *d, const uint8_t *s, size_t n, const uint8_t *t, size_t m)
{
    __transaction_atomic {
        reuse_build_in_frame(d, s, n, t, m);
    }
}

/* ---- the cases ------------------------------------------------------------------------------ */

enum case_id {
    MEMCPY_MEMCPY, MEMMOVE_MEMMOVE, MEMMOVE_OVERLAP, MEMSET_MEMSET, MEMCPY_MEMSET,
    MEMSET_MEMCPY, ITEM_APPEND, PRIVATE_RECORD, CASES
};

/* The function whose code must reuse a result (the clone, for the transaction_safe one). */
static const char *const case_symbol[CASES] = {
    "reuse_memcpy_memcpy", "reuse_memmove_memmove", "reuse_memmove_overlap",
    "reuse_memset_memset", "reuse_memcpy_memset", "reuse_memset_memcpy", "reuse_item_append",
    "_ZGTt20reuse_build_in_frame",
};

/* Around every boundary: orec's 32-byte stripes and the 512-byte chunks of _ITM_mem*. */
static const size_t first_sizes[] = { 0, 1, 7, 8, 9, 31, 32, 33, 511, 512, 513,
                                      1023, 1024, 1025, MAX_FIRST };
static const size_t second_sizes[] = { 0, 5, 33, 511, 512, MAX_SECOND };
static const ptrdiff_t shifts[] = { -513, -5, 5, 513 };
/* Sizes pass through memory the compiler cannot see into. */
static volatile size_t opaque_first[sizeof first_sizes / sizeof *first_sizes];
static volatile size_t opaque_second[sizeof second_sizes / sizeof *second_sizes];

static void fill(uint8_t *buffer, size_t size, uint8_t seed)
{
    for (size_t i = 0; i < size; i++)
        buffer[i] = (uint8_t)(seed + i * 13 + (i >> 8));
}

/* Runs one case as a transaction on the arena and the same operations with libc on
 * `expected`. */
static void run_case(enum case_id c, size_t n, size_t m, size_t align, ptrdiff_t shift)
{
    uint8_t *d = arena + GUARD + align, *e = expected + GUARD + align;
    uint8_t seed = (uint8_t)(n * 3 + m + align + (size_t)c * 41);
    fill(arena, ARENA, seed);
    memcpy(expected, arena, ARENA);
    const uint8_t *s = source + 1, *t = tail + 2;
    switch (c) {
    case MEMCPY_MEMCPY:
        memcpy(memcpy(e, s, n) + n, t, m);
        reuse_memcpy_memcpy(d, s, n, t, m);
        break;
    case MEMMOVE_MEMMOVE:
        memmove(memmove(e, s, n) + n, t, m);
        reuse_memmove_memmove(d, s, n, t, m);
        break;
    case MEMMOVE_OVERLAP: {
        uint8_t *b = memmove(e, e + shift, n);
        memmove(b + n, b, m);
        reuse_memmove_overlap(d, shift, n, m);
        break;
    }
    case MEMSET_MEMSET:
        memset(memset(e, 0xa1, n) + n, 0x1a, m);
        reuse_memset_memset(d, 0xa1, n, 0x1a, m);
        break;
    case MEMCPY_MEMSET:
        memset(memcpy(e, s, n) + n, 0x3c, m);
        reuse_memcpy_memset(d, s, n, 0x3c, m);
        break;
    case MEMSET_MEMCPY:
        memcpy(memset(e, 0xc3, n) + n, t, m);
        reuse_memset_memcpy(d, 0xc3, n, t, m);
        break;
    case ITEM_APPEND:
        memcpy(memcpy(e, s, n) + n, t, m);
        the_item = (struct item){ 0, d };
        reuse_item_append(&the_item, s, n, t, m);
        TMTEST_CHECK(the_item.nbytes == n + m, "item append of %zu + %zu bytes: nbytes is %zu",
                     n, m, the_item.nbytes);
        break;
    case PRIVATE_RECORD:
        memset(memcpy(memcpy(e, s, n) + n, t, m) + m, FILL_BYTE, FILL_TAIL);
        reuse_private_record(d, s, n, t, m);
        break;
    case CASES:
        break;
    }
}

static void compare(const char *who, enum case_id c, size_t n, size_t m, size_t align,
                    ptrdiff_t shift)
{
    if (memcmp(arena, expected, ARENA) == 0)
        return;
    long first = -1, inside = 0, outside = 0;
    size_t written = n + m + (c == PRIVATE_RECORD ? FILL_TAIL : 0);
    for (size_t i = 0; i < ARENA; i++) {
        if (arena[i] == expected[i])
            continue;
        long offset = (long)i - (long)(GUARD + align);
        if (first < 0)
            first = offset;
        if (offset >= 0 && (size_t)offset < written)
            inside++;
        else
            outside++;
    }
    long at = first + GUARD + (long)align;
    TMTEST_FAIL("%s: %s, first %zu bytes then %zu (destination offset %zu, shift %td): %ld of "
                "the %zu bytes the program wrote are wrong and %ld bytes around them changed; "
                "the first difference is at destination%+ld: %#x, expected %#x", who,
                case_symbol[c], n, m, align, shift, inside, written, outside, first,
                arena[at], expected[at]);
}

static long transactions_run;

/* What runs now, for the report of a crash (a wrong result register usually means a wild
 * write). */
static char current_case[256];

static void report_crash(int sig)
{
    char line[400];
    int len = snprintf(line, sizeof line, "FAIL memops-result: signal %d (%s) in %s\n", sig,
                       sig == SIGSEGV ? "SIGSEGV" : "SIGBUS", current_case);
    if (write(2, line, (size_t)len) < 0)
        _exit(2);
    _exit(1);
}

static void all_cases(const char *who)
{
    for (int c = 0; c < CASES; c++)
        for (size_t i = 0; i < sizeof first_sizes / sizeof *first_sizes; i++)
            for (size_t j = 0; j < sizeof second_sizes / sizeof *second_sizes; j++)
                for (size_t align = 0; align <= 3; align += 3) {
                    size_t n = opaque_first[i], m = opaque_second[j];
                    size_t shift_count = c == MEMMOVE_OVERLAP ? sizeof shifts / sizeof *shifts : 1;
                    for (size_t k = 0; k < shift_count; k++) {
                        ptrdiff_t shift = c == MEMMOVE_OVERLAP ? shifts[k] : 0;
                        snprintf(current_case, sizeof current_case, "%s: %s, first %zu bytes "
                                 "then %zu (destination offset %zu, shift %td)", who,
                                 case_symbol[c], n, m, align, shift);
                        run_case((enum case_id)c, n, m, align, shift);
                        transactions_run++;
                        compare(who, (enum case_id)c, n, m, align, shift);
                    }
                }
}

/* ---- what libtm ran ------------------------------------------------------------------------ */

static int read_totals(struct libtm_totals *t)
{
    void (*read)(struct libtm_totals *, size_t) =
        (void (*)(struct libtm_totals *, size_t))dlsym(RTLD_DEFAULT, "libtm_totals_read");
    memset(t, 0, sizeof *t);
    if (!read)
        return 0;
    read(t, sizeof *t);
    return 1;
}

/* Under a forced speculative algorithm every transaction of this program must have run on it
 * (none is irrevocable, none conflicts with the busy thread), or the test proved nothing. */
static void check_speculative(const struct libtm_totals *before, const struct libtm_totals *after)
{
    const char *(*algorithm)(void) =
        (const char *(*)(void))dlsym(RTLD_DEFAULT, "libtm_algorithm");
    const char *algo = algorithm ? algorithm() : "?";
    uint64_t commits = after->commits - before->commits;
    uint64_t exclusive = after->serial - before->serial;
    uint64_t hardware = after->htm_commits - before->htm_commits;
    tmtest_note("libtm (%s): %ld transactions of this program; %llu commits in the process, %llu "
                "of them exclusive (serial or irrevocable), %llu in hardware", algo,
                transactions_run, (unsigned long long)commits, (unsigned long long)exclusive,
                (unsigned long long)hardware);
    if (strcmp(algo, "orec") == 0 || strcmp(algo, "norec") == 0) {
        TMTEST_CHECK(commits >= (uint64_t)transactions_run && exclusive == 0,
                     "LIBTM_ALGO=%s: %llu of %llu commits ran exclusively, so the speculative "
                     "copies were not all exercised", algo, (unsigned long long)exclusive,
                     (unsigned long long)commits);
    }
}

/* ---- GCC's libitm ---------------------------------------------------------------------------- */

static void one_copy_beyond_a_chunk(const char *who)
{
    run_case(MEMCPY_MEMCPY, 600, 5, 0, 0);
    compare(who, MEMCPY_MEMCPY, 600, 5, 0, 0);
}

/* GCC's ml_wt returns 0 from _ITM_memcpyRtWt: the second copy writes to address 600. */
static void expect_gcc_failure(void)
{
    fflush(stdout);
    pid_t child = fork();
    TMTEST_CHECK(child >= 0, "fork failed");
    if (child == 0) {
        tmtest_beside_busy_thread(one_copy_beyond_a_chunk);
        _exit(0);
    }
    int status;
    TMTEST_CHECK(waitpid(child, &status, 0) == child, "waitpid failed");
    if (WIFSIGNALED(status)) {
        tmtest_note("as expected, on GCC's libitm the copy built on _ITM_memcpyRtWt's result "
                    "killed the program (signal %d, %s)", WTERMSIG(status),
                    strsignal(WTERMSIG(status)));
        return;
    }
    TMTEST_CHECK(WEXITSTATUS(status) != 0,
                 "on GCC's libitm the copy built on _ITM_memcpyRtWt's result was right: either "
                 "its libitm now returns the destination (libtm/ABI.md §18 and libtm(7) say it "
                 "does not) or it ran its serial path (run with ITM_DEFAULT_METHOD=ml_wt, as the "
                 "Makefile does)");
    tmtest_note("as expected, on GCC's libitm the copy built on _ITM_memcpyRtWt's result wrote "
                "to the wrong place (the child's report is above)");
}

int main(int argc, char **argv)
{
    tmtest_init(argc, argv,
                "Transactions whose GCC code forms a destination from the result of _ITM_memcpy,\n"
                "_ITM_memmove or _ITM_memset; every byte of the destination and its neighbours\n"
                "is checked (on GCC's libitm: that such code fails, in a child process).");
    char error[512], self[64];
    snprintf(self, sizeof self, "/proc/%d/exe", (int)getpid()); /* not objdump's /proc/self */
    TMTEST_CHECK(reuse_load(self, error, sizeof error) == 0, "%s", error);
    char missing[512] = "";
    for (int c = 0; c < CASES; c++) {
        struct reuse_finding found;
        int r = reuse_in_function(case_symbol[c], &found);
        TMTEST_CHECK(r >= 0, "function %s is not in the disassembly of %s", case_symbol[c],
                     self);
        if (r == 1)
            tmtest_note("%s: the result of %s forms the destination of %s (%s)", case_symbol[c],
                        found.first, found.second, found.how);
        else
            snprintf(missing + strlen(missing), sizeof missing - strlen(missing), "%s%s",
                     missing[0] ? ", " : "", case_symbol[c]);
    }
    for (size_t i = 0; i < sizeof first_sizes / sizeof *first_sizes; i++)
        opaque_first[i] = first_sizes[i];
    for (size_t j = 0; j < sizeof second_sizes / sizeof *second_sizes; j++)
        opaque_second[j] = second_sizes[j];
    fill(source, sizeof source, 0x40);
    fill(tail, sizeof tail, 0x90);

    if (tmtest_runtime_is_gcc()) {
        if (!missing[0])
            expect_gcc_failure();
    } else {
        signal(SIGSEGV, report_crash);
        signal(SIGBUS, report_crash);
        struct libtm_totals before, after;
        read_totals(&before);
        all_cases("single thread");
        tmtest_beside_busy_thread(all_cases);
        read_totals(&after);
        check_speculative(&before, &after);
        tmtest_note("%ld transactions: every destination and its neighbours as written",
                    transactions_run);
    }
    if (missing[0])
        tmtest_skip("this GCC no longer forms a destination from an _ITM_mem* result in %s "
                    "(objdump -d): the byte checks passed but no longer test what libtm/ABI.md "
                    "§18 says GCC does", missing);
    return 0;
}
