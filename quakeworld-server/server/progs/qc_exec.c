/* Calls from the engine, contexts, and the error model.
 *
 * qc_call is the only transaction_safe entry of the interpreter: it runs the pure loop
 * (qc_loop.c) and, when the loop stops at a world builtin, calls that builtin through a
 * transaction_safe pointer, so the engine's code runs instrumented inside the caller's
 * transaction. Errors are return values all the way up (no longjmp): the loop records the
 * error with a backtrace, qc_call unwinds the QuakeC frames, restoring their saved locals, and
 * returns QC_ERROR; the engine then cancels its transaction or carries on (README.md). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qc_frames.h"
#include "qc_internal.h"

#ifndef QC_WITHOUT_TM
int _ITM_inTransaction(void) __attribute__((transaction_pure));
#endif

static const char *const kind_names[QC_ERR_KIND_COUNT] = {
    [QC_ERR_NONE] = "none",
    [QC_ERR_RUNAWAY] = "runaway loop",
    [QC_ERR_BAD_ENTITY] = "bad entity number",
    [QC_ERR_FIELD_RANGE] = "field out of range",
    [QC_ERR_BAD_POINTER] = "bad pointer",
    [QC_ERR_WORLD_WRITE] = "writing to world",
    [QC_ERR_NULL_FUNCTION] = "NULL function",
    [QC_ERR_BAD_FUNCTION] = "bad function number",
    [QC_ERR_NO_BUILTIN] = "builtin not implemented",
    [QC_ERR_STACK_OVERFLOW] = "stack overflow",
    [QC_ERR_STACK_UNDERFLOW] = "stack underflow",
    [QC_ERR_BAD_STRING] = "bad string",
    [QC_ERR_PROGRAM] = "program error",
    [QC_ERR_OBJECT] = "object error",
    [QC_ERR_BREAK] = "break statement",
    [QC_ERR_BUILTIN] = "builtin failed",
    [QC_ERR_CODE_END] = "ran past the last statement",
};

const char *qc_error_kind_name(qc_error_kind kind)
{
    return (unsigned)kind < QC_ERR_KIND_COUNT ? kind_names[kind] : "?";
}

/* ---- Contexts -------------------------------------------------------------------------- */

qc_ctx *qc_ctx_new(qc_vm *vm)
{
    int id = 0;
    while (id < vm->max_contexts && vm->contexts[id])
        id++;
    if (id == vm->max_contexts)
        return NULL;
    qc_ctx *ctx = calloc(1, sizeof *ctx);
    if (!ctx)
        return NULL;
    ctx->vm = vm;
    ctx->id = id;
    ctx->g = malloc(sizeof(qc_word) * ((size_t)vm->num_globals + 3));
    ctx->frames = calloc((size_t)vm->max_depth + 1, sizeof *ctx->frames);
    ctx->local_stack = calloc((size_t)vm->local_stack_words + 1, sizeof(qc_word));
    ctx->temp_strings = calloc(1, QC_TEMP_STRING_SPACE);
    ctx->calls = calloc((size_t)vm->num_functions + 1, sizeof *ctx->calls);
    if (!ctx->g || !ctx->frames || !ctx->local_stack || !ctx->temp_strings || !ctx->calls) {
        free(ctx->calls);
        free(ctx->g);
        free(ctx->frames);
        free(ctx->local_stack);
        free(ctx->temp_strings);
        free(ctx);
        return NULL;
    }
    /* Constants, and the initial values of the per-call globals (the locals' values before
     * any call, which leaving a function restores). */
    memcpy(ctx->g, vm->globals, sizeof(qc_word) * ((size_t)vm->num_globals + 3));
    ctx->rng = 0x9e3779b9u * (uint32_t)(id + 1);
    vm->contexts[id] = ctx;
    return ctx;
}

void qc_ctx_free(qc_ctx *ctx)
{
    if (!ctx)
        return;
    ctx->vm->contexts[ctx->id] = NULL;
    free(ctx->g);
    free(ctx->frames);
    free(ctx->local_stack);
    free(ctx->temp_strings);
    free(ctx->calls);
    free(ctx);
}

uint32_t qc_ctx_function_calls(const qc_ctx *ctx, qc_func f)
{
    return f > 0 && f < ctx->vm->num_functions ? ctx->calls[f] : 0;
}

qc_vm *qc_ctx_vm(const qc_ctx *ctx) { return ctx->vm; }

void qc_unwind(qc_ctx *ctx, int exitdepth)
{
    while (ctx->depth > exitdepth)
        qc_frame_pop(ctx);
}

void qc_ctx_reset(qc_ctx *ctx)
{
    const qc_vm *vm = ctx->vm;
    qc_unwind(ctx, 0);
    ctx->local_used = 0;
    ctx->builtin_depth = 0;
    ctx->argc = 0;
    ctx->temp_used = 0;
    ctx->error.kind = QC_ERR_NONE;
    for (int i = 0; i < vm->num_percall_system; i++)
        ctx->g[vm->percall_system[i]] = vm->globals[vm->percall_system[i]];
}

void qc_ctx_set_budget(qc_ctx *ctx, uint32_t statements) { ctx->budget = statements; }
uint64_t qc_ctx_statements(const qc_ctx *ctx) { return ctx->statements; }
void qc_ctx_seed(qc_ctx *ctx, uint32_t seed) { ctx->rng = seed ? seed : 1; }
const qc_error *qc_ctx_error(const qc_ctx *ctx) { return &ctx->error; }

/* ---- Errors ---------------------------------------------------------------------------- */

static void append(char *buf, size_t size, size_t *used, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void append(char *buf, size_t size, size_t *used, const char *fmt, ...)
{
    if (*used + 1 >= size)
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf + *used, size - *used, fmt, ap);
    va_end(ap);
    if (n > 0)
        *used = *used + (size_t)n < size ? *used + (size_t)n : size - 1;
}

/* Where and in which functions: filled from the context's frames. */
static void locate(qc_ctx *ctx)
{
    const qc_vm *vm = ctx->vm;
    qc_error *e = &ctx->error;
    int pc = ctx->pc >= 0 && ctx->pc < vm->num_code ? ctx->pc : vm->num_code - 1;
    e->statement = vm->code_statement[pc];
    e->self = vm->sys.self >= 0 ? ctx->g[vm->sys.self].i : 0;
    snprintf(e->function, sizeof e->function, "%s",
             ctx->depth > 0 ? vm->strings + vm->functions[ctx->frames[ctx->depth - 1].function].name
                            : "(engine)");
    size_t used = 0;
    e->backtrace[0] = 0;
    for (int d = ctx->depth - 1; d >= 0; d--) {
        const qc_frame *fr = &ctx->frames[d];
        const qc_function *fn = &vm->functions[fr->function];
        int at = d == ctx->depth - 1 ? pc : ctx->frames[d + 1].call_pc;
        append(e->backtrace, sizeof e->backtrace, &used, "  %s (%s) statement %d\n",
               vm->strings + fn->name, vm->strings + fn->file,
               at >= 0 && at < vm->num_code ? vm->code_statement[at] : -1);
        if (fr->return_pc < 0 && d > 0)
            append(e->backtrace, sizeof e->backtrace, &used, "  <- called by the engine from "
                   "a builtin\n");
    }
}

qc_status qc_raise(qc_ctx *ctx, qc_error_kind kind, const char *fmt, ...)
{
    qc_error *e = &ctx->error;
    e->kind = kind;
    char detail[QC_ERROR_MESSAGE_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(detail, sizeof detail, fmt, ap);
    va_end(ap);
    snprintf(e->message, sizeof e->message, "%s", detail);
    locate(ctx);
    return QC_ERROR;
}

void qc_fail_value(qc_ctx *ctx, qc_error_kind kind, int32_t v)
{
    const qc_vm *vm = ctx->vm;
    switch (kind) {
    case QC_ERR_BAD_ENTITY:
        qc_raise(ctx, kind, "bad entity number %d (entities are 0..%d)", v, vm->max_entities - 1);
        break;
    case QC_ERR_FIELD_RANGE:
        qc_raise(ctx, kind, "field offset %d outside an entity (%d words)", v, vm->entity_fields);
        break;
    case QC_ERR_BAD_POINTER:
        qc_raise(ctx, kind, "pointer %d outside the entity fields", v);
        break;
    case QC_ERR_WORLD_WRITE:
        qc_raise(ctx, kind, "assignment to world entity (entity 0) after the map was spawned");
        break;
    case QC_ERR_NULL_FUNCTION:
        qc_raise(ctx, kind, "NULL function called");
        break;
    case QC_ERR_BAD_FUNCTION:
        qc_raise(ctx, kind, "bad function number %d (the program has %d)", v,
                 vm->num_functions);
        break;
    case QC_ERR_NO_BUILTIN:
        qc_raise(ctx, kind, "builtin #%d (%s) is not implemented", qc_function_builtin(vm, v),
                 qc_function_name(vm, v));
        break;
    case QC_ERR_STACK_OVERFLOW:
        qc_raise(ctx, kind, "stack overflow calling %s (at most %d calls deep, %d words of "
                 "saved locals)", qc_function_name(vm, v), vm->max_depth, vm->local_stack_words);
        break;
    case QC_ERR_STACK_UNDERFLOW:
        qc_raise(ctx, kind, "stack underflow: return with no caller");
        break;
    case QC_ERR_BAD_STRING:
        qc_raise(ctx, kind, "bad string value %d", v);
        break;
    case QC_ERR_CODE_END:
        qc_raise(ctx, kind, "execution ran past the last statement");
        break;
    default:
        qc_raise(ctx, kind, "%s (%d)", qc_error_kind_name(kind), v);
        break;
    }
}

/* ---- Calls ----------------------------------------------------------------------------- */

static enum qc_run_result run(qc_ctx *ctx, int exitdepth)
{
#ifndef QC_WITHOUT_TM
    if (_ITM_inTransaction())
        return qc_run_tm(ctx, exitdepth);
#endif
    return qc_run_plain(ctx, exitdepth);
}

/* The frame setup of a call, uninstrumented (private state only). Returns the depth to
 * return to (>= 0), or, when the call cannot begin, -1 - that depth: a value, because a depth
 * stored through a pointer into qc_call's local was a barrier to write and one to read back
 * in a transaction (the local's address was taken). */
static int QC_PURE begin_call(qc_ctx *ctx, qc_func f)
{
    const qc_vm *vm = ctx->vm;
    if (ctx->builtin_depth == 0) {
        /* From the engine: anything on the stack was left by a restarted transaction. */
        qc_unwind(ctx, 0);
        uint32_t budget = ctx->budget ? ctx->budget : vm->statement_budget;
        ctx->budget_left = (budget < UINT32_MAX ? budget : UINT32_MAX - 1) + 1;
        ctx->error.kind = QC_ERR_NONE;
        ctx->trace = false; /* traceon lasts one engine call, as in the originals */
    }
    int exitdepth = ctx->depth;
    if (f <= 0 || f >= vm->num_functions) {
        qc_fail_value(ctx, f == 0 ? QC_ERR_NULL_FUNCTION : QC_ERR_BAD_FUNCTION, f);
        return -1 - exitdepth;
    }
    if (vm->functions[f].first < 0) {
        qc_raise(ctx, QC_ERR_BAD_FUNCTION, "the engine called %s, a builtin (#%d)",
                 qc_function_name(vm, f), -vm->functions[f].first);
        return -1 - exitdepth;
    }
    qc_error_kind kind = qc_frame_push(ctx, f, -1, ctx->builtin_depth > 0 ? ctx->pc : -1);
    if (kind != QC_ERR_NONE) {
        qc_fail_value(ctx, kind, f);
        return -1 - exitdepth;
    }
    ctx->pc = vm->functions[f].first;
    return exitdepth;
}

static void QC_PURE end_call(qc_ctx *ctx, int exitdepth, int pc, int argc, uint32_t budget0)
{
    qc_unwind(ctx, exitdepth);
    ctx->pc = pc;
    ctx->argc = argc;
    if (ctx->builtin_depth == 0)
        ctx->statements += budget0 - ctx->budget_left;
}

static qc_builtin_fn QC_PURE world_builtin(const qc_ctx *ctx, int n)
{
    return ctx->vm->builtins[n].world;
}

static void QC_PURE builtin_enter(qc_ctx *ctx, int delta) { ctx->builtin_depth += delta; }
static int QC_PURE builtin_pending(const qc_ctx *ctx) { return ctx->pending_builtin; }
static int QC_PURE context_pc(const qc_ctx *ctx) { return ctx->pc; }
static void QC_PURE set_context_pc(qc_ctx *ctx, int pc) { ctx->pc = pc; }
static uint32_t QC_PURE budget_left(const qc_ctx *ctx) { return ctx->budget_left; }
static int QC_PURE context_argc(const qc_ctx *ctx) { return ctx->argc; }
static bool QC_PURE error_recorded(const qc_ctx *ctx) { return ctx->error.kind != QC_ERR_NONE; }
static void QC_PURE builtin_failed(qc_ctx *ctx, int n)
{
    qc_raise(ctx, QC_ERR_BUILTIN, "builtin #%d (%s) failed", n, qc_builtin_name(ctx->vm, n));
}

qc_status QC_SAFE qc_call(qc_ctx *ctx, qc_func f)
{
    int saved_pc = context_pc(ctx), saved_argc = context_argc(ctx);
    uint32_t budget0 = budget_left(ctx);
    int exitdepth = begin_call(ctx, f);
    if (exitdepth < 0) {
        end_call(ctx, -1 - exitdepth, saved_pc, saved_argc, budget0);
        return QC_ERROR;
    }
    budget0 = budget_left(ctx);
    for (;;) {
        enum qc_run_result r = run(ctx, exitdepth);
        if (r == QC_RUN_DONE)
            break;
        if (r == QC_RUN_ERROR)
            goto failed;
        int n = builtin_pending(ctx);
        int call = context_pc(ctx);
        builtin_enter(ctx, 1);
        qc_status s = world_builtin(ctx, n)(ctx);
        builtin_enter(ctx, -1);
        if (s != QC_OK) {
            set_context_pc(ctx, call);
            if (!error_recorded(ctx))
                builtin_failed(ctx, n);
            goto failed;
        }
        set_context_pc(ctx, call + 1);
    }
    end_call(ctx, exitdepth, saved_pc, saved_argc, budget0);
    return QC_OK;
failed:
    end_call(ctx, exitdepth, saved_pc, saved_argc, budget0);
    return QC_ERROR;
}
