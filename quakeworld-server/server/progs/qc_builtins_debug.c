/* The library's debugging and error builtins: dprint, traceon/traceoff and break run from
 * the loop (they touch only the context); error, objerror, eprint and coredump read entity
 * fields, so they run as world builtins (transaction_safe, instrumented). Output goes to the
 * vm's print hook. */
#include <stdio.h>

#include "qc_internal.h"

static qc_status bi_dprint(qc_ctx *ctx)
{
    qc_print(ctx->vm, 1, qc_varstring(ctx, 0));
    return QC_OK;
}

static qc_status bi_traceon(qc_ctx *ctx)
{
    ctx->trace = true;
    return QC_OK;
}

static qc_status bi_traceoff(qc_ctx *ctx)
{
    ctx->trace = false;
    return QC_OK;
}

static qc_status bi_break(qc_ctx *ctx)
{
    qc_print(ctx->vm, 0, "break statement\n");
    return qc_raise(ctx, QC_ERR_BREAK, "break statement");
}

/* The pure half of error/objerror: message and header, then the error itself. */
static void QC_PURE error_header(qc_ctx *ctx, const char *what, const char *text)
{
    char line[QC_ERROR_MESSAGE_MAX + 96];
    const char *fn = ctx->depth > 0 ?
        ctx->vm->strings + ctx->vm->functions[ctx->frames[ctx->depth - 1].function].name : "?";
    snprintf(line, sizeof line, "======%s ERROR in %s:\n%s\n", what, fn, text);
    qc_print(ctx->vm, 0, line);
}

static qc_entity QC_PURE self_of(const qc_ctx *ctx)
{
    return ctx->vm->sys.self >= 0 ? ctx->g[ctx->vm->sys.self].i : 0;
}

static qc_status QC_PURE raise_with(qc_ctx *ctx, qc_error_kind kind, const char *text)
{
    return qc_raise(ctx, kind, "%s", text);
}

static qc_status QC_SAFE bi_error(qc_ctx *ctx)
{
    const char *text = qc_varstring(ctx, 0);
    error_header(ctx, "SERVER", text);
    qc_print_entity(ctx, self_of(ctx));
    return raise_with(ctx, QC_ERR_PROGRAM, text);
}

static qc_status QC_SAFE bi_objerror(qc_ctx *ctx)
{
    const char *text = qc_varstring(ctx, 0);
    error_header(ctx, "OBJECT", text);
    qc_print_entity(ctx, self_of(ctx));
    return raise_with(ctx, QC_ERR_OBJECT, text);
}

static qc_status QC_SAFE bi_eprint(qc_ctx *ctx)
{
    qc_print_entity(ctx, qc_parm_int(ctx, 0));
    return QC_OK;
}

static int QC_PURE entities_in_use(const qc_ctx *ctx) { return ctx->vm->num_entities; }

static qc_status QC_SAFE bi_coredump(qc_ctx *ctx)
{
    int n = entities_in_use(ctx);
    for (int e = 0; e < n; e++)
        qc_print_entity(ctx, e);
    return QC_OK;
}

const struct qc_builtin_def qc_debug_builtins[] = {
    { 6, "break", "stops the call with the error 'break statement'", .loop = bi_break },
    { 10, "error", "prints the message and self; stops the call (QC_ERR_PROGRAM)",
      .world = bi_error },
    { 11, "objerror", "prints the message and self; stops the call (QC_ERR_OBJECT): the "
                      "engine removes self", .world = bi_objerror },
    { 25, "dprint", "prints its strings when developer is on", .loop = bi_dprint },
    { 28, "coredump", "prints every entity", .world = bi_coredump },
    { 29, "traceon", "prints each statement from now on", .loop = bi_traceon },
    { 30, "traceoff", "stops traceon", .loop = bi_traceoff },
    { 31, "eprint", "prints one entity's fields", .world = bi_eprint },
    { 0 }
};
