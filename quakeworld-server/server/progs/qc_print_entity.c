/* An entity's fields as text (eprint, coredump, error), as the original engines print them:
 * "EDICT n:" then one line per field that is not zero, vector components skipped. The
 * field values are read instrumented (this runs inside the caller's transaction); the
 * formatting is pure. */
#include <stdio.h>
#include <string.h>

#include "qc_internal.h"

static void QC_PURE print_header(qc_ctx *ctx, qc_entity e)
{
    char line[64];
    snprintf(line, sizeof line, "\nEDICT %d:\n", e);
    qc_print(ctx->vm, 0, line);
}

/* Field i's name unless it is a vector component ("origin_x") or has no name. */
static const char *QC_PURE printable(const qc_vm *vm, int i, int *ofs, int *type)
{
    const char *name = vm->strings + vm->fielddefs[i].name;
    size_t len = strlen(name);
    if (len == 0 || (len > 2 && name[len - 2] == '_'))
        return NULL;
    *ofs = vm->fielddefs[i].ofs;
    *type = vm->fielddefs[i].type;
    return name;
}

static void QC_PURE print_field(qc_ctx *ctx, const char *name, int type, const qc_word v[3])
{
    const qc_vm *vm = ctx->vm;
    char value[128];
    switch (type) {
    case QC_TYPE_STRING: {
        const char *s = qc_string_get(vm, v[0].i);
        snprintf(value, sizeof value, "%s", s ? s : "(bad string)");
        break;
    }
    case QC_TYPE_ENTITY: snprintf(value, sizeof value, "entity %d", v[0].i); break;
    case QC_TYPE_FUNCTION: snprintf(value, sizeof value, "%s()", qc_function_name(vm, v[0].i)); break;
    case QC_TYPE_FIELD: snprintf(value, sizeof value, ".%d", v[0].i); break;
    case QC_TYPE_VECTOR:
        snprintf(value, sizeof value, "'%5.1f %5.1f %5.1f'", v[0].f, v[1].f, v[2].f);
        break;
    case QC_TYPE_FLOAT: snprintf(value, sizeof value, "%5.1f", v[0].f); break;
    default: snprintf(value, sizeof value, "(%d)", v[0].i); break;
    }
    char line[192];
    snprintf(line, sizeof line, "%-15s %s\n", name, value);
    qc_print(vm, 0, line);
}

static int QC_PURE fielddefs(const qc_vm *vm) { return vm->num_fielddefs; }

void QC_SAFE qc_print_entity(qc_ctx *ctx, qc_entity e)
{
    qc_vm *vm = qc_ctx_vm(ctx);
    qc_word *fields = qc_entity_ptr(vm, e);
    if (!fields)
        return;
    print_header(ctx, e);
    int n = fielddefs(vm);
    for (int i = 0; i < n; i++) {
        int ofs, type;
        const char *name = printable(vm, i, &ofs, &type);
        if (!name)
            continue;
        int width = type == QC_TYPE_VECTOR ? 3 : 1;
        qc_word v[3] = { { 0 }, { 0 }, { 0 } };
        bool zero = true;
        for (int w = 0; w < width; w++) {
            v[w] = fields[ofs + w];
            zero = zero && v[w].i == 0;
        }
        if (!zero)
            print_field(ctx, name, type, v);
    }
}
