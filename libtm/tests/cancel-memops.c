/* memcpy, memmove and memset inside transactions (the _ITM_memcpy/_ITM_memmove/_ITM_memset
 * families), for every size 0..300 and every source/destination misalignment 0..7, into
 * shared memory and into an array of the transaction's own stack frame: a cancel restores
 * every byte, a commit leaves exactly the copied bytes changed. */
#include "tmtest.h"

#include <stdio.h>
#include <string.h>

#define MAX_SIZE 300
#define ALIGNS 8
#define BUFFER (MAX_SIZE + 2 * 64)
#define GUARD 32 /* bytes before the destination that must never change */

static uint8_t shared_source[BUFFER] __attribute__((aligned(64)));
static uint8_t shared_dest[BUFFER] __attribute__((aligned(64)));
static uint8_t expected[BUFFER];

static void fill_pattern(uint8_t *buffer, uint8_t seed)
{
    for (int i = 0; i < BUFFER; i++)
        buffer[i] = (uint8_t)(seed + i * 7);
}

static void compare(const char *who, const char *what, const uint8_t *actual, size_t size,
                    size_t source_align, size_t dest_align)
{
    for (int i = 0; i < BUFFER; i++)
        if (actual[i] != expected[i])
            TMTEST_FAIL("%s: %s of %zu bytes (source offset %zu, destination offset %zu): "
                        "byte %d of the destination buffer is %#x, expected %#x", who, what,
                        size, source_align, dest_align, i - GUARD, actual[i], expected[i]);
}

/* Sizes and offsets come from memory the compiler cannot see through, so that the calls
 * stay real library calls and are not expanded into stores. */
static volatile size_t size_source[MAX_SIZE + 1];

static void memops_on_shared(const char *who)
{
    for (size_t size_index = 0; size_index <= MAX_SIZE; size_index++) {
        size_t size = size_source[size_index];
        for (size_t sa = 0; sa < ALIGNS; sa++) {
            for (size_t da = 0; da < ALIGNS; da++) {
                uint8_t *dest = shared_dest + GUARD + da;
                const uint8_t *source = shared_source + GUARD + sa;
                for (int cancel = 1; cancel >= 0; cancel--) {
                    fill_pattern(shared_dest, 1);
                    fill_pattern(expected, 1);
                    if (!cancel)
                        memcpy(expected + GUARD + da, source, size);
                    __transaction_atomic {
                        memcpy(dest, source, size);
                        if (cancel)
                            __transaction_cancel;
                    }
                    compare(who, cancel ? "cancelled memcpy" : "committed memcpy", shared_dest,
                            size, sa, da);

                    /* Overlapping move inside one shared buffer. */
                    fill_pattern(shared_dest, 3);
                    fill_pattern(expected, 3);
                    if (!cancel)
                        memmove(expected + GUARD + da, expected + GUARD + sa, size);
                    __transaction_atomic {
                        memmove(dest, shared_dest + GUARD + sa, size);
                        if (cancel)
                            __transaction_cancel;
                    }
                    compare(who, cancel ? "cancelled overlapping memmove"
                                        : "committed overlapping memmove",
                            shared_dest, size, sa, da);
                }
            }
            /* memset only has a destination: sa plays its role. */
            for (int cancel = 1; cancel >= 0; cancel--) {
                uint8_t *dest = shared_dest + GUARD + sa;
                fill_pattern(shared_dest, 5);
                fill_pattern(expected, 5);
                if (!cancel)
                    memset(expected + GUARD + sa, 0xa5, size);
                __transaction_atomic {
                    memset(dest, 0xa5, size);
                    if (cancel)
                        __transaction_cancel;
                }
                compare(who, cancel ? "cancelled memset" : "committed memset", shared_dest, size,
                        0, sa);
            }
        }
    }
}

/* The destination is an array in the frame of the function that runs the transaction. */
static void memops_on_own_frame(const char *who)
{
    uint8_t frame_dest[BUFFER] __attribute__((aligned(64)));
    uint8_t frame_source[BUFFER];
    for (size_t size_index = 0; size_index <= MAX_SIZE; size_index++) {
        size_t size = size_source[size_index];
        for (size_t da = 0; da < ALIGNS; da++) {
            for (int cancel = 1; cancel >= 0; cancel--) {
                fill_pattern(frame_dest, 9);
                fill_pattern(expected, 9);
                if (!cancel) {
                    memcpy(expected + GUARD + da, shared_source + GUARD + 3, size);
                    memset(expected + GUARD + da + size / 2, 0x3c, size - size / 2);
                }
                TMTEST_FORGET_MEMORY();
                __transaction_atomic {
                    memcpy(frame_dest + GUARD + da, shared_source + GUARD + 3, size);
                    memset(frame_dest + GUARD + da + size / 2, 0x3c, size - size / 2);
                    if (cancel)
                        __transaction_cancel;
                }
                TMTEST_FORGET_MEMORY();
                compare(who, cancel ? "cancelled memcpy+memset into the transaction's own frame"
                                    : "committed memcpy+memset into the transaction's own frame",
                        frame_dest, size, 3, da);

                /* And from the frame into shared memory. */
                fill_pattern(frame_source, 11);
                fill_pattern(shared_dest, 13);
                fill_pattern(expected, 13);
                if (!cancel)
                    memcpy(expected + GUARD + da, frame_source + 5, size);
                TMTEST_FORGET_MEMORY();
                __transaction_atomic {
                    memcpy(shared_dest + GUARD + da, frame_source + 5, size);
                    if (cancel)
                        __transaction_cancel;
                }
                compare(who, cancel ? "cancelled memcpy from the transaction's own frame"
                                    : "committed memcpy from the transaction's own frame",
                        shared_dest, size, 5, da);
            }
        }
    }
}

static void all_memops(const char *who)
{
    memops_on_shared(who);
    memops_on_own_frame(who);
}

int main(int argc, char **argv)
{
    tmtest_init(argc, argv,
                "memcpy/memmove/memset of 0..300 bytes at every alignment inside cancelled and\n"
                "committed transactions, on shared memory and on the transaction's own frame.");
    for (size_t i = 0; i <= MAX_SIZE; i++)
        size_source[i] = i;
    fill_pattern(shared_source, 100);
    all_memops("single-threaded process");
    tmtest_note("single thread: all sizes and alignments correct");
    tmtest_beside_busy_thread(all_memops);
    tmtest_note("next to a busy thread: all sizes and alignments correct");
    return 0;
}
