/* QuakeWorld's own game, qwprogs.dat (read from ../shared, never copied into the
 * repository): it loads; its header, counts and CRC are QuakeWorld's; the 21 builtins it
 * calls that need no world are the library's; the globals are classified as
 * README.md says; and two of its functions that need no world run, also in a transaction.
 * Usage: test_qc_qwprogs PATH/qwprogs.dat   (exit 77, skipped, when the file is absent) */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <unistd.h>

#include <cmocka.h>

#include "qc_test_util.h"

static const char *path;
static qc_vm *vm;

static void test_header(void **state)
{
    (void)state;
    const struct qc_progs_info *i = qc_vm_info(vm);
    assert_int_equal(i->version, 6);
    assert_int_equal(i->crc, QC_QUAKEWORLD_CRC);
    assert_true(i->quakeworld_crc);
    assert_int_equal(i->num_functions, 482);
    assert_int_equal(i->num_statements, 11738);
    assert_int_equal(i->entity_fields, 194);
    char line[512];
    qc_vm_describe(vm, line, sizeof line);
    printf("%s\n", line);
    printf("decoded: %d instructions for %d statements (%d GATHER/SCATTER)\n",
           i->decoded_instructions, i->num_statements,
           i->decoded_instructions - i->num_statements);
    char err[512];
    qc_vm *strict = qc_vm_load_file(path, &(qc_load_options){ .required_crc = 54730 }, err,
                                    sizeof err);
    assert_non_null(strict);
    qc_vm_free(strict);
}

/* The builtins it calls that need no world are the library's, under the program's names;
 * the others are the server's (test_qcgame checks that it has them all). */
static void test_library_builtins(void **state)
{
    (void)state;
    int library = 0, world = 0;
    for (qc_func f = 1; f < qc_num_functions(vm); f++) {
        int n = qc_function_builtin(vm, f);
        if (!n)
            continue;
        if (!qc_builtin_implemented(vm, n)) {
            world++;
            continue;
        }
        assert_string_equal(qc_builtin_name(vm, n), qc_function_name(vm, f));
        library++;
    }
    printf("builtins referenced: %d implemented by the library, %d left to the server\n",
           library, world);
    assert_int_equal(library, 21);
    assert_int_equal(world, 47);
}

static void expect_class(const char *name, qc_global_class cls)
{
    int ofs = qc_find_global(vm, name, QC_TYPE_VOID);
    if (ofs < 0)
        fprintf(stderr, "qwprogs.dat has no global %s\n", name);
    assert_true(ofs >= 0);
    if (qc_global_class_of(vm, ofs) != cls)
        fprintf(stderr, "%s is %s, expected %s\n", name,
                qc_global_class_name(qc_global_class_of(vm, ofs)), qc_global_class_name(cls));
    assert_int_equal(qc_global_class_of(vm, ofs), cls);
}

static void test_classification(void **state)
{
    (void)state;
    const char *per_call[] = {
        "self", "other", "time", "frametime", "newmis", "msg_entity", "parm1", "parm9",
        "parm16", "v_forward", "v_up", "v_right", "trace_allsolid", "trace_startsolid",
        "trace_fraction", "trace_endpos", "trace_plane_normal", "trace_plane_dist",
        "trace_ent", "trace_inopen", "trace_inwater",
    };
    for (size_t i = 0; i < sizeof per_call / sizeof *per_call; i++)
        expect_class(per_call[i], QC_GLOBAL_PER_CALL);
    const char *shared[] = {
        "force_retouch", "mapname", "serverflags", "total_secrets", "total_monsters",
        "found_secrets", "killed_monsters", /* system, written by the engine */
        "lastspawn", "intermission_running", "intermission_exittime", "nextmap",
        "deathmatch", "teamplay", "fraglimit", "timelimit", "bodyque_head", "activator",
        "damage_attacker", "multi_ent", "multi_damage", /* game state QuakeC writes */
    };
    for (size_t i = 0; i < sizeof shared / sizeof *shared; i++)
        expect_class(shared[i], QC_GLOBAL_SHARED);
    const char *constant[] = { "world", "StartFrame", "PlayerPreThink", "FL_CLIENT",
                               "IT_SHOTGUN", "string_null" };
    for (size_t i = 0; i < sizeof constant / sizeof *constant; i++)
        expect_class(constant[i], QC_GLOBAL_CONSTANT);
    /* every QuakeC function's parameters and locals are per-call */
    int temporaries = 0, locals = 0, shared_count = 0;
    for (int g = 0; g < qc_num_globals(vm); g++) {
        const char *why = qc_global_class_reason(vm, g);
        temporaries += strcmp(why, "temporary") == 0;
        locals += strcmp(why, "locals") == 0;
        shared_count += qc_global_class_of(vm, g) == QC_GLOBAL_SHARED;
    }
    for (qc_func f = 1; f < qc_num_functions(vm); f++) {
        if (qc_function_builtin(vm, f))
            continue;
        /* T_Heal's parameters lie outside its (zero) locals: still per-call */
        if (strcmp(qc_function_name(vm, f), "T_Heal") == 0)
            expect_class("healamount", QC_GLOBAL_PER_CALL);
    }
    const struct qc_progs_info *i = qc_vm_info(vm);
    printf("globals: %d per-call (%d function locals/parameters, %d compiler temporaries), "
           "%d shared, %d constant\n", i->globals_per_call, locals, temporaries,
           i->globals_shared, i->globals_constant);
    assert_true(temporaries > 1000); /* id's compiler keeps temporaries outside the locals */
    assert_true(shared_count < 64);
}

static void run_parms(qc_ctx *ctx, int self)
{
    const struct qc_system_offsets *sys = qc_vm_system(vm);
    qc_ctx_set_int(ctx, sys->self, self);
    assert_int_equal(qc_call(ctx, qt_fn(vm, "SetNewParms")), QC_OK);
    assert_int_equal(qc_call(ctx, qt_fn(vm, "DecodeLevelParms")), QC_OK);
}

static void QC_SAFE run_parms_tm(qc_ctx *ctx, int self, qc_func a, qc_func b, qc_status *s)
{
    qc_ctx_set_int(ctx, qc_vm_system(qc_ctx_vm(ctx))->self, self);
    s[0] = qc_call(ctx, a);
    s[1] = qc_call(ctx, b);
}

static void test_run_spawn_parms(void **state)
{
    (void)state;
    qc_ctx *ctx = qc_ctx_new(vm);
    run_parms(ctx, 1);
    const struct qc_system_offsets *sys = qc_vm_system(vm);
    assert_float_equal(qc_ctx_get_float(ctx, sys->parm1), 4097, 0); /* IT_SHOTGUN | IT_AXE */
    qc_word *e = qc_entity_ptr(vm, 1);
    assert_float_equal(e[qc_find_field(vm, "items", QC_TYPE_FLOAT)].f, 4097, 0);
    assert_float_equal(e[qc_find_field(vm, "health", QC_TYPE_FLOAT)].f, 100, 0);
    assert_float_equal(e[qc_find_field(vm, "ammo_shells", QC_TYPE_FLOAT)].f, 25, 0);
    assert_float_equal(e[qc_find_field(vm, "weapon", QC_TYPE_FLOAT)].f, 1, 0);
    qc_status s[2];
    qc_func a = qt_fn(vm, "SetNewParms"), b = qt_fn(vm, "DecodeLevelParms");
    __transaction_atomic {
        qc_ctx_reset(ctx);
        run_parms_tm(ctx, 2, a, b, s);
    }
    assert_int_equal(s[0], QC_OK);
    assert_int_equal(s[1], QC_OK);
    assert_memory_equal(qc_entity_ptr(vm, 1), qc_entity_ptr(vm, 2),
                        sizeof(qc_word) * (size_t)qc_entity_fields(vm));
    qc_ctx_free(ctx);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s PATH/qwprogs.dat\n", argv[0]);
        return 2;
    }
    path = argv[1];
    if (access(path, R_OK) != 0) {
        printf("skipped: %s not found (QuakeWorld's game comes from ../shared/quake/qw)\n",
               path);
        return 77;
    }
    char err[512];
    vm = qc_vm_load_file(path, NULL, err, sizeof err);
    if (!vm) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_header),
        cmocka_unit_test(test_library_builtins),
        cmocka_unit_test(test_classification),
        cmocka_unit_test(test_run_spawn_parms),
    };
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    qc_vm_free(vm);
    return failed;
}
