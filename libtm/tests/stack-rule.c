/* The stack rule of the undo log (libtm/ABI.md §11): stores that a transaction made into
 * the frames of functions it called are not restored at rollback, because those frames are
 * dead and the rollback itself runs on that stack; stores into the frame of the function that
 * holds the transaction (and older frames) are restored. A runtime that restores the dead
 * frames overwrites its own live stack during the cancel and crashes or corrupts values. */
#include "tmtest.h"

#include <string.h>

#define DEAD_FRAME_BYTES 8192

/* Keeps the callee's array observable, so that GCC instruments the stores into it. */
__attribute__((noinline, transaction_safe)) static long fold(const unsigned char *bytes,
                                                             size_t size)
{
    long sum = 0;
    for (size_t i = 0; i < size; i += 64)
        sum += bytes[i];
    return sum;
}

/* Writes a large local array (through transactional barriers) and returns: its frame dies. */
__attribute__((noinline, transaction_safe)) static long write_dead_frame(unsigned char fill)
{
    unsigned char dead[DEAD_FRAME_BYTES];
    memset(dead, fill, sizeof dead);
    for (size_t i = 0; i < sizeof dead; i += 8)
        dead[i] = (unsigned char)(fill + i);
    return fold(dead, sizeof dead);
}

/* The transaction's own frame, whose stores must be undone. */
static void one_round(int round, long *shared_result)
{
    unsigned char own[256];
    memset(own, 0x11, sizeof own);
    long before = *shared_result;
    __transaction_atomic {
        long value = write_dead_frame((unsigned char)round);
        value += write_dead_frame((unsigned char)(round + 1));
        memset(own, 0x22, sizeof own);
        *shared_result = value;
        __transaction_cancel;
    }
    for (size_t i = 0; i < sizeof own; i++)
        TMTEST_CHECK(own[i] == 0x11, "round %d: byte %zu of the transaction's own frame is %#x "
                     "after the cancel, expected 0x11", round, i, own[i]);
    TMTEST_CHECK(*shared_result == before, "round %d: a cancelled store survived", round);
}

static long results[2];

static void rounds(int index)
{
    for (int round = 0; round < 200; round++)
        one_round(round, &results[index]);
}

int main(int argc, char **argv)
{
    tmtest_init(argc, argv,
                "Cancels transactions after they wrote 16 KB into the frames of functions that\n"
                "have returned: the runtime must not restore those dead frames, but must restore\n"
                "the frame that holds the transaction.");
    rounds(0);
    tmtest_note("single thread: dead frames left alone, own frame restored");
    tmtest_run_threads(2, rounds);
    tmtest_note("two threads: dead frames left alone, own frame restored");
    return 0;
}
