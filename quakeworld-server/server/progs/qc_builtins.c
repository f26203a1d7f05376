/* Registering builtins, what is known of a registered one, and qc_varstring. */
#include <string.h>

#include "qc_internal.h"

static bool QC_PURE number_free(const qc_vm *vm, int number)
{
    return number > 0 && number < QC_MAX_BUILTINS && !vm->builtins[number].library &&
           !vm->builtins[number].world;
}

const struct qc_builtin_def *qc_builtin_register_table(qc_vm *vm,
                                                       const struct qc_builtin_def *table)
{
    for (const struct qc_builtin_def *d = table; d->number || d->name; d++) {
        if (!number_free(vm, d->number) || !d->world == !d->loop)
            return d;
        struct qc_builtin_entry *b = &vm->builtins[d->number];
        b->world = d->world;
        b->library = d->loop;
        b->name = d->name;
        b->help = d->help;
    }
    return NULL;
}

int qc_builtin_register(qc_vm *vm, int number, const char *name, qc_builtin_fn fn)
{
    const struct qc_builtin_def one[] = { { number, name, NULL, fn, NULL }, { 0 } };
    return qc_builtin_register_table(vm, one) ? -1 : 0;
}

const struct qc_builtin_def *qc_register_library_builtins(qc_vm *vm)
{
    const struct qc_builtin_def *refused = qc_builtin_register_table(vm, qc_math_builtins);
    return refused ? refused : qc_builtin_register_table(vm, qc_debug_builtins);
}

bool qc_builtin_implemented(const qc_vm *vm, int number)
{
    if (number <= 0 || number >= QC_MAX_BUILTINS)
        return false;
    return vm->builtins[number].library || vm->builtins[number].world;
}

const char *qc_builtin_name(const qc_vm *vm, int number)
{
    if (!qc_builtin_implemented(vm, number))
        return "";
    return vm->builtins[number].name ? vm->builtins[number].name : "";
}

const char *qc_builtin_help(const qc_vm *vm, int number)
{
    if (!qc_builtin_implemented(vm, number))
        return "";
    return vm->builtins[number].help ? vm->builtins[number].help : "";
}

const char *qc_varstring(qc_ctx *ctx, int first)
{
    char text[QC_TEMP_STRING_SPACE / 4];
    size_t used = 0;
    for (int i = first; i < ctx->argc && i < QC_MAX_PARMS; i++) {
        const char *s = qc_string_get(ctx->vm, qc_parm_int(ctx, i));
        if (!s)
            s = "(bad string)";
        size_t n = strlen(s);
        if (used + n > sizeof text - 1)
            n = sizeof text - 1 - used;
        memcpy(text + used, s, n);
        used += n;
    }
    text[used] = 0;
    return qc_string_get(ctx->vm, qc_string_temp(ctx, text));
}
