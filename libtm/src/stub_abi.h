/* Constants that the begin stub (begin_x86_64.S) shares with C: offsets in tm_serial_lock and
 * struct tm_tx, the serial algorithm's registry index (checked by _Static_assert in htm.c and
 * transaction.c), the property bits and xabort codes of the hardware (RTM) fast path. Only
 * #defines: the assembler includes this file too. */
#ifndef LIBTM_STUB_ABI_H
#define LIBTM_STUB_ABI_H

/* tm_serial_lock (tx.h): the lock word at offset 0, the htm mode byte and the mode's algorithm
 * here. */
#define TM_SERIAL_LOCK_HTM_MODE_OFFSET 4
#define TM_SERIAL_LOCK_ALGO_OFFSET 5
/* enum tm_algo_id of "serial": only then may the serial fast path run (transaction.c). */
#define TM_ALGO_SERIAL_INDEX 2
/* The four mode bytes at offset 4 (htm mode, algorithm, speculative, general_only) while the
 * serial fast path may run: hardware transactions off, the serial algorithm, nobody on the
 * read side, statistics off and a contention manager that need not hear of ends. */
#define TM_SERIAL_LOCK_MODE_OFFSET 4
#define TM_SERIAL_FAST_MODE (TM_ALGO_SERIAL_INDEX << 8)
/* The turn's holder (struct tm_tx *, NULL: nobody's turn). */
#define TM_SERIAL_LOCK_TURN_OFFSET 8

/* The thread control block word that holds the descriptor (tx.h: TM_TCB_OFFSET). */
#define TM_TCB_OFFSET 0x50

/* struct tm_tx fields the begin stub writes when statistics are on ... */
#define TM_TX_HTM_SITE_OFFSET 136 /* void *htm_site: begin site of the hardware transaction */
/* ... and those of the serial fast path: the run word (state, paths, serial-lock hold and
 * depth: 0 between transactions while statistics are off), the fork generation, the id and
 * irrevocable_needed. */
#define TM_TX_RUN_OFFSET 8
#define TM_TX_GENERATION_OFFSET 16
#define TM_TX_ID_OFFSET 24
#define TM_TX_IRREVOCABLE_NEEDED_OFFSET 56
/* The run word of a transaction begun by the serial fast path: TX_IRREVOCABLE, both paths
 * direct, HOLD_WRITE_FAST (or, for a thread alone, HOLD_READ_ALONE), depth 1. */
#define TM_RUN_SERIAL_FAST 0x0000000103000003
#define TM_RUN_SERIAL_ALONE 0x0000000104000003
/* The reader flag (struct tm_tx) that a thread alone sets on the fast path: nobody else
 * tells its attempts apart (reclaim.c watches other threads' flags only). */
#define TM_TX_READER_OFFSET 512
#define TM_READER_ALONE 1

/* Properties that allow the hardware path: an uninstrumented path to run, an instrumented one
 * (a transaction without it must be irrevocable at once), no cancel, no certain irrevocability,
 * and no pr_undoLogCode (the software path reports that). */
#define TM_HTM_PROPS_MASK   0x044b
#define TM_HTM_PROPS_WANTED 0x000b
/* Private bits of the property word (the compiler uses bits 0-22): tm_begin learns that the
 * hardware path was tried and gave up; the stub counts hardware attempts in the top bits
 * (registers survive an abort as they were at xbegin, memory stores do not). */
#define TM_PR_HTM_FELL_BACK      0x01000000
#define TM_PR_HTM_ATTEMPT_SHIFT  26
#define TM_PR_HTM_ATTEMPT_MASK   0xfc000000
#define TM_PR_HTM_PRIVATE        0xfd000000
/* The C core's own bit (GCC never passes it: libitm keeps it for its pr_HTMRetryableAbort): an
 * open transaction begun by libtm_open under its parent's serial-lock hold (transaction.c).
 * Outside TM_HTM_PROPS_MASK, so the stub never starts such a transaction in hardware. */
#define TM_PR_OPEN               0x00800000

/* xabort codes (bits 31..24 of the abort status). */
#define TM_HTM_ABORT_LOCKED   0xff /* the serial lock was held: wait for it, then retry */
#define TM_HTM_ABORT_MODE     0xfe /* htm mode was switched off: run in software */
#define TM_HTM_ABORT_SOFTWARE 0xfd /* an entry point that needs the software runtime */

#endif
