/* Unit tests of the per-thread logs and the undo log (restore order, stack rule). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

#include "undo_log.h"

static void log_grows_and_keeps_entries(void **state)
{
    (void)state;
    struct tm_log log = { 0 };
    for (uint64_t i = 0; i < 10000; i++)
        *TM_LOG_PUSH(&log, uint64_t) = i * 3;
    assert_int_equal(TM_LOG_COUNT(&log, uint64_t), 10000);
    for (uint64_t i = 0; i < 10000; i++)
        assert_int_equal(*TM_LOG_AT(&log, uint64_t, i), i * 3);
    size_t cap = log.cap;
    log.len = 0; /* truncation keeps the capacity for the next transaction */
    *TM_LOG_PUSH(&log, uint64_t) = 7;
    assert_int_equal(log.cap, cap);
    tm_log_release(&log);
    assert_null(log.data);
}

static uint8_t heap_area[64];

static void undo_restores_newest_first(void **state)
{
    (void)state;
    struct tm_tx tx;
    memset(&tx, 0, sizeof tx);
    memset(heap_area, 1, sizeof heap_area);
    tm_undo_record(&tx, heap_area, 8);  /* saves 1s */
    memset(heap_area, 2, 8);
    tm_undo_record(&tx, heap_area, 4);  /* saves 2s over the first half */
    memset(heap_area, 3, 4);
    tm_undo_record(&tx, heap_area + 10, 13); /* odd length: padding */
    memset(heap_area + 10, 9, 13);
    size_t mark = tx.undo_log.len;
    tm_undo_record(&tx, heap_area + 40, 3);
    memset(heap_area + 40, 7, 3);

    /* Partial rollback (closed nesting) restores only entries newer than the mark. */
    tm_undo_restore(&tx, mark, NULL);
    assert_int_equal(heap_area[40], 1);
    assert_int_equal(heap_area[0], 3);
    assert_int_equal(tx.undo_log.len, mark);

    tm_undo_restore(&tx, 0, NULL);
    for (size_t i = 0; i < sizeof heap_area; i++)
        assert_int_equal(heap_area[i], 1);
    assert_int_equal(tx.undo_log.len, 0);
    tm_log_release(&tx.undo_log);
}

/* Bytes between the rollback's own frame and the CFA of the begin are dead frames: the undo
 * log must not write them back (it would corrupt the stack rollback runs on). */
static void __attribute__((noinline)) restore_with_cfa(struct tm_tx *tx, void *cfa)
{
    tm_undo_restore(tx, 0, cfa);
}

static void undo_skips_dead_stack_but_restores_caller_frame(void **state)
{
    (void)state;
    struct tm_tx tx;
    memset(&tx, 0, sizeof tx);
    uint8_t frame[64]; /* stands for the transaction's caller frame (at/above the CFA) */
    memset(frame, 5, sizeof frame);
    tm_undo_record(&tx, frame, sizeof frame);
    memset(frame, 6, sizeof frame);
    /* CFA just below `frame`: the frame is live and must be restored. */
    restore_with_cfa(&tx, frame);
    for (size_t i = 0; i < sizeof frame; i++)
        assert_int_equal(frame[i], 5);

    /* CFA above the frame: it lies in the dead window and must be left alone. */
    tm_undo_record(&tx, frame, sizeof frame);
    memset(frame, 6, sizeof frame);
    restore_with_cfa(&tx, (void *)((uintptr_t)frame + sizeof frame + 128));
    for (size_t i = 0; i < sizeof frame; i++)
        assert_int_equal(frame[i], 6);
    tm_log_release(&tx.undo_log);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(log_grows_and_keeps_entries),
        cmocka_unit_test(undo_restores_newest_first),
        cmocka_unit_test(undo_skips_dead_stack_but_restores_caller_frame),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
