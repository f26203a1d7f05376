/* Unit tests of orec's writers in turns (src/orec_turns.c): when a thread's window switches
 * turns on, that one writer at a time holds the turn and a waiter gives up on a holder that
 * does not end (an open transaction whose parent holds it, at once), that a span of turns
 * switches them off, and that a window that saw a switch is not judged. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "orec_turns.h"

/* A window of OREC_TURNS_WINDOW writing commits with `aborts` rollbacks, judged. */
static void run_window(struct orec_turns_window *w, uint32_t aborts)
{
    w->aborts += aborts;
    for (int i = 0; i < OREC_TURNS_WINDOW; i++)
        tm_orec_turns_commit(w);
}

static bool turns_on(void)
{
    return atomic_load(&tm_orec_turns_on) != 0;
}

static void turns_follow_the_abort_rate(void **state)
{
    (void)state;
    static const struct tm_algo no_moves = { .name = "test" };
    static struct tm_tx first, second;
    first.algo = second.algo = &no_moves;
    struct orec_turns_window a = { 0 }, b = { 0 };

    /* 1 % of 256 + 2 rollbacks is 2.58: 2 rollbacks are not frequent, 3 are. */
    run_window(&a, 2);
    assert_false(turns_on());
    assert_int_equal(a.commits + a.aborts, 0); /* judged: a new window begins */
    run_window(&a, 3);
    assert_true(turns_on());

    /* b's window began before the switch: it is not judged, only begun anew. */
    run_window(&b, 0);
    assert_true(turns_on());

    /* One writer holds the turn; another waits for it in vain while the holder runs on. */
    tm_orec_turn_take(&first, &a);
    assert_int_equal(a.turn, TURN_HELD);
    tm_orec_turn_take(&second, &b);
    assert_int_equal(b.turn, TURN_WITHOUT);
    tm_orec_turn_end(&b);
    assert_int_equal(b.turn, TURN_NONE);
    /* An open transaction whose parent holds the turn goes on without it. */
    static struct tm_tx child;
    child.algo = &no_moves;
    child.open_parent = &first;
    struct orec_turns_window c = { 0 };
    tm_orec_turn_take(&child, &c);
    assert_int_equal(c.turn, TURN_WITHOUT);
    tm_orec_turn_end(&c);
    tm_orec_turn_end(&a);
    assert_int_equal(a.turn, TURN_NONE);
    tm_orec_turn_take(&second, &b); /* given back: free again */
    assert_int_equal(b.turn, TURN_HELD);
    tm_orec_turn_end(&b);

    /* A span of turns switches them off (the 2 given above count). */
    for (int i = 2; i < OREC_TURNS_SPAN - 1; i++) {
        tm_orec_turn_take(&first, &a);
        tm_orec_turn_end(&a);
    }
    assert_true(turns_on());
    tm_orec_turn_take(&first, &a);
    tm_orec_turn_end(&a);
    assert_false(turns_on());

    /* a's window saw the switch: frequent rollbacks there are not judged; in the next, they
     * switch turns on again. */
    run_window(&a, 100);
    assert_false(turns_on());
    run_window(&a, 100);
    assert_true(turns_on());
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(turns_follow_the_abort_rate),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
