/* Open nesting (libtm_open, libtm.h; libtm only): the open transaction commits before
 * libtm_open returns; a compensation runs, exactly once, when the enclosing transaction rolls
 * back after it (cancel at every nesting depth, [[outer]], restarts under contention), after
 * the rollback restored memory and in reverse order with undo actions; nothing runs when the
 * enclosing transaction commits; outside a transaction and in an irrevocable one nothing is
 * registered; nested opens, a function without a clone, an open transaction that meets a
 * location its parent holds (orec's stripe), closed nesting inside an open transaction; then
 * 16 threads whose parents conflict, cancel and restart around one open counter: the counter
 * equals the committed parents, and libtm's counts of open commits and compensations equal the
 * program's. */
#include "tmtest.h"

#include <libtm.h>
#include <stdio.h>
#include <string.h>

#define DEPTH 4
#define THREADS 16
#define SLOTS 8
#define MAX_EVENTS 64

/* ---- the abstract state that open transactions own ------------------------------------- */

/* Each on a cache line of its own: under orec a parent's write to the same 32-byte stripe makes
 * the outermost transaction run alone (that case has a test of its own, shared_stripe). */
#define APART _Alignas(64)
static APART long counter;       /* what the open transactions count */
static APART long fn_commits;    /* open transactions (of most functions below) that committed */
static APART long compensations; /* compensations that committed */
static APART long noise;         /* written by a closed transaction inside an open one */

/* What the enclosing transactions write (open transactions never touch it). */
static APART long parent_data;
static APART long slots[SLOTS];

/* Compensations (transactionally) and undo actions (plainly, after the rollback) append to a
 * journal: 100 + id for a compensation, 200 + id for an undo action. */
static struct {
    long event[MAX_EVENTS];
    long count;
} journal;

LIBTM_SAFE static void journal_add(long event)
{
    if (journal.count < MAX_EVENTS)
        journal.event[journal.count++] = event;
}

/* Reset at the start of every attempt of an enclosing transaction: what the rollbacks of
 * earlier attempts recorded is legitimate. */
TMTEST_PURE static void attempt_starts(void)
{
    memset(&journal, 0, sizeof journal);
}

static void expect_journal(const char *scenario, const char *expected)
{
    TMTEST_FORGET_MEMORY();
    char actual[MAX_EVENTS * 5] = "";
    for (long i = 0; i < journal.count; i++)
        snprintf(actual + strlen(actual), sizeof actual - strlen(actual), "%s%ld", i ? " " : "",
                 journal.event[i]);
    TMTEST_CHECK(strcmp(actual, expected) == 0, "%s: compensations and undo actions ran as "
                 "\"%s\", expected \"%s\"", scenario, actual, expected);
    memset(&journal, 0, sizeof journal);
}

static void undo_action(void *id) { journal_add(200 + (long)id); }
TMTEST_PURE static void add_undo(long id) { _ITM_addUserUndoAction(undo_action, (void *)id); }

/* An open transaction's result goes to *result (a variable of the caller that outlives the
 * enclosing transaction), so that the enclosing one reads what the open one wrote. */
struct open_call {
    long id;
    long result;
};

LIBTM_SAFE static void count_up(void *arg)
{
    struct open_call *call = arg;
    call->result = ++counter;
    fn_commits++;
}

/* The compensation of count_up: runs after the enclosing transaction's memory was restored. */
LIBTM_SAFE static void count_down(void *arg)
{
    struct open_call *call = arg;
    if (parent_data != 0)
        tmtest_violation("compensation %ld saw the enclosing transaction's write (%ld) not yet "
                         "rolled back", call->id, parent_data);
    counter--;
    compensations++;
    journal_add(100 + call->id);
}

/* ---- one thread: commit, cancel, depths ---------------------------------------------- */

static void commit_or_cancel(int cancel)
{
    long before = counter, fns = fn_commits, comps = compensations;
    struct open_call first = { 1, 0 }, second = { 2, 0 };
    long seen = 0;
    __transaction_atomic {
        attempt_starts();
        parent_data = 1;
        add_undo(1);
        libtm_open(count_up, &first, count_down, &first);
        add_undo(2);
        libtm_open(count_up, &second, count_down, &second);
        seen = second.result; /* what the open transaction committed */
        if (cancel)
            __transaction_cancel;
        parent_data = 0;
    }
    /* After a cancel GCC assumes memory is as before the transaction: what the open
     * transactions changed must be read again. */
    TMTEST_FORGET_MEMORY();
    TMTEST_CHECK(fn_commits == fns + 2, "the two open transactions committed %ld times",
                 fn_commits - fns);
    if (cancel) {
        expect_journal("cancelled after two open transactions", "102 202 101 201");
        TMTEST_CHECK(counter == before && compensations == comps + 2 && seen == 0,
                     "after the cancel: counter %ld (expected %ld), %ld compensations (expected "
                     "2), the parent's copy of the result %ld (expected 0, restored)", counter,
                     before, compensations - comps, seen);
    } else {
        expect_journal("committed after two open transactions", "");
        TMTEST_CHECK(counter == before + 2 && compensations == comps && seen == before + 2 &&
                         first.result == before + 1,
                     "after the commit: counter %ld (expected %ld), %ld compensations (expected "
                     "0), results %ld and %ld", counter, before + 2, compensations - comps,
                     first.result, seen);
    }
}

static struct open_call level_call[DEPTH + 1] = { { 0, 0 }, { 1, 0 }, { 2, 0 }, { 3, 0 }, { 4, 0 } };

/* Level `depth` of closed nesting opens one transaction, then the level `cancel_at` cancels. */
__attribute__((transaction_may_cancel_outer, noinline))
static void nest(int depth, int cancel_at, int outer)
{
    __transaction_atomic {
        libtm_open(count_up, &level_call[depth], count_down, &level_call[depth]);
        if (depth < DEPTH)
            nest(depth + 1, cancel_at, outer);
        if (depth == cancel_at) {
            if (outer)
                __transaction_cancel [[outer]];
            __transaction_cancel;
        }
    }
}

static void cancel_at_every_depth(void)
{
    for (int outer = 0; outer <= 1; outer++) {
        for (int cancel_at = 1; cancel_at <= DEPTH; cancel_at++) {
            long before = counter, comps = compensations;
            __transaction_atomic [[outer]] {
                attempt_starts();
                nest(1, cancel_at, outer);
            }
            TMTEST_FORGET_MEMORY();
            /* The cancelled levels' open transactions are compensated, deepest first. */
            int kept = outer ? 0 : cancel_at - 1;
            char expected[64] = "";
            for (int d = DEPTH; d > kept; d--)
                snprintf(expected + strlen(expected), sizeof expected - strlen(expected),
                         "%s%d", d == DEPTH ? "" : " ", 100 + d);
            char scenario[96];
            snprintf(scenario, sizeof scenario, "%s at depth %d of %d",
                     outer ? "__transaction_cancel [[outer]]" : "__transaction_cancel",
                     cancel_at, DEPTH);
            expect_journal(scenario, expected);
            TMTEST_CHECK(counter == before + kept && compensations == comps + DEPTH - kept,
                         "%s: counter %+ld, %ld compensations; expected %+d and %d", scenario,
                         counter - before, compensations - comps, kept, DEPTH - kept);
        }
    }
}

/* ---- where no compensation is registered --------------------------------------------- */

TMTEST_PURE static void become_irrevocable(void)
{
    _ITM_changeTransactionMode(0 /* modeSerialIrrevocable */);
}

static void outside_and_irrevocable(void)
{
    long before = counter, comps = compensations;
    struct open_call call = { 3, 0 };
    libtm_open(count_up, &call, count_down, &call); /* outside any transaction */
    TMTEST_CHECK(counter == before + 1 && call.result == before + 1,
                 "outside a transaction the open transaction did not run once: counter %+ld",
                 counter - before);
    __transaction_relaxed {
        parent_data = 2;
        become_irrevocable();
        libtm_open(count_up, &call, count_down, &call);
        parent_data = 0;
    }
    TMTEST_FORGET_MEMORY();
    TMTEST_CHECK(counter == before + 2 && compensations == comps,
                 "in an irrevocable transaction: counter %+ld (expected +2), %ld compensations",
                 counter - before, compensations - comps);
}

/* ---- nested opens, closed nesting inside, a function without a clone ------------------ */

/* Written only by the open transaction nested in outer_up (its parent's data is not its own). */
static APART long inner_count;
static APART long inner_commits;

LIBTM_SAFE static void inner_up(void *arg) { (void)arg; inner_count++; inner_commits++; }
LIBTM_SAFE static void inner_down(void *arg)
{
    (void)arg;
    inner_count--;
    journal_add(199); /* must never run: its open transaction's parent committed */
}

/* An open transaction that opens another and cancels a closed transaction of its own. */
LIBTM_SAFE static void outer_up(void *arg)
{
    struct open_call *call = arg;
    call->result = ++counter;
    fn_commits++;
    libtm_open(inner_up, NULL, inner_down, NULL);
    __transaction_atomic {
        noise++;
        __transaction_cancel; /* undoes noise++ only */
    }
}

/* Undoes outer_up at the abstract level: its own count and its nested one's (outer_up's
 * compensation may touch what outer_up's open transaction owned). */
LIBTM_SAFE static void outer_down(void *arg)
{
    struct open_call *call = arg;
    counter--;
    inner_count--;
    compensations++;
    journal_add(100 + call->id);
}

/* No transactional clone: libtm runs it irrevocably, which beside a speculative parent makes
 * the outermost transaction run alone. */
static void unsafe_up(void *arg)
{
    struct open_call *call = arg;
    call->result = ++counter;
    fn_commits++;
}

static void nested_and_unsafe(void)
{
    for (int cancel = 0; cancel <= 1; cancel++) {
        long before = counter, inner_before = inner_count, comps = compensations;
        struct open_call call = { 4, 0 };
        __transaction_atomic {
            attempt_starts();
            parent_data = 3;
            libtm_open(outer_up, &call, outer_down, &call);
            if (cancel)
                __transaction_cancel;
            parent_data = 0;
        }
        TMTEST_FORGET_MEMORY();
        expect_journal(cancel ? "nested open, cancelled" : "nested open, committed",
                       cancel ? "104" : "");
        TMTEST_CHECK(noise == 0, "a cancelled closed transaction inside an open one kept its "
                     "write (noise %ld)", noise);
        TMTEST_CHECK(counter == before + !cancel && inner_count == inner_before + !cancel &&
                         compensations == comps + cancel,
                     "nested open (%s): counter %+ld, inner %+ld, %ld compensations",
                     cancel ? "cancelled" : "committed", counter - before,
                     inner_count - inner_before, compensations - comps);
    }
    long before = counter;
    struct open_call call = { 5, 0 };
    __transaction_atomic {
        parent_data = 4;
        libtm_open((libtm_safe_fn)unsafe_up, &call, count_down, &call);
        parent_data = 0;
    }
    TMTEST_FORGET_MEMORY();
    TMTEST_CHECK(counter == before + 1 && call.result == before + 1,
                 "a function without a clone: counter %+ld, result %ld", counter - before,
                 call.result);
}

/* The parent writes one half of a 32-byte stripe, an open transaction the other: under orec
 * both map to one ownership record, which the parent holds. Not misuse (the bytes differ): the
 * open transaction must still commit, and its compensation undo only its half. */
static struct {
    long parent_half[2];
    long open_half[2];
} __attribute__((aligned(32))) stripe;

LIBTM_SAFE static void set_open_half(void *arg) { stripe.open_half[0] = (long)arg; fn_commits++; }
LIBTM_SAFE static void clear_open_half(void *arg)
{
    (void)arg;
    stripe.open_half[0] = 0;
    compensations++;
}

static void shared_stripe(void)
{
    for (int cancel = 0; cancel <= 1; cancel++) {
        __transaction_atomic {
            stripe.parent_half[0] = 7;
            libtm_open(set_open_half, (void *)8, clear_open_half, NULL);
            if (cancel)
                __transaction_cancel;
        }
        TMTEST_FORGET_MEMORY();
        long want_parent = cancel ? 0 : 7, want_open = cancel ? 0 : 8;
        TMTEST_CHECK(stripe.parent_half[0] == want_parent && stripe.open_half[0] == want_open,
                     "a stripe shared with the parent (%s): halves %ld and %ld, expected %ld and "
                     "%ld", cancel ? "cancelled" : "committed", stripe.parent_half[0],
                     stripe.open_half[0], want_parent, want_open);
        stripe.parent_half[0] = 0;
        stripe.open_half[0] = 0;
    }
}

/* ---- 16 threads ------------------------------------------------------------------------ */

static long iterations;
static long committed_parents[THREADS];
static long cancelled_parents[THREADS];

LIBTM_SAFE static void hammer_up(void *arg)
{
    (void)arg;
    counter++;
    fn_commits++;
    __transaction_atomic { /* closed nesting inside the open transaction */
        noise++;
        if ((noise & 3) == 0)
            __transaction_cancel;
    }
}

LIBTM_SAFE static void hammer_down(void *arg)
{
    (void)arg;
    counter--;
    compensations++;
}

/* Parents move a token between slots (they conflict, and restart after their open transaction
 * committed: the compensation runs), and some cancel. */
static void hammer(int index)
{
    uint64_t rng = 0x9E3779B97F4A7C15ull * (uint64_t)(index + 1);
    for (long i = 0; i < iterations; i++) {
        int from = (int)(tmtest_rand(&rng) % SLOTS), to = (int)(tmtest_rand(&rng) % SLOTS);
        int cancel = tmtest_rand(&rng) % 8 == 0, pause = tmtest_rand(&rng) % 16 == 0;
        int open_first = tmtest_rand(&rng) & 1; /* before the parent writes (norec: no writer) */
        int committed = 0;
        __transaction_atomic {
            if (!open_first)
                slots[from]--;
            libtm_open(hammer_up, NULL, hammer_down, NULL);
            if (pause)
                tmtest_yield(1); /* others run meanwhile: conflicts after the open commit */
            if (open_first)
                slots[from]--;
            slots[to]++;
            if (cancel)
                __transaction_cancel;
            committed = 1;
        }
        committed_parents[index] += committed;
        cancelled_parents[index] += !committed;
    }
}

static void sixteen_threads(void)
{
    long before = counter, fns = fn_commits, comps = compensations;
    tmtest_run_threads(THREADS, hammer);
    TMTEST_FORGET_MEMORY();
    long committed = 0, cancelled = 0, tokens = 0;
    for (int t = 0; t < THREADS; t++) {
        committed += committed_parents[t];
        cancelled += cancelled_parents[t];
    }
    for (int s = 0; s < SLOTS; s++)
        tokens += slots[s];
    TMTEST_CHECK(committed + cancelled == THREADS * iterations && tokens == 0,
                 "%ld commits + %ld cancels of %ld parents, slots sum to %ld", committed,
                 cancelled, THREADS * iterations, tokens);
    TMTEST_CHECK(counter - before == committed,
                 "the open counter moved by %ld, but %ld parents committed", counter - before,
                 committed);
    TMTEST_CHECK((fn_commits - fns) - (compensations - comps) == committed &&
                     compensations - comps >= cancelled,
                     "%ld open commits - %ld compensations != %ld committed parents (%ld "
                     "cancelled)", fn_commits - fns, compensations - comps, committed, cancelled);
    TMTEST_CHECK(noise % 4 != 0 || noise == 0, "noise %ld: a cancelled closed increment stayed",
                 noise);
    tmtest_note("16 threads: %ld parents committed, %ld cancelled, %ld open commits, %ld "
                "compensations (%ld after restarts)", committed, cancelled, fn_commits - fns,
                compensations - comps, compensations - comps - cancelled);
}

int main(int argc, char **argv)
{
    tmtest_init(argc, argv,
                "Open nesting (libtm_open): compensations on rollback at every depth, none on\n"
                "commit, nested opens, 16 threads around one open counter. Options:\n"
                "  --iterations=N  parents per thread in the 16-thread part (default 3000)");
    tmtest_require_libtm();
    iterations = tmtest_option(argc, argv, "iterations", 3000);

    commit_or_cancel(0);
    commit_or_cancel(1);
    cancel_at_every_depth();
    outside_and_irrevocable();
    nested_and_unsafe();
    shared_stripe();
    tmtest_check_no_violations("compensations");
    sixteen_threads();
    tmtest_check_no_violations("compensations under contention");

    /* libtm counts what the program counted: every open commit and every compensation. */
    struct libtm_totals totals;
    libtm_get_totals(&totals);
    TMTEST_CHECK(totals.open_commits == (uint64_t)(fn_commits + inner_commits) &&
                     totals.compensations == (uint64_t)compensations,
                 "libtm counted %llu open commits and %llu compensations, the program %ld and "
                 "%ld", (unsigned long long)totals.open_commits,
                 (unsigned long long)totals.compensations, fn_commits + inner_commits,
                 compensations);
    tmtest_note("open nesting: %ld open commits, %ld compensations, all as expected",
                fn_commits + inner_commits, compensations);
    return 0;
}
