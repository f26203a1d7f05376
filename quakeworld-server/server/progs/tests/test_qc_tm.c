/* QuakeC inside transactions on libtm:
 * - the same sequence of calls, run by one vm outside transactions and by a second vm each
 *   call in its own __transaction_atomic block, gives the same results and leaves the same
 *   entities and shared globals, word for word;
 * - a QuakeC error inside a transaction lets the caller __transaction_cancel: what the call
 *   wrote to entities and shared globals is gone, the error report is not;
 * - threads running QuakeC at once in transactions on disjoint entities get the right totals,
 *   few aborts, and none at all when the code touches only per-call state.
 * make check runs it with libtm's default, LIBTM_HTM=0, LIBTM_ALGO=orec and norec.
 * Usage: test_qc_tm TESTS.DAT */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "libtm.h"
#include "qc_test_util.h"

static const char *progs_path;

/* World builtin #201 (world_add): writes an entity field (instrumented, shared state) and
 * calls QuakeC back (p2) in a nested call, as touch functions run from walkmove. */
static int health_field;
static qc_status QC_SAFE world_add(qc_ctx *ctx)
{
    float a = qc_parm_float(ctx, 0);
    qc_vm *vm = qc_ctx_vm(ctx);
    qc_word *e = qc_entity_ptr(vm, 9);
    e[health_field].f += a;
    qc_set_parm_float(ctx, 0, a);
    qc_set_parm_float(ctx, 1, 2);
    if (qc_call(ctx, qc_find_function(vm, "p2")) != QC_OK)
        return QC_ERROR;
    qc_set_return_float(ctx, qc_return_float(ctx) + 1000);
    return QC_OK;
}

enum { CASES = 14 };

/* Case i: sets parameters and per-call globals, calls, and copies out the return value. */
static qc_status QC_SAFE run_case(qc_ctx *ctx, int i, uint32_t out[3])
{
    qc_vm *vm = qc_ctx_vm(ctx);
    const struct qc_system_offsets *sys = qc_vm_system(vm);
    static const float v123[3] = { 1, 2, 3 }, angles[3] = { 30, 200, 5 };
    const char *fn = "p0";
    switch (i) {
    case 0: fn = "call_all"; break;
    case 1: fn = "fact"; qc_set_parm_float(ctx, 0, 10); break;
    case 2: fn = "fib"; qc_set_parm_float(ctx, 0, 12); break;
    case 3: fn = "keep_local"; qc_set_parm_float(ctx, 0, 5); break;
    case 4: fn = "op_loop"; qc_set_parm_float(ctx, 0, 100); break;
    case 5: fn = "bench_loop"; qc_set_parm_int(ctx, 0, 3); qc_set_parm_float(ctx, 1, 500); break;
    case 6: fn = "op_add_shared"; qc_set_parm_float(ctx, 0, 2.5f); break;
    case 7: fn = "op_add_shared_vec"; qc_set_parm_vector(ctx, 0, v123); break;
    case 8: fn = "two_temps"; qc_set_parm_float(ctx, 0, 1); qc_set_parm_float(ctx, 1, 2); break;
    case 9:
        fn = "walk1";
        qc_ctx_set_int(ctx, sys->self, 5);
        qc_ctx_set_float(ctx, sys->time, 3);
        break;
    case 10: fn = "op_field_v"; qc_set_parm_int(ctx, 0, 6); qc_set_parm_vector(ctx, 1, v123); break;
    case 11: fn = "via_world"; qc_set_parm_float(ctx, 0, 5); break;
    case 12: fn = "t_makevectors_r"; qc_set_parm_vector(ctx, 0, angles); break;
    case 13: fn = "op_field_fld"; qc_set_parm_int(ctx, 0, 7); qc_set_parm_float(ctx, 1, 4); break;
    }
    qc_status s = qc_call(ctx, qc_find_function(vm, fn));
    out[0] = (uint32_t)qc_return_int(ctx);
    float v[3];
    qc_return_vector(ctx, v);
    memcpy(&out[1], &v[1], 2 * sizeof(uint32_t));
    return s;
}

static qc_vm *load_with_world(void)
{
    qc_vm *vm = qt_load(progs_path, NULL);
    qc_builtin_register(vm, 201, "world_add", world_add);
    health_field = qc_find_field(vm, "health", QC_TYPE_FLOAT);
    return vm;
}

static __attribute__((noinline)) void compare_case(qc_ctx *pc, qc_ctx *tc, int i)
{
    uint32_t a[3], b[3];
    qc_ctx_reset(pc);
    assert_int_equal(run_case(pc, i, a), QC_OK);
    qc_status s;
    __transaction_atomic {
        qc_ctx_reset(tc);
        s = run_case(tc, i, b);
    }
    assert_int_equal(s, QC_OK);
    if (memcmp(a, b, sizeof a) != 0)
        fprintf(stderr, "case %d: %08x %08x %08x outside, %08x %08x %08x inside\n", i, a[0],
                a[1], a[2], b[0], b[1], b[2]);
    assert_memory_equal(a, b, sizeof a);
}

static void test_same_results_inside_and_outside(void **state)
{
    (void)state;
    qc_vm *plain = load_with_world(), *tm = load_with_world();
    qc_ctx *pc = qc_ctx_new(plain), *tc = qc_ctx_new(tm);
    for (int round = 0; round < 3; round++)
        for (int i = 0; i < CASES; i++)
            compare_case(pc, tc, i);
    /* the same state afterwards: every entity field and every shared global */
    size_t ent_bytes = sizeof(qc_word) * (size_t)qc_max_entities(plain) *
                       (size_t)qc_entity_fields(plain);
    assert_memory_equal(qc_entity_ptr(plain, 0), qc_entity_ptr(tm, 0), ent_bytes);
    assert_memory_equal(qc_vm_global(plain, 0), qc_vm_global(tm, 0),
                        sizeof(qc_word) * (size_t)qc_num_globals(plain));
    assert_float_equal(qc_entity_ptr(tm, 9)[health_field].f, 15, 0); /* world_add ran 3 times */
    qc_vm_free(plain);
    qc_vm_free(tm);
}

static void test_cancel_on_error(void **state)
{
    (void)state;
    qc_vm *vm = load_with_world();
    qc_ctx *ctx = qc_ctx_new(vm);
    int total = qc_find_global(vm, "shared_total", QC_TYPE_FLOAT);
    qc_vm_global(vm, total)->f = 7;
    qc_entity_ptr(vm, 4)[health_field].f = 100;
    qc_func f = qt_fn(vm, "write_then_fail");
    bool cancelled = true;
    __transaction_atomic {
        qc_ctx_reset(ctx);
        qc_set_parm_int(ctx, 0, 4);
        qc_set_parm_float(ctx, 1, 55);
        if (qc_call(ctx, f) != QC_OK)
            __transaction_cancel;
        cancelled = false;
    }
    assert_true(cancelled);
    assert_float_equal(qc_vm_global(vm, total)->f, 7, 0);
    assert_float_equal(qc_entity_ptr(vm, 4)[health_field].f, 100, 0);
    const qc_error *e = qc_ctx_error(ctx);
    assert_int_equal(e->kind, QC_ERR_PROGRAM);
    assert_string_equal(e->message, "after writing");
    assert_string_equal(e->function, "write_then_fail");
    /* a runaway loop inside a transaction, then a good call in the next one */
    qc_ctx_set_budget(ctx, 3000);
    qc_status s;
    qc_func spin = qt_fn(vm, "spin"), keep_local = qt_fn(vm, "keep_local");
    __transaction_atomic {
        qc_ctx_reset(ctx);
        qc_set_parm_float(ctx, 0, 1);
        s = qc_call(ctx, spin);
    }
    assert_int_equal(s, QC_ERROR);
    assert_int_equal(qc_ctx_error(ctx)->kind, QC_ERR_RUNAWAY);
    __transaction_atomic {
        qc_ctx_reset(ctx);
        qc_set_parm_float(ctx, 0, 4);
        s = qc_call(ctx, keep_local);
    }
    assert_int_equal(s, QC_OK);
    assert_float_equal(qc_return_float(ctx), 400, 0);
    qc_vm_free(vm);
}

/* ---- Threads --------------------------------------------------------------------------- */

enum { THREADS = 4, TRANSACTIONS = 1500, STEPS = 40 };

struct worker {
    pthread_t thread;
    qc_ctx *ctx;
    qc_func fn;
    int entity;
    int failures;
};

static void *work(void *arg)
{
    struct worker *w = arg;
    for (int k = 0; k < TRANSACTIONS; k++) {
        qc_status s;
        __transaction_atomic {
            qc_ctx_reset(w->ctx);
            qc_set_parm_int(w->ctx, 0, w->entity);
            qc_set_parm_float(w->ctx, 1, STEPS);
            s = qc_call(w->ctx, w->fn);
        }
        if (s != QC_OK)
            w->failures++;
    }
    return NULL;
}

static struct libtm_totals run_threads(qc_vm *vm, const char *fn, struct worker *w)
{
    struct libtm_totals before, after;
    libtm_totals_read(&before, sizeof before);
    for (int t = 0; t < THREADS; t++) {
        w[t].fn = qt_fn(vm, fn);
        w[t].entity = 16 + 32 * t; /* far apart: no two threads' fields share a cache line */
        w[t].failures = 0;
        assert_int_equal(pthread_create(&w[t].thread, NULL, work, &w[t]), 0);
    }
    for (int t = 0; t < THREADS; t++)
        pthread_join(w[t].thread, NULL);
    libtm_totals_read(&after, sizeof after);
    struct libtm_totals d = {
        .commits = after.commits - before.commits,
        .aborts = after.aborts - before.aborts,
        .conflict_aborts = after.conflict_aborts - before.conflict_aborts,
        .serial = after.serial - before.serial,
    };
    printf("%-14s %d threads x %d transactions: %llu commits, %llu aborts (%llu conflicts), "
           "%llu serial; algorithm %s, mode %s\n", fn, THREADS, TRANSACTIONS,
           (unsigned long long)d.commits, (unsigned long long)d.aborts,
           (unsigned long long)d.conflict_aborts, (unsigned long long)d.serial,
           libtm_algorithm(), libtm_adaptive_mode());
    for (int t = 0; t < THREADS; t++)
        assert_int_equal(w[t].failures, 0);
    return d;
}

static void test_threads(void **state)
{
    (void)state;
    qc_vm *vm = load_with_world();
    struct worker w[THREADS];
    for (int t = 0; t < THREADS; t++)
        w[t].ctx = qc_ctx_new(vm);
    /* only per-call state (parameters, locals, temporaries): no transactional access at all,
     * so no conflict can come from the interpreter's own state */
    struct libtm_totals d = run_threads(vm, "bench_private", w);
    assert_int_equal(d.conflict_aborts, 0);
    /* disjoint entities: each thread adds STEPS to its own entity's health per call */
    d = run_threads(vm, "bench_loop", w);
    for (int t = 0; t < THREADS; t++)
        assert_float_equal(qc_entity_ptr(vm, w[t].entity)[health_field].f,
                           (double)TRANSACTIONS * STEPS, 0);
    assert_true(d.conflict_aborts * 20 <= d.commits);
    qc_vm_free(vm);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s TESTS.DAT (the compiled tests/qc program)\n", argv[0]);
        return 2;
    }
    progs_path = argv[1];
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_same_results_inside_and_outside),
        cmocka_unit_test(test_cancel_on_error),
        cmocka_unit_test(test_threads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
