/* Unit tests of the QuakeC interpreter on the test program (tests/qc/, compiled by
 * fteqcc): every opcode, calls with 0..8 parameters, recursion, strings, STATE, the
 * library's builtins, world builtins with nested calls, runtime errors, the classification
 * of globals. Usage: test_qc PROGS.DAT */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "qc_test_util.h"

static const char *progs_path;
static qc_vm *vm;
static qc_ctx *ctx;
static char printed[65536];

static void capture(void *user, int developer, const char *text)
{
    (void)user;
    (void)developer;
    size_t used = strlen(printed);
    snprintf(printed + used, sizeof printed - used, "%s", text);
}

static int setup(void **state)
{
    (void)state;
    vm = qt_load(progs_path, NULL);
    qc_vm_set_print(vm, capture, NULL);
    ctx = qc_ctx_new(vm);
    printed[0] = 0;
    return ctx ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    qc_vm_free(vm);
    vm = NULL;
    ctx = NULL;
    return 0;
}

#define CALL_OK(...) assert_int_equal(qt_call(ctx, __VA_ARGS__), QC_OK)

static float ret_f(void) { return qc_return_float(ctx); }

static void assert_vec(const float got[3], float x, float y, float z)
{
    assert_float_equal(got[0], x, 1e-5);
    assert_float_equal(got[1], y, 1e-5);
    assert_float_equal(got[2], z, 1e-5);
}

static void ret_v(float out[3]) { qc_return_vector(ctx, out); }

static void test_info(void **state)
{
    (void)state;
    const struct qc_progs_info *i = qc_vm_info(vm);
    assert_int_equal(i->version, 6);
    assert_true(i->num_functions > 50);
    assert_int_equal(i->globals_per_call + i->globals_shared + i->globals_constant,
                     i->num_globals);
    char line[512];
    qc_vm_describe(vm, line, sizeof line);
    assert_non_null(strstr(line, "progs version 6"));
    printf("%s\n", line);
}

static void test_float_arithmetic(void **state)
{
    (void)state;
    CALL_OK("op_mul_f", "ff", 3.0, -2.5);
    assert_float_equal(ret_f(), -7.5, 0);
    CALL_OK("op_div_f", "ff", 7.0, 2.0);
    assert_float_equal(ret_f(), 3.5, 0);
    CALL_OK("op_add_f", "ff", 0.25, 0.5);
    assert_float_equal(ret_f(), 0.75, 0);
    CALL_OK("op_sub_f", "ff", 1.0, 4.0);
    assert_float_equal(ret_f(), -3, 0);
}

static void test_vector_arithmetic(void **state)
{
    (void)state;
    float a[3] = { 1, 2, 3 }, b[3] = { 4, -5, 6 }, v[3];
    CALL_OK("op_mul_v", "vv", a, b);
    assert_float_equal(ret_f(), 4 - 10 + 18, 0);
    CALL_OK("op_mul_fv", "fv", 2.0, b);
    ret_v(v);
    assert_vec(v, 8, -10, 12);
    CALL_OK("op_mul_vf", "vf", a, -1.0);
    ret_v(v);
    assert_vec(v, -1, -2, -3);
    CALL_OK("op_add_v", "vv", a, b);
    ret_v(v);
    assert_vec(v, 5, -3, 9);
    CALL_OK("op_sub_v", "vv", a, b);
    ret_v(v);
    assert_vec(v, -3, 7, -3);
}

static float cmp(const char *fn, double a, double b)
{
    assert_int_equal(qt_call(ctx, fn, "ff", a, b), QC_OK);
    return ret_f();
}

static void test_comparisons(void **state)
{
    (void)state;
    assert_true(cmp("op_eq_f", 2, 2) == 1 && cmp("op_eq_f", 2, 3) == 0);
    assert_true(cmp("op_ne_f", 2, 2) == 0 && cmp("op_ne_f", 2, 3) == 1);
    assert_true(cmp("op_le", 2, 2) == 1 && cmp("op_le", 3, 2) == 0);
    assert_true(cmp("op_ge", 2, 2) == 1 && cmp("op_ge", 1, 2) == 0);
    assert_true(cmp("op_lt", 1, 2) == 1 && cmp("op_lt", 2, 2) == 0);
    assert_true(cmp("op_gt", 3, 2) == 1 && cmp("op_gt", 2, 2) == 0);
    assert_true(cmp("op_and", 1, 2) == 1 && cmp("op_and", 0, 2) == 0);
    assert_true(cmp("op_or", 0, 2) == 1 && cmp("op_or", 0, 0) == 0);
    assert_true(cmp("op_bitand", 6, 3) == 2 && cmp("op_bitor", 6, 3) == 7);
    assert_true(cmp("op_bitand", -1, 5) == 5);
    float a[3] = { 1, 2, 3 }, b[3] = { 1, 2, 4 }, zero[3] = { 0, 0, 0 };
    CALL_OK("op_eq_v", "vv", a, a);
    assert_float_equal(ret_f(), 1, 0);
    CALL_OK("op_eq_v", "vv", a, b);
    assert_float_equal(ret_f(), 0, 0);
    CALL_OK("op_ne_v", "vv", a, b);
    assert_float_equal(ret_f(), 1, 0);
    CALL_OK("op_not_v", "v", zero);
    assert_float_equal(ret_f(), 1, 0);
    CALL_OK("op_not_v", "v", b);
    assert_float_equal(ret_f(), 0, 0);
    CALL_OK("op_not_f", "f", 0.0);
    assert_float_equal(ret_f(), 1, 0);
    CALL_OK("op_not_f", "f", -0.5);
    assert_float_equal(ret_f(), 0, 0);
    CALL_OK("op_eq_e", "ii", 3, 3);
    assert_float_equal(ret_f(), 1, 0);
    CALL_OK("op_ne_e", "ii", 3, 4);
    assert_float_equal(ret_f(), 1, 0);
    CALL_OK("op_not_e", "i", 0);
    assert_float_equal(ret_f(), 1, 0);
    CALL_OK("op_not_e", "i", 5);
    assert_float_equal(ret_f(), 0, 0);
    /* functions: EQ_FNC, NE_FNC, NOT_FNC */
    CALL_OK("op_fnc", "f", 1.0);
    assert_float_equal(ret_f(), 1, 0);
    CALL_OK("op_fnc", "f", 0.0);
    assert_float_equal(ret_f(), 2, 0);
    CALL_OK("op_not_fnc", "f", 0.0);
    assert_float_equal(ret_f(), 1, 0);
    CALL_OK("op_not_fnc", "f", 1.0);
    assert_float_equal(ret_f(), 0, 0);
}

static void test_string_comparisons(void **state)
{
    (void)state;
    qc_string hello_temp = qc_string_temp(ctx, "hello");
    qc_string hello_engine = qc_string_new(vm, "hello");
    qc_string other = qc_string_temp(ctx, "other");
    qc_string empty = qc_string_temp(ctx, "");
    CALL_OK("hello", "");
    qc_string hello_table = qc_return_int(ctx);
    assert_true(hello_table >= 0 && hello_table < qc_vm_info(vm)->string_size);
    CALL_OK("op_eq_s", "ii", hello_table, hello_temp); /* by content, not by value */
    assert_float_equal(ret_f(), 1, 0);
    CALL_OK("op_eq_s", "ii", hello_engine, hello_temp);
    assert_float_equal(ret_f(), 1, 0);
    CALL_OK("op_ne_s", "ii", hello_engine, other);
    assert_float_equal(ret_f(), 1, 0);
    CALL_OK("op_not_s", "i", 0); /* null */
    assert_float_equal(ret_f(), 1, 0);
    CALL_OK("op_not_s", "i", empty);
    assert_float_equal(ret_f(), 1, 0);
    CALL_OK("op_not_s", "i", hello_engine);
    assert_float_equal(ret_f(), 0, 0);
}

static void test_fields(void **state)
{
    (void)state;
    float v[3] = { 1.5f, -2, 3 }, got[3];
    CALL_OK("op_field_f", "if", 1, 12.5);
    assert_float_equal(ret_f(), 12.5, 0);
    int counter = qc_find_field(vm, "counter", QC_TYPE_FLOAT);
    assert_true(counter >= 0);
    assert_float_equal(qc_entity_ptr(vm, 1)[counter].f, 12.5, 0);
    assert_float_equal(qc_entity_ptr(vm, 2)[counter].f, 0, 0);
    CALL_OK("op_field_v", "iv", 2, v);
    ret_v(got);
    assert_vec(got, 1.5f, -2, 3);
    qc_string s = qc_string_new(vm, "label");
    CALL_OK("op_field_s", "ii", 3, s);
    assert_int_equal(qc_return_int(ctx), s);
    CALL_OK("op_field_ent", "ii", 4, 7);
    assert_int_equal(qc_return_int(ctx), 7);
    CALL_OK("op_field_fnc", "i", 5);
    assert_float_equal(ret_f(), 1, 0);
    CALL_OK("op_field_fld", "if", 6, 99.0);
    assert_float_equal(ret_f(), 99, 0);
    assert_float_equal(qc_entity_ptr(vm, 6)[counter].f, 99, 0);
}

static void test_stores_jumps(void **state)
{
    (void)state;
    CALL_OK("op_store", "ff", 2.0, 5.0);
    assert_float_equal(ret_f(), 7, 0);
    CALL_OK("op_loop", "f", 100.0);
    assert_float_equal(ret_f(), 4950, 0);
    CALL_OK("op_if", "f", 1.0);
    assert_float_equal(ret_f(), 1, 0);
    CALL_OK("op_if", "f", 0.0);
    assert_float_equal(ret_f(), 2, 0);
}

static void test_shared_globals(void **state)
{
    (void)state;
    int total = qc_find_global(vm, "shared_total", QC_TYPE_FLOAT);
    int vec = qc_find_global(vm, "shared_vec", QC_TYPE_VECTOR);
    assert_int_equal(qc_global_class_of(vm, total), QC_GLOBAL_SHARED);
    assert_int_equal(qc_global_class_of(vm, vec + 2), QC_GLOBAL_SHARED);
    qc_vm_global(vm, total)->f = 10;
    CALL_OK("op_add_shared", "f", 5.0);
    assert_float_equal(ret_f(), 15, 0);
    assert_float_equal(qc_vm_global(vm, total)->f, 15, 0);
    /* another context sees the same shared value */
    qc_ctx *second = qc_ctx_new(vm);
    assert_int_equal(qt_call(second, "op_add_shared", "f", 1.0), QC_OK);
    assert_float_equal(qc_return_float(second), 16, 0);
    float one[3] = { 1, 2, 3 }, got[3];
    CALL_OK("op_add_shared_vec", "v", one);
    assert_int_equal(qt_call(second, "op_add_shared_vec", "v", one), QC_OK);
    qc_return_vector(second, got);
    assert_vec(got, 2, 4, 6);
    qc_ctx_free(second);
}

static void test_calls(void **state)
{
    (void)state;
    CALL_OK("p0", "");
    assert_float_equal(ret_f(), 42, 0);
    CALL_OK("p1", "f", 7.0);
    assert_float_equal(ret_f(), 7, 0);
    CALL_OK("p2", "ff", 1.0, 2.0);
    assert_float_equal(ret_f(), 21, 0);
    float v[3] = { 1, 2, 3 }, w[3] = { 10, 20, 30 };
    CALL_OK("p3", "fvf", 1.0, v, 4.0);
    assert_float_equal(ret_f(), 11, 0);
    CALL_OK("p4", "ffff", 1.0, 2.0, 3.0, 4.0);
    assert_float_equal(ret_f(), 10, 0);
    CALL_OK("p5", "fffff", 1.0, 2.0, 3.0, 4.0, 5.0);
    assert_float_equal(ret_f(), 15, 0);
    CALL_OK("p6", "ffffff", 1.0, 2.0, 3.0, 4.0, 5.0, 6.0);
    assert_float_equal(ret_f(), 21, 0);
    CALL_OK("p7", "fffffff", 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0);
    assert_float_equal(ret_f(), 28, 0);
    CALL_OK("p8", "vffffffv", v, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, w);
    assert_float_equal(ret_f(), 1 + 4 + 9 + 21 + 40 + 100 + 180, 0);
    CALL_OK("call_all", "");
    assert_float_equal(ret_f(), 42 + 1 + 21 + 11 + 10 + 15 + 21 + 28 + (6 + 6 + 15), 0);
}

static void test_recursion(void **state)
{
    (void)state;
    CALL_OK("fact", "f", 10.0);
    assert_float_equal(ret_f(), 3628800, 0);
    CALL_OK("fib", "f", 15.0);
    assert_float_equal(ret_f(), 610, 0);
    /* each recursive invocation's local survives the calls below it */
    CALL_OK("keep_local", "f", 6.0);
    assert_float_equal(ret_f(), 600, 0);
}

static void test_strings(void **state)
{
    (void)state;
    CALL_OK("number", "f", 3.0);
    assert_string_equal(qc_string_get(vm, qc_return_int(ctx)), "3");
    CALL_OK("number", "f", -2.5);
    assert_string_equal(qc_string_get(vm, qc_return_int(ctx)), " -2.5");
    float v[3] = { 1, -2.25f, 300 };
    CALL_OK("vec", "v", v);
    assert_string_equal(qc_string_get(vm, qc_return_int(ctx)), "'  1.0  -2.2 300.0'");
    CALL_OK("two_temps", "ff", 1.0, 2.0);
    assert_float_equal(ret_f(), 1, 0);
    CALL_OK("is_empty", "i", qc_string_temp(ctx, ""));
    assert_float_equal(ret_f(), 1, 0);
    CALL_OK("parse", "i", qc_string_temp(ctx, "12.5abc"));
    assert_float_equal(ret_f(), 12.5, 0);
    qc_string name = qc_string_new(vm, "Ranger");
    assert_int_equal(name, QC_STRING_ENGINE_BASE);
    CALL_OK("name_it", "ii", 1, name);
    CALL_OK("named", "ii", 1, qc_string_temp(ctx, "Ranger"));
    assert_float_equal(ret_f(), 1, 0);
    /* the temporary ring wraps round without running out */
    for (int i = 0; i < 5000; i++)
        assert_int_equal(qt_call(ctx, "number", "f", (double)i), QC_OK);
    assert_string_equal(qc_string_get(vm, qc_return_int(ctx)), "4999");
    assert_null(qc_string_get(vm, -5));
    assert_null(qc_string_get(vm, 0x7fffffff));
}

static void test_state(void **state)
{
    (void)state;
    const struct qc_system_offsets *sys = qc_vm_system(vm);
    int health = qc_find_field(vm, "health", QC_TYPE_FLOAT);
    qc_ctx_set_int(ctx, sys->self, 2);
    qc_ctx_set_float(ctx, sys->time, 10);
    CALL_OK("walk1", "");
    qc_word *e = qc_entity_ptr(vm, 2);
    assert_float_equal(e[sys->f_frame].f, 7, 0);
    assert_int_equal(e[sys->f_think].i, qt_fn(vm, "walk2"));
    assert_int_equal(e[sys->f_nextthink].u, ((qc_word){ .f = (float)(10.0 + 0.1) }).u);
    assert_float_equal(e[health].f, 1, 0);
    qc_ctx_set_float(ctx, sys->time, 10.1f);
    qc_call(ctx, e[sys->f_think].i);
    assert_float_equal(e[sys->f_frame].f, 8, 0);
    assert_int_equal(e[sys->f_think].i, qt_fn(vm, "walk1"));
    assert_float_equal(e[health].f, 11, 0);
}

static void test_math_builtins(void **state)
{
    (void)state;
    float v[3], got[3];
    float yaw90[3] = { 0, 90, 0 };
    CALL_OK("t_makevectors_f", "v", yaw90);
    ret_v(got);
    assert_vec(got, 0, 1, 0);
    CALL_OK("t_makevectors_r", "v", yaw90);
    ret_v(got);
    assert_vec(got, 1, 0, 0);
    CALL_OK("t_makevectors_u", "v", yaw90);
    ret_v(got);
    assert_vec(got, 0, 0, 1);
    float ang[3] = { 30, 45, 10 };
    double p = 30 * M_PI / 180, y = 45 * M_PI / 180;
    CALL_OK("t_makevectors_f", "v", ang);
    ret_v(got);
    assert_vec(got, (float)(cos(p) * cos(y)), (float)(cos(p) * sin(y)), (float)-sin(p));
    qc_ctx_seed(ctx, 12345);
    float first[8];
    for (int i = 0; i < 8; i++) {
        CALL_OK("t_random", "");
        first[i] = ret_f();
        assert_true(first[i] >= 0 && first[i] <= 1);
    }
    qc_ctx_seed(ctx, 12345);
    for (int i = 0; i < 8; i++) {
        CALL_OK("t_random", "");
        assert_float_equal(ret_f(), first[i], 0);
    }
    float v345[3] = { 3, 4, 0 }, zero[3] = { 0, 0, 0 };
    CALL_OK("t_normalize", "v", v345);
    ret_v(got);
    assert_vec(got, 0.6f, 0.8f, 0);
    CALL_OK("t_normalize", "v", zero);
    ret_v(got);
    assert_vec(got, 0, 0, 0);
    CALL_OK("t_vlen", "v", v345);
    assert_float_equal(ret_f(), 5, 0);
    memcpy(v, (float[3]){ -1, -1, 0 }, sizeof v);
    CALL_OK("t_vectoyaw", "v", v);
    assert_float_equal(ret_f(), 225, 0);
    memcpy(v, (float[3]){ 0, 1, 0 }, sizeof v);
    CALL_OK("t_vectoyaw", "v", v);
    assert_float_equal(ret_f(), 90, 0);
    CALL_OK("t_vectoyaw", "v", zero);
    assert_float_equal(ret_f(), 0, 0);
    memcpy(v, (float[3]){ 0, 0, 5 }, sizeof v);
    CALL_OK("t_vectoangles", "v", v);
    ret_v(got);
    assert_vec(got, 90, 0, 0);
    memcpy(v, (float[3]){ 0, 0, -5 }, sizeof v);
    CALL_OK("t_vectoangles", "v", v);
    ret_v(got);
    assert_vec(got, 270, 0, 0);
    memcpy(v, (float[3]){ 1, 0, -1 }, sizeof v);
    CALL_OK("t_vectoangles", "v", v);
    ret_v(got);
    assert_vec(got, 315, 0, 0);
    memcpy(v, (float[3]){ 0, -2, 0 }, sizeof v);
    CALL_OK("t_vectoangles", "v", v);
    ret_v(got);
    assert_vec(got, 0, 270, 0);
    struct { const char *fn; double in, out; } one[] = {
        { "t_rint", 2.5, 3 }, { "t_rint", -2.5, -3 }, { "t_rint", 2.4, 2 },
        { "t_floor", -1.5, -2 }, { "t_floor", 1.5, 1 }, { "t_ceil", 1.2, 2 },
        { "t_ceil", -1.2, -1 }, { "t_fabs", -3, 3 }, { "t_fabs", 3, 3 },
    };
    for (size_t i = 0; i < sizeof one / sizeof one[0]; i++) {
        CALL_OK(one[i].fn, "f", one[i].in);
        assert_float_equal(ret_f(), one[i].out, 0);
    }
}

static void test_debug_builtins(void **state)
{
    (void)state;
    qc_vm_set_print(vm, NULL, NULL);
    qc_vm_set_print(vm, capture, NULL);
    CALL_OK("t_dprint", "i", qc_string_temp(ctx, "to the developer\n"));
    assert_non_null(strstr(printed, "to the developer"));
    int health = qc_find_field(vm, "health", QC_TYPE_FLOAT);
    qc_entity_ptr(vm, 1)[health].f = 55;
    printed[0] = 0;
    CALL_OK("t_eprint", "i", 1);
    assert_non_null(strstr(printed, "EDICT 1:"));
    assert_non_null(strstr(printed, "health"));
    assert_non_null(strstr(printed, " 55.0"));
    printed[0] = 0;
    qc_vm_set_num_entities(vm, 3);
    CALL_OK("t_coredump", "");
    assert_non_null(strstr(printed, "EDICT 0:"));
    assert_non_null(strstr(printed, "EDICT 2:"));
    assert_null(strstr(printed, "EDICT 3:"));
    printed[0] = 0;
    CALL_OK("t_trace", "f", 1.0);
    assert_float_equal(ret_f(), 2, 0);
    assert_non_null(strstr(printed, "t_trace statement"));
    assert_non_null(strstr(printed, "ADD_F"));
}

static qc_status QC_SAFE world_echo_plus(qc_ctx *c)
{
    /* as touch functions from walkmove: a nested call into QuakeC from a builtin */
    float a = qc_parm_float(c, 0);
    qc_set_parm_float(c, 0, a);
    qc_set_parm_float(c, 1, 2);
    if (qc_call(c, qc_find_function(qc_ctx_vm(c), "p2")) != QC_OK)
        return QC_ERROR;
    qc_set_return_float(c, qc_return_float(c) + 1000);
    return QC_OK;
}

static qc_status QC_SAFE world_fail_inside(qc_ctx *c)
{
    return qc_call(c, qc_find_function(qc_ctx_vm(c), "outer"));
}

static qc_status QC_SAFE world_refuse(qc_ctx *c)
{
    return qc_raise(c, QC_ERR_BUILTIN, "refused: %d", 7);
}

static void test_world_builtins(void **state)
{
    (void)state;
    assert_false(qc_builtin_implemented(vm, 200));
    assert_int_equal(qc_builtin_register(vm, 200, "missing", world_echo_plus), 0);
    assert_int_equal(qc_builtin_register(vm, 200, "missing", world_echo_plus), -1);
    assert_int_equal(qc_builtin_register(vm, 26, "ftos", world_echo_plus), -1);
    assert_int_equal(qc_builtin_register(vm, QC_MAX_BUILTINS, "x", world_echo_plus), -1);
    assert_true(qc_builtin_implemented(vm, 200));
    assert_string_equal(qc_builtin_name(vm, 200), "missing");
    qc_set_parm_float(ctx, 0, 3);
    assert_int_equal(qc_call(ctx, qt_fn(vm, "missing")), QC_ERROR); /* the engine calls a builtin */
    CALL_OK("call_missing", "");
    /* a nested error propagates through the builtin with the whole backtrace */
    qc_vm *other = qt_load(progs_path, NULL);
    qc_vm_set_print(other, capture, NULL);
    qc_ctx *c2 = qc_ctx_new(other);
    qc_builtin_register(other, 200, "missing", world_fail_inside);
    assert_int_equal(qt_call(c2, "call_missing", ""), QC_ERROR);
    const qc_error *e = qc_ctx_error(c2);
    assert_int_equal(e->kind, QC_ERR_PROGRAM);
    assert_string_equal(e->function, "inner_error");
    const char *bt = e->backtrace;
    const char *in = strstr(bt, "inner_error"), *mid = strstr(bt, "middle"),
               *out = strstr(bt, "outer"), *cm = strstr(bt, "call_missing");
    assert_true(in && mid && out && cm && in < mid && mid < out && out < cm);
    assert_int_equal(qt_call(c2, "p1", "f", 4.0), QC_OK); /* the context is usable again */
    qc_vm_free(other);
    other = qt_load(progs_path, NULL);
    c2 = qc_ctx_new(other);
    qc_builtin_register(other, 200, "missing", world_refuse);
    assert_int_equal(qt_call(c2, "call_missing", ""), QC_ERROR);
    assert_int_equal(qc_ctx_error(c2)->kind, QC_ERR_BUILTIN);
    assert_string_equal(qc_ctx_error(c2)->message, "refused: 7");
    qc_vm_free(other);
}

/* A table registers whole, help included; it is refused at its first entry whose number is
 * taken (earlier in the table or by the library) or out of range, or that has not exactly
 * one function. */
static void test_builtin_tables(void **state)
{
    (void)state;
    const struct qc_builtin_def good[] = {
        { 300, "first", "the first", .world = world_echo_plus },
        { 301, "second", "the second", .world = world_refuse },
        { 0 }
    };
    assert_null(qc_builtin_register_table(vm, good));
    assert_string_equal(qc_builtin_name(vm, 301), "second");
    assert_string_equal(qc_builtin_help(vm, 300), "the first");
    assert_true(qc_builtin_help(vm, 26)[0] != 0); /* the library's too */
    const struct qc_builtin_def twice[] = {
        { 302, "a", "a", .world = world_echo_plus },
        { 302, "b", "b", .world = world_echo_plus },
        { 0 }
    };
    assert_ptr_equal(qc_builtin_register_table(vm, twice), &twice[1]);
    assert_string_equal(qc_builtin_name(vm, 302), "a");
    const struct qc_builtin_def library_number[] = {
        { 26, "ftos", "", .world = world_echo_plus }, { 0 } };
    assert_ptr_equal(qc_builtin_register_table(vm, library_number), &library_number[0]);
    const struct qc_builtin_def out_of_range[] = {
        { -3, "negative", "", .world = world_echo_plus }, { 0 } };
    assert_ptr_equal(qc_builtin_register_table(vm, out_of_range), &out_of_range[0]);
    const struct qc_builtin_def no_function[] = { { 303, "none", "", .world = NULL }, { 0 } };
    assert_ptr_equal(qc_builtin_register_table(vm, no_function), &no_function[0]);
    assert_false(qc_builtin_implemented(vm, 303));
}

static void test_nested_result(void **state)
{
    (void)state;
    /* via_world(5) = world_add(5) + 10, world_add(a) = p2(a, 2) + 1000 in a nested call */
    assert_int_equal(qc_builtin_register(vm, 201, "world_add", world_echo_plus), 0);
    CALL_OK("via_world", "f", 5.0);
    assert_float_equal(ret_f(), 5 + 20 + 1000 + 10, 0);
    CALL_OK("keep_local", "f", 2.0);
    assert_float_equal(ret_f(), 200, 0);
}

static const qc_error *expect_error(qc_error_kind kind, const char *fn, const char *kinds, ...)
{
    va_list ap;
    va_start(ap, kinds);
    qc_status s = qt_vcall(ctx, fn, kinds, ap);
    va_end(ap);
    assert_int_equal(s, QC_ERROR);
    const qc_error *e = qc_ctx_error(ctx);
    if (e->kind != kind)
        fprintf(stderr, "%s: expected %s, got %s: %s\n", fn, qc_error_kind_name(kind),
                qc_error_kind_name(e->kind), e->message);
    assert_int_equal(e->kind, kind);
    assert_true(strlen(e->message) > 0);
    assert_non_null(strstr(e->backtrace, fn));
    /* the context is usable after every error: a call with locals gives the right answer */
    assert_int_equal(qt_call(ctx, "keep_local", "f", 3.0), QC_OK);
    assert_float_equal(qc_return_float(ctx), 300, 0);
    return e;
}

static void test_runtime_errors(void **state)
{
    (void)state;
    const struct qc_system_offsets *sys = qc_vm_system(vm);
    qc_ctx_set_budget(ctx, 5000);
    const qc_error *e = expect_error(QC_ERR_RUNAWAY, "spin", "f", 1.0);
    assert_non_null(strstr(e->message, "runaway loop"));
    assert_non_null(strstr(e->message, "5000"));
    assert_string_equal(e->function, "spin");
    qc_ctx_set_budget(ctx, 0);
    e = expect_error(QC_ERR_BAD_ENTITY, "read_health", "i", 99999);
    assert_non_null(strstr(e->message, "99999"));
    expect_error(QC_ERR_BAD_ENTITY, "read_health", "i", -1);
    qc_ctx_set_int(ctx, sys->self, 1);
    expect_error(QC_ERR_NULL_FUNCTION, "call_think", "");
    e = expect_error(QC_ERR_STACK_OVERFLOW, "deep", "f", 0.0);
    assert_non_null(strstr(e->message, "stack overflow"));
    CALL_OK("write_world", ""); /* allowed while the map spawns */
    qc_vm_lock_world(vm, true);
    expect_error(QC_ERR_WORLD_WRITE, "write_world", "");
    qc_ctx_set_int(ctx, sys->self, 0);
    expect_error(QC_ERR_WORLD_WRITE, "walk1", "");
    qc_vm_lock_world(vm, false);
    qc_ctx_set_int(ctx, sys->self, 4);
    e = expect_error(QC_ERR_PROGRAM, "fail_error", "");
    assert_string_equal(e->message, "something broke");
    assert_non_null(strstr(printed, "SERVER ERROR in fail_error"));
    e = expect_error(QC_ERR_OBJECT, "fail_objerror", "");
    assert_string_equal(e->message, "bad object");
    assert_int_equal(e->self, 4);
    expect_error(QC_ERR_BREAK, "fail_break", "");
    e = expect_error(QC_ERR_NO_BUILTIN, "call_missing", "");
    assert_non_null(strstr(e->message, "#200"));
    assert_non_null(strstr(e->message, "missing"));
    expect_error(QC_ERR_BAD_STRING, "compare_bad", "i", 0x7ffffff0);
    expect_error(QC_ERR_BAD_STRING, "parse", "i", -7);
    e = expect_error(QC_ERR_PROGRAM, "outer", "");
    assert_non_null(strstr(e->backtrace, "middle"));
    assert_int_equal(qc_call(ctx, 0), QC_ERROR);
    assert_int_equal(qc_ctx_error(ctx)->kind, QC_ERR_NULL_FUNCTION);
    assert_int_equal(qc_call(ctx, 1 << 20), QC_ERROR);
    assert_int_equal(qc_ctx_error(ctx)->kind, QC_ERR_BAD_FUNCTION);
}

static void test_more_errors(void **state)
{
    (void)state;
    /* a field offset outside an entity (a damaged field constant) */
    int somefield = qc_find_global(vm, "somefield", QC_TYPE_FIELD);
    assert_true(somefield >= 0);
    qc_vm *other = qt_load(progs_path, &(qc_load_options){ .local_stack_words = 64 });
    qc_vm_global(other, somefield)->i = 100000;
    qc_ctx *c2 = qc_ctx_new(other);
    qc_set_parm_int(c2, 0, 1);
    assert_int_equal(qc_call(c2, qt_fn(other, "read_somefield")), QC_ERROR);
    assert_int_equal(qc_ctx_error(c2)->kind, QC_ERR_FIELD_RANGE);
    /* the saved-locals stack runs out before the call depth does */
    assert_int_equal(qt_call(c2, "big_locals", "ffff", 1.0, 2.0, 3.0, 4.0), QC_ERROR);
    assert_int_equal(qc_ctx_error(c2)->kind, QC_ERR_STACK_OVERFLOW);
    assert_non_null(strstr(qc_ctx_error(c2)->message, "saved locals"));
    qc_vm_free(other);
}

static void test_reset(void **state)
{
    (void)state;
    const struct qc_system_offsets *sys = qc_vm_system(vm);
    qc_vm_global(vm, sys->time)->f = 123;
    qc_ctx_set_float(ctx, sys->time, 5);
    qc_ctx_set_int(ctx, sys->other, 9);
    qc_ctx_reset(ctx);
    assert_float_equal(qc_ctx_get_float(ctx, sys->time), 123, 0);
    assert_int_equal(qc_ctx_get_int(ctx, sys->other), 0);
    assert_false(qc_ctx_set_int(ctx, qc_find_global(vm, "shared_total", QC_TYPE_FLOAT), 1));
    assert_int_equal(qc_ctx_error(ctx)->kind, QC_ERR_NONE);
}

/* qc_vm_restart: the program as loaded (a map change): shared globals, entity fields and
 * engine strings from the last map gone, every context's globals the file's again. */
static void test_restart(void **state)
{
    (void)state;
    int total = qc_find_global(vm, "shared_total", QC_TYPE_FLOAT);
    float initial = qc_vm_global(vm, total)->f;
    CALL_OK("op_add_shared", "f", 5.0);
    assert_float_equal(qc_vm_global(vm, total)->f, initial + 5, 0);
    qc_entity_ptr(vm, 3)[0].f = 42;
    assert_true(qc_string_new(vm, "old map") != 0);
    size_t used = qc_engine_strings_used(vm);
    assert_true(used > 0);
    qc_vm_restart(vm);
    assert_float_equal(qc_vm_global(vm, total)->f, initial, 0);
    assert_float_equal(qc_entity_ptr(vm, 3)[0].f, 0, 0);
    assert_int_equal(qc_engine_strings_used(vm), 0);
    CALL_OK("op_add_shared", "f", 1.0);
    assert_float_equal(ret_f(), initial + 1, 0);
}

static void test_classification(void **state)
{
    (void)state;
    const char *per_call[] = { "self", "other", "time", "frametime", "newmis", "msg_entity",
                               "parm1", "parm16", "v_forward", "trace_ent", "trace_endpos" };
    for (size_t i = 0; i < sizeof per_call / sizeof *per_call; i++) {
        int ofs = qc_find_global(vm, per_call[i], QC_TYPE_VOID);
        assert_true(ofs >= 0);
        assert_int_equal(qc_global_class_of(vm, ofs), QC_GLOBAL_PER_CALL);
        assert_string_equal(qc_global_class_reason(vm, ofs), "system");
    }
    assert_int_equal(qc_global_class_of(vm, qc_find_global(vm, "mapname", QC_TYPE_STRING)),
                     QC_GLOBAL_SHARED);
    assert_int_equal(qc_global_class_of(vm, qc_find_global(vm, "world", QC_TYPE_ENTITY)),
                     QC_GLOBAL_CONSTANT);
    assert_int_equal(qc_global_class_of(vm, qc_find_global(vm, "greeting", QC_TYPE_STRING)),
                     QC_GLOBAL_CONSTANT);
    assert_int_equal(qc_global_class_of(vm, QC_OFS_PARM0 + 5), QC_GLOBAL_PER_CALL);
    /* configured per-call globals */
    const char *const extra[] = { "shared_total", NULL };
    qc_vm *other = qt_load(progs_path, &(qc_load_options){ .per_call_globals = extra });
    int total = qc_find_global(other, "shared_total", QC_TYPE_FLOAT);
    assert_int_equal(qc_global_class_of(other, total), QC_GLOBAL_PER_CALL);
    assert_string_equal(qc_global_class_reason(other, total), "configured");
    qc_vm_free(other);
}

static void test_all_opcodes_decoded(void **state)
{
    (void)state;
    /* the test program must exercise every opcode of version 6 */
    FILE *f = fopen(progs_path, "rb");
    assert_non_null(f);
    static uint8_t data[1 << 20];
    size_t n = fread(data, 1, sizeof data, f);
    fclose(f);
    int32_t ofs, count;
    memcpy(&ofs, data + 8, 4);
    memcpy(&count, data + 12, 4);
    bool seen[QC_OP_COUNT] = { false };
    for (int i = 0; i < count && (size_t)ofs + 8 * (size_t)i + 2 <= n; i++)
        seen[data[ofs + 8 * i] | data[ofs + 8 * i + 1] << 8] = true;
    for (int op = 0; op < QC_OP_COUNT; op++) {
        if (!seen[op])
            fprintf(stderr, "opcode %d is not in the test program\n", op);
        assert_true(seen[op]);
    }
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s PROGS.DAT (the compiled tests/qc program)\n", argv[0]);
        return 2;
    }
    progs_path = argv[1];
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_info, setup, teardown),
        cmocka_unit_test_setup_teardown(test_float_arithmetic, setup, teardown),
        cmocka_unit_test_setup_teardown(test_vector_arithmetic, setup, teardown),
        cmocka_unit_test_setup_teardown(test_comparisons, setup, teardown),
        cmocka_unit_test_setup_teardown(test_string_comparisons, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fields, setup, teardown),
        cmocka_unit_test_setup_teardown(test_stores_jumps, setup, teardown),
        cmocka_unit_test_setup_teardown(test_shared_globals, setup, teardown),
        cmocka_unit_test_setup_teardown(test_calls, setup, teardown),
        cmocka_unit_test_setup_teardown(test_recursion, setup, teardown),
        cmocka_unit_test_setup_teardown(test_strings, setup, teardown),
        cmocka_unit_test_setup_teardown(test_state, setup, teardown),
        cmocka_unit_test_setup_teardown(test_math_builtins, setup, teardown),
        cmocka_unit_test_setup_teardown(test_debug_builtins, setup, teardown),
        cmocka_unit_test_setup_teardown(test_world_builtins, setup, teardown),
        cmocka_unit_test_setup_teardown(test_builtin_tables, setup, teardown),
        cmocka_unit_test_setup_teardown(test_nested_result, setup, teardown),
        cmocka_unit_test_setup_teardown(test_runtime_errors, setup, teardown),
        cmocka_unit_test_setup_teardown(test_more_errors, setup, teardown),
        cmocka_unit_test_setup_teardown(test_reset, setup, teardown),
        cmocka_unit_test_setup_teardown(test_restart, setup, teardown),
        cmocka_unit_test_setup_teardown(test_classification, setup, teardown),
        cmocka_unit_test_setup_teardown(test_all_opcodes_decoded, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
