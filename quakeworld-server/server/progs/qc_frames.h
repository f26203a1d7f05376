/* Entering and leaving a QuakeC function, shared by the interpreter loop and the engine's
 * calls (qc_exec.c). As the original engines: entering saves the function's saved region
 * (parm_start .. parm_start + locals) on the context's local stack, then copies the
 * parameters from the parameter slots into it; leaving restores the region. */
#ifndef QC_FRAMES_H
#define QC_FRAMES_H

#include "qc_internal.h"

/* Returns 0, or the error kind (nothing changed then). */
static inline qc_error_kind qc_frame_push(qc_ctx *ctx, int32_t fnum, int32_t return_pc,
                                          int32_t call_pc)
{
    const qc_vm *vm = ctx->vm;
    const qc_function *fn = &vm->functions[fnum];
    if (__builtin_expect(ctx->depth >= vm->max_depth, 0))
        return QC_ERR_STACK_OVERFLOW;
    int used = ctx->local_used;
    if (__builtin_expect(used + fn->locals > vm->local_stack_words, 0))
        return QC_ERR_STACK_OVERFLOW;
    ctx->calls[fnum]++;
    qc_frame *fr = &ctx->frames[ctx->depth++];
    fr->function = fnum;
    fr->return_pc = return_pc;
    fr->call_pc = call_pc;
    fr->saved_base = used;
    qc_word *g = ctx->g;
    qc_word *save = ctx->local_stack + used;
    const qc_word *region = g + fn->parm_start;
    for (int i = 0; i < fn->locals; i++) /* a few words: a loop beats a call to memcpy */
        save[i] = region[i];
    ctx->local_used = used + fn->locals;
    qc_word *to = g + fn->parm_start;
    for (int i = 0; i < fn->numparms; i++) {
        const qc_word *from = g + QC_OFS_PARM0 + 3 * i;
        for (int j = 0; j < fn->parm_size[i]; j++)
            *to++ = from[j];
    }
    return QC_ERR_NONE;
}

/* Pops the innermost frame, restoring what it saved; returns it. */
static inline const qc_frame *qc_frame_pop(qc_ctx *ctx)
{
    const qc_frame *fr = &ctx->frames[--ctx->depth];
    const qc_function *fn = &ctx->vm->functions[fr->function];
    ctx->local_used = fr->saved_base;
    qc_word *region = ctx->g + fn->parm_start;
    const qc_word *saved = ctx->local_stack + fr->saved_base;
    for (int i = 0; i < fn->locals; i++)
        region[i] = saved[i];
    return fr;
}

#endif
