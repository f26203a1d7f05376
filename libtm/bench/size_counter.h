/* A shared element count that inserts and removes update (intset --size-counter; an insert
 * takes it before it inserts, as an allocator takes a slot before it fills it): the conflict
 * hot spot of a size field, kept in one of three ways inside the operation's transaction:
 *   flat    the count is updated in the operation's transaction, which then conflicts with
 *           every other update until it commits;
 *   closed  the same in a nested transaction that may cancel (libtm gives it a checkpoint and
 *           partial rollback; the conflict window is the same);
 *   open    libtm_open: a transaction of its own that commits at once, compensated if the
 *           operation rolls back (libtm only; GCC's libitm has no open nesting).
 * The mutex and sequential builds update the count plainly in every mode. */
#ifndef BENCH_SIZE_COUNTER_H
#define BENCH_SIZE_COUNTER_H

#include <stdbool.h>
#include "bench_sync.h"

enum size_counter_mode { SIZE_COUNTER_NONE, SIZE_COUNTER_FLAT, SIZE_COUNTER_CLOSED, SIZE_COUNTER_OPEN };

/* The count alone on its cache line: the operations read the mode, and under orec a read of
 * the same 32-byte stripe as an open transaction's write is a read of that location (the
 * operation would fail its validation after every open transaction's commit). */
struct size_counter {
    _Alignas(64) long value;
    _Alignas(64) enum size_counter_mode mode;
};

/* Parses a --size-counter value (none, flat, closed, open); false for another. */
bool size_counter_mode_from_name(const char *name, enum size_counter_mode *mode);
const char *size_counter_mode_name(enum size_counter_mode mode);
/* Starts the count at `initial`. False when the mode is open and the loaded runtime has no
 * libtm_open (found with dlsym, so that the program still runs on GCC's libitm). */
bool size_counter_init(struct size_counter *counter, enum size_counter_mode mode, long initial);
/* Adds +1 or -1, inside the operation's transaction. */
TM_SAFE void size_counter_add(struct size_counter *counter, long delta);

#endif
