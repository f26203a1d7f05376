/* Every one of the 33 memory-transfer entry points (_ITM_memcpy* and _ITM_memmove* in 15
 * source/destination combinations, _ITM_memsetW/WaR/WaW) returns its destination, as GCC's code
 * assumes (libtm/ABI.md §18), on every path of libtm: an empty copy, outside a transaction, in
 * a revocable transaction between shared buffers (through the algorithm, in 512-byte chunks,
 * overlapping either way), into and out of a frame created inside the transaction, and in an
 * irrevocable transaction; alone and next to a thread that commits transactions. The functions
 * are called by name, as GCC's code would call them, and the bytes are checked after commit.
 * GCC only emits five of the names (memops-result has code that uses their results); the
 * others exist for other compilers. libtm-only: GCC's libitm declares them void. */
#include "tmtest.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#define MAX_SIZE 4099
#define PAD 600 /* room on each side for overlapping moves and misdirected writes */
#define AREA (PAD + MAX_SIZE + PAD)

typedef void *transfer_fn(void *dst, const void *src, size_t n) TMTEST_PURE;
typedef void *set_fn(void *dst, int c, size_t n) TMTEST_PURE;

static const char *const transfer_kinds[] = {
    "RnWt", "RnWtaR", "RnWtaW", "RtWn", "RtWt", "RtWtaR", "RtWtaW", "RtaRWn", "RtaRWt",
    "RtaRWtaR", "RtaRWtaW", "RtaWWn", "RtaWWt", "RtaWWtaR", "RtaWWtaW",
};
#define KINDS (sizeof transfer_kinds / sizeof *transfer_kinds)
static const char *const set_kinds[] = { "W", "WaR", "WaW" };
#define SET_KINDS (sizeof set_kinds / sizeof *set_kinds)

struct entry {
    char name[32];
    transfer_fn *transfer; /* or */
    set_fn *set;
};
static struct entry entries[2 * KINDS + SET_KINDS];
#define ENTRIES (sizeof entries / sizeof *entries)

/* Sizes around the 512-byte chunks; through memory the compiler cannot see into. */
static const size_t sizes[] = { 0, 1, 511, 512, 513, 1025, MAX_SIZE };
#define SIZES (sizeof sizes / sizeof *sizes)
static volatile size_t opaque_sizes[SIZES];

static uint8_t shared_dst[AREA] __attribute__((aligned(64)));
static uint8_t shared_src[AREA] __attribute__((aligned(64)));
static uint8_t expected[AREA];
static long transactions; /* a shared write in each transaction keeps it instrumented */
static int never;         /* read inside transactions: they may cancel, so none runs uninstrumented */

enum path { SHARED, SHARED_OVERLAP_UP, SHARED_OVERLAP_DOWN, INTO_FRAME, OUT_OF_FRAME, PATHS };
static const char *const path_names[PATHS] = {
    "shared to shared", "overlapping, destination above", "overlapping, destination below",
    "into a frame created in the transaction", "out of a frame created in the transaction",
};

static void fill(uint8_t *buffer, size_t size, uint8_t seed)
{
    for (size_t i = 0; i < size; i++)
        buffer[i] = (uint8_t)(seed + i * 7 + (i >> 9));
}

/* Calls the entry point and records a violation unless it returned `dst`. */
TMTEST_PURE static void call_checked(const struct entry *e, uint8_t *dst, const uint8_t *src,
                                     size_t n, const char *where)
{
    void *r = e->transfer ? e->transfer(dst, src, n) : e->set(dst, 0x6b, n);
    if (r != dst)
        tmtest_violation("%s(%p, ..., %zu) %s returned %p, not its destination", e->name,
                         (void *)dst, n, where, r);
}

/* The frame of this function is created inside the transaction: libtm's private stack. */
TMTEST_PURE static void through_frame(const struct entry *e, enum path p, uint8_t *dst,
                                      const uint8_t *src, size_t n, const char *where)
{
    uint8_t frame[MAX_SIZE + 8];
    if (p == INTO_FRAME) {
        call_checked(e, frame + 3, src, n, where);
        memcpy(dst, frame + 3, n); /* pure: the commit check sees what the call wrote */
    } else {
        memcpy(frame + 5, src, n);
        call_checked(e, dst, frame + 5, n, where);
    }
}

static void operate(const struct entry *e, enum path p, uint8_t *dst, const uint8_t *src, size_t n,
                    int irrevocable, const char *where)
{
    if (irrevocable) {
        __transaction_relaxed {
            transactions++;
            _ITM_changeTransactionMode(0);
            if (p == INTO_FRAME || p == OUT_OF_FRAME)
                through_frame(e, p, dst, src, n, where);
            else
                call_checked(e, dst, src, n, where);
        }
    } else {
        __transaction_atomic {
            transactions++;
            if (p == INTO_FRAME || p == OUT_OF_FRAME)
                through_frame(e, p, dst, src, n, where);
            else
                call_checked(e, dst, src, n, where);
            if (never)
                __transaction_cancel;
        }
    }
}

/* mode: 0 outside a transaction, 1 revocable, 2 irrevocable. */
static void check_one(const char *who, const struct entry *e, enum path p, size_t n, int mode)
{
    static const char *const modes[] = { "outside a transaction", "in a revocable transaction",
                                         "in an irrevocable transaction" };
    char where[200];
    snprintf(where, sizeof where, "%s, %s (%s)", modes[mode], path_names[p], who);
    fill(shared_dst, AREA, (uint8_t)(n + p));
    fill(shared_src, AREA, (uint8_t)(0x80 + n));
    uint8_t *dst = shared_dst + PAD;
    const uint8_t *src = shared_src + PAD + 1;
    if (p == SHARED_OVERLAP_UP)
        src = dst - 517;
    else if (p == SHARED_OVERLAP_DOWN)
        src = dst + 517;
    memcpy(expected, shared_dst, AREA);
    uint8_t *want = expected + PAD;
    if (e->set)
        memset(want, 0x6b, n);
    else
        memmove(want, p == SHARED_OVERLAP_UP || p == SHARED_OVERLAP_DOWN
                          ? expected + (src - shared_dst) : src, n);
    if (mode == 0)
        call_checked(e, dst, src, n, where);
    else
        operate(e, p, dst, src, n, mode == 2, where);
    tmtest_check_no_violations(e->name);
    for (size_t i = 0; i < AREA; i++)
        TMTEST_CHECK(shared_dst[i] == expected[i],
                     "%s of %zu bytes %s: byte destination%+ld is %#x, expected %#x", e->name, n,
                     where, (long)i - PAD, shared_dst[i], expected[i]);
}

static long checks;

static void all_entries(const char *who)
{
    for (size_t i = 0; i < ENTRIES; i++) {
        const struct entry *e = &entries[i];
        for (size_t s = 0; s < SIZES; s++) {
            size_t n = opaque_sizes[s];
            for (int p = 0; p < PATHS; p++) {
                /* Only memmove may overlap; memset has no source to put in a frame. */
                if ((p == SHARED_OVERLAP_UP || p == SHARED_OVERLAP_DOWN) &&
                    strncmp(e->name, "_ITM_memmove", 12) != 0)
                    continue;
                if (p == OUT_OF_FRAME && e->set)
                    continue;
                for (int mode = 0; mode <= 2; mode++, checks++)
                    check_one(who, e, (enum path)p, n, mode);
            }
        }
    }
}

int main(int argc, char **argv)
{
    tmtest_init(argc, argv,
                "Each _ITM_memcpy*, _ITM_memmove*, _ITM_memset* returns its destination, for\n"
                "sizes around 512 bytes, outside, in revocable and in irrevocable transactions.");
    if (tmtest_runtime_is_gcc())
        tmtest_skip("GCC's libitm declares these functions void and returns no destination "
                    "(libtm-memops-result-gcc checks that code using it fails there)");
    size_t count = 0;
    for (int op = 0; op < 2; op++)
        for (size_t k = 0; k < KINDS; k++, count++) {
            snprintf(entries[count].name, sizeof entries[count].name, "_ITM_%s%s",
                     op ? "memmove" : "memcpy", transfer_kinds[k]);
            entries[count].transfer = (transfer_fn *)dlsym(RTLD_DEFAULT, entries[count].name);
            TMTEST_CHECK(entries[count].transfer, "%s is missing", entries[count].name);
        }
    for (size_t k = 0; k < SET_KINDS; k++, count++) {
        snprintf(entries[count].name, sizeof entries[count].name, "_ITM_memset%s", set_kinds[k]);
        entries[count].set = (set_fn *)dlsym(RTLD_DEFAULT, entries[count].name);
        TMTEST_CHECK(entries[count].set, "%s is missing", entries[count].name);
    }
    for (size_t s = 0; s < SIZES; s++)
        opaque_sizes[s] = sizes[s];
    all_entries("single thread");
    tmtest_beside_busy_thread(all_entries);
    tmtest_note("%zu entry points, %ld calls: each returned its destination and wrote exactly "
                "its bytes", count, checks);
    return 0;
}
