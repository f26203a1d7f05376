/* User commit and undo actions (_ITM_addUserCommitAction / _ITM_addUserUndoAction):
 * commit actions run once, after the outermost commit, in registration order; undo actions
 * run on rollback, newest first, and commit actions of a rolled-back transaction never run;
 * a cancelled nested transaction runs only its own undo actions and drops only its own commit
 * actions. Also for transactions that write nothing and for the first transaction of a
 * new thread. */
#include "tmtest.h"

#include <stdio.h>
#include <string.h>

#define MAX_EVENTS 64

/* The actions append to a per-thread journal ("C3" = commit action 3, "U5" = undo action 5). */
struct journal {
    char events[MAX_EVENTS][8];
    int count;
    int commit_action_inside; /* a commit action ran while _ITM_inTransaction() != 0 */
};
static __thread struct journal journal;

static void record(char kind, long id)
{
    if (journal.count < MAX_EVENTS)
        snprintf(journal.events[journal.count++], sizeof journal.events[0], "%c%ld", kind, id);
}

/* Commit actions run after the commit, outside the transaction. (Whether an undo action runs
 * "inside" the rolling-back transaction is unspecified; GCC's libitm says it does.) */
static void commit_action(void *arg)
{
    record('C', (long)arg);
    if (_ITM_inTransaction() != tmtest_outside)
        journal.commit_action_inside = 1;
}
static void undo_action(void *arg) { record('U', (long)arg); }

TMTEST_PURE static void add_commit(long id)
{
    _ITM_addUserCommitAction(commit_action, TMTEST_NO_TRANSACTION_ID, (void *)id);
}

TMTEST_PURE static void add_undo(long id)
{
    _ITM_addUserUndoAction(undo_action, (void *)id);
}

/* Called first in every outermost transaction: undo actions that ran for an internal restart
 * (a conflict, or a runtime that re-executes to handle a nested cancel) are legitimate and
 * forgotten when the transaction executes again. */
TMTEST_PURE static void attempt_starts(void)
{
    memset(&journal, 0, sizeof journal);
}

/* Journal seen from inside a transaction, to check nothing ran too early. */
TMTEST_PURE static int journal_length(void) { return journal.count; }

static void journal_reset(void)
{
    memset(&journal, 0, sizeof journal);
}

static void expect_journal(const char *scenario, const char *expected)
{
    TMTEST_FORGET_MEMORY();
    char actual[MAX_EVENTS * 8] = "";
    for (int i = 0; i < journal.count; i++) {
        if (i)
            strcat(actual, " ");
        strcat(actual, journal.events[i]);
    }
    TMTEST_CHECK(strcmp(actual, expected) == 0, "%s: actions ran as \"%s\", expected \"%s\"",
                 scenario, actual, expected);
    TMTEST_CHECK(!journal.commit_action_inside,
                 "%s: a commit action ran while _ITM_inTransaction() said the thread was still inside"
                 " a transaction", scenario);
    journal_reset();
}

/* One word per thread (in shared memory, but not shared between the threads, whose checks
 * after each transaction must see only their own doing). */
static long words[4][8];
static __thread long *word_of_thread;
#define shared_word (*word_of_thread)

/* GCC removes transactions (even an outer one around a nested one) that contain no
 * transactional memory access, so every transaction here reads or writes shared memory. */
static __thread long last_seen;
TMTEST_PURE static void remember(long value) { last_seen = value; }

static void scenarios(const char *who)
{
    char name[128];
    int early = 0;

    /* The very first transaction of this thread registers actions and commits. */
    journal_reset();
    __transaction_atomic {
        attempt_starts();
        shared_word = 1;
        add_commit(1);
        add_undo(2);
        add_commit(3);
        early = journal_length();
    }
    snprintf(name, sizeof name, "%s: first transaction, committed", who);
    TMTEST_CHECK(early == 0, "%s: %d action(s) ran before the commit", name, early);
    expect_journal(name, "C1 C3");

    /* Cancel: undo actions newest first, commit actions dropped. */
    __transaction_atomic {
        attempt_starts();
        add_undo(1);
        add_commit(2);
        shared_word = 2;
        add_undo(3);
        add_undo(4);
        early = journal_length();
        __transaction_cancel;
    }
    snprintf(name, sizeof name, "%s: cancelled transaction", who);
    TMTEST_CHECK(shared_word == 1, "%s: shared_word = %ld, expected 1", name, shared_word);
    expect_journal(name, "U4 U3 U1");

    /* A transaction that writes nothing, committed and cancelled. */
    TMTEST_FORGET_MEMORY();
    __transaction_atomic {
        attempt_starts();
        remember(shared_word);
        add_commit(5);
        add_commit(6);
        add_undo(7);
    }
    snprintf(name, sizeof name, "%s: read-only transaction, committed", who);
    expect_journal(name, "C5 C6");
    TMTEST_FORGET_MEMORY();
    __transaction_atomic {
        attempt_starts();
        remember(shared_word);
        add_commit(8);
        add_undo(9);
        add_undo(10);
        __transaction_cancel;
    }
    snprintf(name, sizeof name, "%s: transaction without writes, cancelled", who);
    expect_journal(name, "U10 U9");
    TMTEST_FORGET_MEMORY();
    __transaction_atomic {
        attempt_starts();
        remember(shared_word);
        add_commit(11);
    }
    snprintf(name, sizeof name, "%s: read-only transaction with one commit action", who);
    expect_journal(name, "C11");

    /* Nested cancel: the inner's undo actions run at once, its commit actions are dropped,
     * the outer's actions stay; the outer then commits. */
    TMTEST_FORGET_MEMORY();
    __transaction_atomic {
        attempt_starts();
        remember(shared_word);
        add_commit(20);
        add_undo(21);
        __transaction_atomic {
            add_commit(22);
            add_undo(23);
            add_undo(24);
            shared_word = 24;
            __transaction_cancel;
        }
        early = journal_length();
        remember(shared_word);
        add_commit(25);
        add_undo(26);
    }
    snprintf(name, sizeof name, "%s: nested cancel, outer committed", who);
    TMTEST_CHECK(early == 2, "%s: when the inner transaction had cancelled, %d action(s) had "
                 "run, expected its 2 undo actions", name, early);
    TMTEST_CHECK(shared_word == 1, "%s: the cancelled inner write survived (%ld)", name,
                 shared_word);
    expect_journal(name, "U24 U23 C20 C25");

    /* Nested commit then outer cancel: everything undone, newest first. */
    __transaction_atomic {
        attempt_starts();
        add_commit(30);
        add_undo(31);
        __transaction_atomic {
            add_commit(32);
            add_undo(33);
            shared_word = 33;
        }
        add_undo(34);
        __transaction_cancel;
    }
    snprintf(name, sizeof name, "%s: nested commit, outer cancelled", who);
    expect_journal(name, "U34 U33 U31");

    /* Nested cancel inside a transaction that is itself cancelled with [[outer]]. */
    __transaction_atomic [[outer]] {
        attempt_starts();
        remember(shared_word);
        add_undo(40);
        __transaction_atomic {
            shared_word = 41;
            add_undo(41);
            add_commit(42);
            __transaction_cancel [[outer]];
        }
        shared_word = 40;
    }
    snprintf(name, sizeof name, "%s: [[outer]] cancel from a nested transaction", who);
    expect_journal(name, "U41 U40");
    TMTEST_CHECK(shared_word == 1, "%s: shared_word = %ld after cancelled transactions, "
                 "expected 1", who, shared_word);
    TMTEST_CHECK(last_seen == 1, "%s: the last transaction read %ld, expected 1", who,
                 last_seen);
}

static void thread_scenarios(int index)
{
    word_of_thread = words[1 + index];
    char who[32];
    snprintf(who, sizeof who, "new thread %d", index);
    scenarios(who);
}

/* Under contention transactions restart: the commit actions of a restarted attempt must be
 * dropped (each committed transaction runs its action exactly once). The counter is written
 * with a plain store of a value read in the same transaction, so GCC's libitm can undo it. */
#define CONTENDED_THREADS 4
#define CONTENDED_TRANSACTIONS 3000
static long contended_counter;
static atomic_long contended_actions[CONTENDED_THREADS];

static void count_contended_commit(void *arg)
{
    atomic_fetch_add(&contended_actions[(long)arg], 1);
}

TMTEST_PURE static void add_contended_commit(long index)
{
    _ITM_addUserCommitAction(count_contended_commit, TMTEST_NO_TRANSACTION_ID, (void *)index);
}

static void contended(int index)
{
    for (int i = 0; i < CONTENDED_TRANSACTIONS; i++) {
        __transaction_atomic {
            long value = contended_counter;
            add_contended_commit(index);
            if (i % 16 == 0)
                tmtest_yield(1); /* let the others conflict with this one */
            contended_counter = value + 1;
        }
    }
}

int main(int argc, char **argv)
{
    tmtest_init(argc, argv,
                "Checks when and in which order user commit/undo actions run (outermost commit,\n"
                "rollback, nested cancel, read-only, first transaction of a thread).");
    word_of_thread = words[0];
    scenarios("main thread");
    tmtest_note("single thread: user actions correct");
    tmtest_run_threads(3, thread_scenarios);
    tmtest_note("three new threads: user actions correct");

    tmtest_run_threads(CONTENDED_THREADS, contended);
    TMTEST_CHECK(contended_counter == CONTENDED_THREADS * CONTENDED_TRANSACTIONS,
                 "contended counter %ld, expected %d", contended_counter,
                 CONTENDED_THREADS * CONTENDED_TRANSACTIONS);
    for (int t = 0; t < CONTENDED_THREADS; t++)
        TMTEST_CHECK(atomic_load(&contended_actions[t]) == CONTENDED_TRANSACTIONS,
                     "contended thread %d: its commit action ran %ld times for %d committed "
                     "transactions (actions of restarted attempts must be dropped)", t,
                     atomic_load(&contended_actions[t]), CONTENDED_TRANSACTIONS);
    tmtest_note("%d contended threads: each commit action ran once per committed transaction",
                CONTENDED_THREADS);
    return 0;
}
