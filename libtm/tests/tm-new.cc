// C++ operator new/delete inside transactions (the _ZGTtnwm/_ZGTtdlPv... clones, including the
// array and sized-delete variants; g++ 12 does not declare the nothrow forms transaction-safe): objects allocated by a cancelled transaction are
// deleted, deletes are deferred to the commit and forgotten on cancel. Live blocks are counted
// by the malloc wrapper of common/malloc-tracker.c (libstdc++'s operator new calls malloc).
#include "malloc-tracker.h"
#include "tmtest.h"

#include <cstring>

struct Object {
    char payload[4001]; // a tracked size (TRACKED_SIZE_MIN)
};

// Each thread works on its own slot (shared memory, but not shared between the threads: the
// checks after each transaction must see only this thread's doing).
struct Slot {
    Object *object;
    char *array;
    long word;
    char padding[40];
};
static Slot slots[2];

TMTEST_PURE static void probe_still_allocated(const void *p, const char *what)
{
    if (_ITM_inTransaction() == tmtest_irrevocable)
        return; // the uninstrumented path deletes at once, which is fine when irrevocable
    if (!tracked_is_live(p))
        tmtest_violation("%s released its memory before the transaction ended", what);
}

static void expect_live(const char *who, const char *scenario, long expected)
{
    long live = tracked_live_blocks();
    TMTEST_CHECK(live == expected, "%s: %s: %ld tracked blocks live, expected %ld", who,
                 scenario, live, expected);
}

// While other threads run transactions, memory that a committed transaction deleted may stay
// allocated until no transaction that could still read it runs (libtm releases it later, by
// the thread's exit at the latest: main checks that nothing is left); alone, at once.
static bool other_threads_run;

static void expect_deleted(const char *who, const char *scenario, long expected, long deleted)
{
    long live = tracked_live_blocks();
    if (!other_threads_run) {
        expect_live(who, scenario, expected);
        return;
    }
    TMTEST_CHECK(live >= expected && live <= expected + deleted,
                 "%s: %s: %ld tracked blocks live, expected %ld to %ld (deleted memory may wait "
                 "for other threads' transactions)", who, scenario, live, expected,
                 expected + deleted);
}

static void scenarios(const char *who, Slot *slot)
{
    long base = tracked_live_blocks();
    for (int repeat = 0; repeat < 100; repeat++) {
        __transaction_atomic {
            slot->object = new Object;
            slot->word = 1;
            __transaction_cancel;
        }
        expect_live(who, "after cancelling new Object", base);
        __transaction_atomic {
            slot->array = new char[4003];
            __transaction_cancel;
        }
        expect_live(who, "after cancelling new char[]", base);
        TMTEST_CHECK(slot->object == nullptr && slot->array == nullptr,
                     "%s: pointers stored by cancelled transactions survived", who);
    }

    __transaction_atomic {
        slot->object = new Object;
        slot->array = new char[4003];
    }
    expect_live(who, "after committing new Object and new char[]", base + 2);
    Object *object = slot->object;
    char *array = slot->array;
    std::memset(object->payload, 0x42, sizeof object->payload);

    // Cancelled deletes are forgotten (plain, sized and array delete).
    __transaction_atomic {
        delete slot->object;
        delete[] slot->array;
        probe_still_allocated(object, "delete of an Object");
        probe_still_allocated(array, "delete[] of an array");
        slot->object = nullptr;
        __transaction_cancel;
    }
    expect_live(who, "after cancelling delete and delete[]", base + 2);
    TMTEST_CHECK(slot->object == object && object->payload[4000] == 0x42,
                 "%s: a cancelled delete changed the object", who);
    __transaction_atomic {
        ::operator delete(slot->object, sizeof(Object)); // sized delete (LIBITM_1.1)
        probe_still_allocated(object, "sized operator delete");
        slot->object = nullptr;
        __transaction_cancel;
    }
    expect_live(who, "after cancelling a sized operator delete", base + 2);

    __transaction_atomic {
        ::operator delete(slot->object, sizeof(Object));
        probe_still_allocated(object, "sized operator delete");
        delete[] slot->array;
        probe_still_allocated(array, "delete[]");
        slot->object = nullptr;
        slot->array = nullptr;
    }
    expect_deleted(who, "after committing a sized delete and delete[]", base, 2);

    __transaction_atomic {
        Object *o = new Object;
        slot->word = 2;
        delete o;
    }
    expect_deleted(who, "after committing new and delete of the same object", base, 2);
    tmtest_check_no_violations(who);
}

static void thread_scenarios(int index)
{
    scenarios(index == 0 ? "thread 0 (of 2)" : "thread 1 (of 2)", &slots[index]);
}

int main(int argc, char **argv)
{
    tmtest_init(argc, argv,
                "new/new[] in cancelled transactions are deleted; delete, delete[] and\n"
                "sized delete in transactions are deferred to the commit.");
    scenarios("single-threaded process", &slots[0]);
    tmtest_note("single thread: transactional new/delete correct");
    other_threads_run = true;
    tmtest_run_threads(2, thread_scenarios);
    TMTEST_CHECK(tracked_live_blocks_all() == 0,
                 "%ld tracked blocks still allocated after both threads ended (memory deleted "
                 "in a committed transaction was never released)", tracked_live_blocks_all());
    tmtest_note("two threads: transactional new/delete correct");
    return 0;
}
