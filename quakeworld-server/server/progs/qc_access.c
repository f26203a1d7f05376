/* The engine's view of a context's values (parameters, return value, per-call globals) and
 * of the vm's storage (shared globals, entities), plus the output hook. The context
 * accessors are transaction_pure: the context is the calling thread's own. */
#include <stdio.h>
#include <string.h>

#include "qc_internal.h"

static qc_word *parm(const qc_ctx *ctx, int i)
{
    return ctx->g + QC_OFS_PARM0 + 3 * (i & 7);
}

void qc_set_parm_float(qc_ctx *ctx, int i, float v) { parm(ctx, i)->f = v; }
void qc_set_parm_int(qc_ctx *ctx, int i, int32_t v) { parm(ctx, i)->i = v; }
void qc_set_parm_vector(qc_ctx *ctx, int i, const float v[3])
{
    qc_word *p = parm(ctx, i);
    p[0].f = v[0];
    p[1].f = v[1];
    p[2].f = v[2];
}
float qc_parm_float(const qc_ctx *ctx, int i) { return parm(ctx, i)->f; }
int32_t qc_parm_int(const qc_ctx *ctx, int i) { return parm(ctx, i)->i; }
void qc_parm_vector(const qc_ctx *ctx, int i, float out[3])
{
    const qc_word *p = parm(ctx, i);
    out[0] = p[0].f;
    out[1] = p[1].f;
    out[2] = p[2].f;
}
int qc_argc(const qc_ctx *ctx) { return ctx->argc; }

float qc_return_float(const qc_ctx *ctx) { return ctx->g[QC_OFS_RETURN].f; }
int32_t qc_return_int(const qc_ctx *ctx) { return ctx->g[QC_OFS_RETURN].i; }
void qc_return_vector(const qc_ctx *ctx, float out[3])
{
    for (int k = 0; k < 3; k++)
        out[k] = ctx->g[QC_OFS_RETURN + k].f;
}
void qc_set_return_float(qc_ctx *ctx, float v) { ctx->g[QC_OFS_RETURN].f = v; }
void qc_set_return_int(qc_ctx *ctx, int32_t v) { ctx->g[QC_OFS_RETURN].i = v; }
void qc_set_return_vector(qc_ctx *ctx, const float v[3])
{
    for (int k = 0; k < 3; k++)
        ctx->g[QC_OFS_RETURN + k].f = v[k];
}

static bool per_call(const qc_ctx *ctx, int ofs, int width)
{
    const qc_vm *vm = ctx->vm;
    if (ofs < 0 || ofs + width > vm->num_globals)
        return false;
    for (int w = 0; w < width; w++)
        if (vm->global_class[ofs + w] != QC_GLOBAL_PER_CALL)
            return false;
    return true;
}

bool qc_ctx_set_int(qc_ctx *ctx, int ofs, int32_t v)
{
    if (!per_call(ctx, ofs, 1))
        return false;
    ctx->g[ofs].i = v;
    return true;
}

bool qc_ctx_set_float(qc_ctx *ctx, int ofs, float v)
{
    if (!per_call(ctx, ofs, 1))
        return false;
    ctx->g[ofs].f = v;
    return true;
}

bool qc_ctx_set_vector(qc_ctx *ctx, int ofs, const float v[3])
{
    if (!per_call(ctx, ofs, 3))
        return false;
    for (int k = 0; k < 3; k++)
        ctx->g[ofs + k].f = v[k];
    return true;
}

int32_t qc_ctx_get_int(const qc_ctx *ctx, int ofs)
{
    return per_call(ctx, ofs, 1) ? ctx->g[ofs].i : 0;
}

float qc_ctx_get_float(const qc_ctx *ctx, int ofs)
{
    return per_call(ctx, ofs, 1) ? ctx->g[ofs].f : 0;
}

void qc_ctx_get_vector(const qc_ctx *ctx, int ofs, float out[3])
{
    bool ok = per_call(ctx, ofs, 3);
    for (int k = 0; k < 3; k++)
        out[k] = ok ? ctx->g[ofs + k].f : 0;
}

qc_word *qc_vm_global(qc_vm *vm, int ofs)
{
    return ofs >= 0 && ofs < vm->num_globals ? &vm->globals[ofs] : NULL;
}

int qc_num_globals(const qc_vm *vm) { return vm->num_globals; }
const struct qc_system_offsets *qc_vm_system(const qc_vm *vm) { return &vm->sys; }

qc_word *qc_entity_ptr(qc_vm *vm, qc_entity e)
{
    if (e < 0 || e >= vm->max_entities)
        return NULL;
    return vm->entities + (size_t)e * (size_t)vm->entity_fields;
}

int qc_entity_fields(const qc_vm *vm) { return vm->entity_fields; }
int qc_max_entities(const qc_vm *vm) { return vm->max_entities; }
void qc_vm_lock_world(qc_vm *vm, bool locked) { vm->world_locked = locked; }

void qc_vm_set_num_entities(qc_vm *vm, int n)
{
    vm->num_entities = n < 0 ? 0 : n > vm->max_entities ? vm->max_entities : n;
}

void qc_vm_set_print(qc_vm *vm, qc_print_fn fn, void *user)
{
    vm->print = fn;
    vm->print_user = user;
}

void qc_vm_set_developer(qc_vm *vm, bool on) { vm->developer = on; }

void qc_print(const qc_vm *vm, int developer, const char *text)
{
    if (vm->print) {
        vm->print(vm->print_user, developer, text);
        return;
    }
    if (developer && !vm->developer)
        return;
    fputs(text, stderr);
}

void qc_trace_insn(qc_ctx *ctx, int pc)
{
    const qc_vm *vm = ctx->vm;
    const qc_insn *in = &vm->code[pc];
    char line[160];
    const char *fname = ctx->depth > 0 ?
        vm->strings + vm->functions[ctx->frames[ctx->depth - 1].function].name : "?";
    snprintf(line, sizeof line, "%s statement %d: %s %d %d %d\n", fname,
             vm->code_statement[pc], qc_opcode_names[in->op], in->a, in->b, in->c);
    qc_print(vm, 0, line);
}
