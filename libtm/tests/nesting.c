/* Nesting: closed nesting 20 levels deep, where __transaction_cancel in a nested transaction
 * undoes only that transaction (and the ones it contains), __transaction_cancel [[outer]]
 * undoes everything; flat nesting (an inner transaction that cannot cancel) is undone with
 * its parent. Runs single-threaded and then in two threads at once. */
#include "tmtest.h"

#include <stdio.h>
#include <string.h>

#define DEPTH 20

enum cancel_kind { CANCEL_NONE, CANCEL_INNER, CANCEL_OUTER };

struct nest_state {
    long level_value[DEPTH + 1]; /* level d writes level_value[d] */
    long after_inner[DEPTH + 1];  /* written by level d after its child returned */
};
static struct nest_state states[2];

/* Enters transaction level `depth`; the level `cancel_at` cancels at its end. */
__attribute__((transaction_may_cancel_outer, noinline))
static void nest(struct nest_state *state, int depth, int cancel_at, enum cancel_kind kind,
                 long stamp)
{
    __transaction_atomic {
        state->level_value[depth] = stamp + depth;
        if (depth < DEPTH)
            nest(state, depth + 1, cancel_at, kind, stamp);
        state->after_inner[depth] = stamp + depth;
        if (depth == cancel_at) {
            if (kind == CANCEL_INNER)
                __transaction_cancel;
            if (kind == CANCEL_OUTER)
                __transaction_cancel [[outer]];
        }
    }
}

/* Both threads write it in every outermost transaction, so that they conflict and restart
 * with nested transactions in flight. */
static long contention_word;

static void run_outer(struct nest_state *state, int cancel_at, enum cancel_kind kind, long stamp)
{
    __transaction_atomic [[outer]] {
        contention_word = stamp;
        nest(state, 1, cancel_at, kind, stamp);
    }
}

static void check_levels(const char *who, const struct nest_state *state, int cancel_at,
                         enum cancel_kind kind, long stamp, long previous_stamp)
{
    for (int d = 1; d <= DEPTH; d++) {
        int undone = kind == CANCEL_OUTER || (kind == CANCEL_INNER && d >= cancel_at);
        long expected = undone ? previous_stamp + d : stamp + d;
        TMTEST_CHECK(state->level_value[d] == expected && state->after_inner[d] == expected,
                     "%s: after a %s cancel at depth %d of %d, level %d holds %ld/%ld, expected "
                     "%ld (%s)", who, kind == CANCEL_OUTER ? "[[outer]]" : "nested", cancel_at,
                     DEPTH, d, state->level_value[d], state->after_inner[d], expected,
                     undone ? "its writes must be undone" : "its writes must stay");
    }
}

struct flat_words {
    long value, outer_value;
    char padding[48];
};
static struct flat_words flat_words[2]; /* one per thread */

/* The inner transaction cannot cancel, so it may be flattened into the outer one: cancelling
 * the outer must undo the inner's committed writes too. */
static void check_flat_nesting(struct flat_words *words)
{
    words->value = 1;
    words->outer_value = 1;
    int depth_inside = -1;
    __transaction_atomic {
        words->outer_value = 2;
        __transaction_atomic {
            words->value = 2;
        }
        depth_inside = 1;
        __transaction_cancel;
    }
    TMTEST_CHECK(words->value == 1 && words->outer_value == 1,
                 "flat nesting: the outer transaction cancelled after its inner one committed, "
                 "but inner wrote %ld (expected 1) and outer %ld (expected 1)", words->value,
                 words->outer_value);
    TMTEST_CHECK(depth_inside == -1, "flat nesting: a local written before the cancel kept %d",
                 depth_inside);

    __transaction_atomic {
        __transaction_atomic {
            words->value = 3;
        }
        words->outer_value = 3;
    }
    TMTEST_CHECK(words->value == 3 && words->outer_value == 3,
                 "flat nesting: committed inner+outer wrote %ld/%ld, expected 3/3", words->value,
                 words->outer_value);
}

static void nesting_scenarios(int index)
{
    char who[32];
    snprintf(who, sizeof who, "thread %d", index);
    struct nest_state *state = &states[index];
    long stamp = 1000;
    memset(state, 0, sizeof *state);
    for (int round = 0; round < 3; round++) {
        for (int cancel_at = 1; cancel_at <= DEPTH; cancel_at++) {
            long previous = stamp;
            run_outer(state, 0, CANCEL_NONE, stamp);
            check_levels(who, state, 0, CANCEL_NONE, stamp, stamp);

            stamp += 1000;
            run_outer(state, cancel_at, CANCEL_INNER, stamp);
            check_levels(who, state, cancel_at, CANCEL_INNER, stamp, previous);
            /* Bring all levels to the same stamp again. */
            run_outer(state, 0, CANCEL_NONE, stamp);

            long before_outer = stamp;
            stamp += 1000;
            run_outer(state, cancel_at, CANCEL_OUTER, stamp);
            check_levels(who, state, cancel_at, CANCEL_OUTER, stamp, before_outer);
            stamp += 1000;
        }
        check_flat_nesting(&flat_words[index]);
    }
}

int main(int argc, char **argv)
{
    tmtest_init(argc, argv,
                "Closed nesting 20 deep with nested and [[outer]] cancels at every depth, and\n"
                "flat nesting; single-threaded, then two threads at once.");
    nesting_scenarios(0);
    tmtest_note("single thread: closed and flat nesting correct at depth %d", DEPTH);
    tmtest_run_threads(2, nesting_scenarios);
    tmtest_note("two threads: closed and flat nesting correct at depth %d", DEPTH);
    return 0;
}
