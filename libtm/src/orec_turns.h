/* orec's writers in turns (orec_turns.c): while writing transactions often abort each other,
 * each takes a token at its first lock and gives it back when it ends, so that writers run
 * one at a time as norec's do, readers still beside them. Correctness never depends on the
 * token: it only makes a writer wait. */
#ifndef LIBTM_OREC_TURNS_H
#define LIBTM_OREC_TURNS_H

#include "tx.h"

#define OREC_TURNS_WINDOW 256         /* a thread's writing commits judged at once */
#define OREC_TURNS_ABORT_PER_MILLE 10 /* 1 %: more rollbacks in a window switch turns on */
#define OREC_TURNS_SPAN 16384         /* turns before writers go side by side again */
#define OREC_TURN_WAIT_CYCLES 200000  /* about 70 us at 3 GHz: a waiter goes on without */

/* A thread's view: its window of writing commits and aborts, and whether it holds the turn. */
struct orec_turns_window {
    uint32_t commits, aborts; /* in the current window */
    uint32_t epoch;           /* the switch count when the window began */
    uint8_t turn;             /* the current transaction's: enum orec_turn */
};
enum orec_turn { TURN_NONE, TURN_HELD, TURN_WITHOUT /* waited in vain, or crowded */ };

/* 1 while writers take turns; read at each transaction's first lock. */
extern _Atomic uint32_t tm_orec_turns_on __attribute__((visibility("hidden")));

/* Waits for the turn (bounded: a holder that does not end in time is given up and the
 * transaction goes on without it), answering privatization requests meanwhile. */
void tm_orec_turn_take(struct tm_tx *tx, struct orec_turns_window *w)
    __attribute__((visibility("hidden"), noinline));

/* The turn back, after the transaction released its locks. */
void tm_orec_turn_give(void) __attribute__((visibility("hidden")));

/* A writing transaction ended (its locks released): gives the turn back if it held it. */
static inline void tm_orec_turn_end(struct orec_turns_window *w)
{
    if (unlikely(w->turn != TURN_NONE)) {
        if (w->turn == TURN_HELD)
            tm_orec_turn_give();
        w->turn = TURN_NONE;
    }
}

/* The window judged once it is full: switches turns on when aborts were frequent. */
void tm_orec_turns_judge(struct orec_turns_window *w) __attribute__((visibility("hidden")));

/* Counts a writing commit (the caller holds no turn any more). */
static inline void tm_orec_turns_commit(struct orec_turns_window *w)
{
    if (unlikely(++w->commits >= OREC_TURNS_WINDOW))
        tm_orec_turns_judge(w);
}

#endif
