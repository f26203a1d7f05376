/* Known conflicts for LIBTM_CONFLICTS (conflicts.sh checks what the tool names).
 *
 *   conflicts exact [--rounds=N]  two threads, handshakes inside the transactions: each round
 *       one victim block reads, then waits (transaction-pure, outside libtm's view) until a
 *       writer block has committed a write to `game.field`, then writes and commits. Rounds
 *       alternate: the victim of odd rounds reads `game.neighbour` (the next word, same
 *       32-byte stripe) while writer A writes the field: a false conflict under orec, none
 *       under norec; the victim of even rounds reads `game.field` itself while writer B
 *       writes it: a true conflict under both. Then the same on a heap block that a
 *       transaction allocated (victim reads `heap->field`, writer B writes it). The victim
 *       waits only in its first attempt, so a run has exactly the aborts the rounds make.
 *       Needs a forced software algorithm (LIBTM_ALGO): hardware transactions cannot wait
 *       for each other.
 *   conflicts held [--rounds=N]    orec with LIBTM_CM=immediate: a writer locks the stripe by
 *       writing `game.field` and waits, inside its transaction, until the victim has found the
 *       lock held (it aborts at once) and started again; the victim reads `game.neighbour`: a
 *       false conflict on a held lock, one per round.
 *   conflicts free [--ops=N]        two threads run the same blocks without handshakes: any
 *       number of conflicts, in software or in hardware; conflicts.sh checks that the records
 *       add up to libtm's counts.
 * Every block's begin line carries a "block:" comment that conflicts.sh looks up. */
#include "tmtest.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct game {
    long before[4];
    long field;     /* written by the writer blocks */
    long neighbour; /* same stripe as field: only read */
    long after[2];
} __attribute__((aligned(64)));

struct game game;
static struct game *heap;
static long victim_out[8] __attribute__((aligned(64)));

static atomic_long read_done, writer_done;
static long waited; /* the round whose victim already waited (pure code only) */
static long rounds = 200, ops = 20000;

/* Outside libtm's view: the victim's first attempt of each round says it has read, then
 * waits for the writer's commit. */
TMTEST_PURE static void wait_for_writer(long round)
{
    if (waited == round)
        return;
    waited = round;
    atomic_store(&read_done, round);
    while (atomic_load(&writer_done) != round)
        tmtest_yield(1);
}

TMTEST_PURE static void wait_for_victim(long round)
{
    while (atomic_load(&read_done) != round)
        tmtest_yield(1);
}

static __attribute__((noinline)) void writer_a(void)
{
    __transaction_atomic { game.field += 1; } /* block: writer-a */
}

static __attribute__((noinline)) void writer_b(struct game *g)
{
    __transaction_atomic { g->field += 2; } /* block: writer-b */
}

static __attribute__((noinline)) void victim_neighbour(long round)
{
    __transaction_atomic { /* block: victim-neighbour */
        long v = game.neighbour;
        wait_for_writer(round);
        victim_out[0] = v + round;
    }
}

static __attribute__((noinline)) void victim_field(long round)
{
    __transaction_atomic { /* block: victim-field */
        long v = game.field;
        wait_for_writer(round);
        victim_out[0] = v + round;
    }
}

static __attribute__((noinline)) void victim_heap(long round)
{
    __transaction_atomic { /* block: victim-heap */
        long v = heap->field;
        wait_for_writer(round);
        victim_out[0] = v + round;
    }
}

static void register_both(int index);

/* held: the victim's first attempt waits for the writer's lock; its second says so and waits
 * for the writer's commit. */
static atomic_long writer_locked, victim_retried, victim_done;
static long held_attempts_round, held_attempts;
TMTEST_PURE static void held_attempt(long round)
{
    if (held_attempts_round != round) {
        held_attempts_round = round;
        held_attempts = 0;
    }
    if (held_attempts++ == 0) {
        while (atomic_load(&writer_locked) != round)
            tmtest_yield(1);
    } else {
        atomic_store(&victim_retried, round);
        while (atomic_load(&writer_done) != round)
            tmtest_yield(1);
    }
}

TMTEST_PURE static void holding(long round)
{
    atomic_store(&writer_locked, round);
    while (atomic_load(&victim_retried) != round)
        tmtest_yield(1);
}

static __attribute__((noinline)) void victim_held(long round)
{
    __transaction_atomic { /* block: victim-held */
        held_attempt(round);
        victim_out[0] = game.neighbour;
    }
}

static __attribute__((noinline)) void writer_held(long round)
{
    __transaction_atomic { /* block: writer-held */
        game.field += 4;
        holding(round);
    }
}

static void held(int index)
{
    register_both(index);
    for (long r = 1; r <= rounds; r++) {
        if (index == 0) {
            victim_held(r);
            atomic_store(&victim_done, r);
        } else {
            writer_held(r);
            atomic_store(&writer_done, r);
            while (atomic_load(&victim_done) != r) /* its next lock would abort this victim */
                tmtest_yield(1);
        }
    }
}

static __attribute__((noinline)) void allocate_heap(void)
{
    __transaction_atomic { /* block: allocator */
        heap = malloc(sizeof *heap);
        if (heap)
            memset(heap, 0, sizeof *heap);
    }
}

/* A thread registers with libtm at its first transaction, which waits for running ones: both
 * register before any victim waits. */
static atomic_int registered;
static void register_both(int index)
{
    __transaction_atomic { victim_out[4 + index]++; }
    atomic_fetch_add(&registered, 1);
    while (atomic_load(&registered) != 2)
        tmtest_yield(1);
}

/* Round r: 0 mod 3 neighbour/A, 1 mod 3 field/B, 2 mod 3 heap/B. */
static void exact(int index)
{
    register_both(index);
    for (long r = 1; r <= rounds; r++) {
        int kind = (int)(r % 3);
        if (index == 0) {
            if (kind == 0)
                victim_neighbour(r);
            else if (kind == 1)
                victim_field(r);
            else
                victim_heap(r);
        } else {
            wait_for_victim(r);
            if (kind == 0)
                writer_a();
            else
                writer_b(kind == 1 ? &game : heap);
            atomic_store(&writer_done, r);
        }
    }
}

static void free_running(int index)
{
    for (long i = 0; i < ops; i++) {
        if (index == 0) {
            long r = -1 - i; /* never a round: the victims do not wait */
            waited = r;
            switch (i % 3) {
            case 0: victim_neighbour(r); break;
            case 1: victim_field(r); break;
            default: victim_heap(r); break;
            }
        } else if (i % 2) {
            writer_a();
        } else {
            writer_b(i % 4 ? &game : heap);
        }
    }
}

int main(int argc, char **argv)
{
    tmtest_init(argc, argv, "conflicts exact [--rounds=N] | held [--rounds=N] | free [--ops=N]");
    rounds = tmtest_option(argc, argv, "rounds", rounds);
    ops = tmtest_option(argc, argv, "ops", ops);
    const char *mode = argc > 1 ? argv[1] : "";
    bool exact_mode = strcmp(mode, "exact") == 0, held_mode = strcmp(mode, "held") == 0;
    if (!exact_mode && !held_mode && strcmp(mode, "free") != 0)
        TMTEST_FAIL("say exact, held or free");
    allocate_heap();
    TMTEST_CHECK(heap != NULL, "the heap block was not allocated");
    tmtest_run_threads(2, exact_mode ? exact : held_mode ? held : free_running);
    if (held_mode)
        TMTEST_CHECK(game.field == 4 * rounds, "lost updates: field %ld (want %ld)", game.field,
                     4 * rounds);
    if (exact_mode) {
        /* Writer A adds 1 in rounds 0 mod 3, B adds 2 in rounds 1 mod 3 (game) and 2 mod 3
         * (heap). */
        long a = rounds / 3, b_game = (rounds + 2) / 3, b_heap = (rounds + 1) / 3;
        TMTEST_CHECK(game.field == a + 2 * b_game && heap->field == 2 * b_heap,
                     "lost updates: field %ld (want %ld), heap %ld (want %ld)", game.field,
                     a + 2 * b_game, heap->field, 2 * b_heap);
    }
    printf("conflicts: %s done\n", mode);
    return 0;
}
