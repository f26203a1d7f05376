/* The interpreter loop, instantiated by qc_loop.c once with plain loads and stores (outside
 * transactions) and once with transactional ones (QC_LOAD/QC_STORE = _ITM_RU4/_ITM_WU4) for
 * the shared data: entity fields and shared globals. Everything else it touches (the
 * decoded code, the function table, this context's globals, frames and local stack) is
 * either immutable or private to the thread, and is read and written directly.
 *
 * Dispatch is a computed goto over decoded instructions; the operands are indexes into the
 * context's globals. The budget counts file statements (GATHER/SCATTER are free); budget_left
 * holds one more than the statements still allowed. */

enum qc_run_result QC_LOOP_NAME(qc_ctx *ctx, int exitdepth)
{
    static const void *const labels[QC_XOP_COUNT] = {
#define QC_LABEL(name) &&op_##name,
        QC_OPCODES(QC_LABEL)
#undef QC_LABEL
        &&op_GATHER1, &&op_GATHER3, &&op_SCATTER1, &&op_SCATTER3, &&op_END
    };
    static const void *const traced[QC_XOP_COUNT] = {
#define QC_TRACE_LABEL(name) &&trace,
        QC_OPCODES(QC_TRACE_LABEL)
#undef QC_TRACE_LABEL
        &&trace, &&trace, &&trace, &&trace, &&trace
    };
    qc_vm *const vm = ctx->vm;
    const qc_insn *const code = vm->code;
    qc_word *const g = ctx->g;
    qc_word *const ents = vm->entities;
    qc_word *const shared = vm->globals;
    const uint32_t entf = (uint32_t)vm->entity_fields;
    const uint32_t maxent = (uint32_t)vm->max_entities;
    const uint32_t entity_words = entf * maxent;
    const qc_function *const functions = vm->functions;
    const int32_t num_functions = vm->num_functions;
    const void *const *dispatch = ctx->trace ? traced : labels;
    uint32_t budget = ctx->budget_left;
    const qc_insn *in = code + ctx->pc;
    qc_error_kind kind;
    int32_t bad = 0;

#define DISPATCH() goto *dispatch[in->op]
#define COUNT()                                                                              \
    do {                                                                                     \
        if (__builtin_expect(--budget == 0, 0))                                              \
            goto runaway;                                                                    \
    } while (0)
#define NEXT()                                                                               \
    do {                                                                                     \
        in++;                                                                                \
        COUNT();                                                                             \
        DISPATCH();                                                                          \
    } while (0)
#define NEXT_FREE()                                                                          \
    do {                                                                                     \
        in++;                                                                                \
        DISPATCH();                                                                          \
    } while (0)
#define JUMP(target)                                                                         \
    do {                                                                                     \
        in = code + (target);                                                                \
        COUNT();                                                                             \
        DISPATCH();                                                                          \
    } while (0)
/* A shared global is stored only when the statement changes it. QuakeWorld's game stores the
 * same value again and again (PutClientInServer's modelindex_eyes and modelindex_player on
 * every respawn); in a transaction a store locks the word's 32-byte stripe until commit, and
 * every command that read a neighbouring global (intermission_running, read by every
 * PlayerPreThink) then aborts. Leaving memory as it is equals storing the value it holds; the
 * load keeps the word in the read set, so a concurrent change of it still conflicts. Not for
 * entity fields: there the load would put words a command only writes into its read set, and
 * a concurrent commit of such a word, harmless before, would become a failed validation. */
#define STORE_CHANGED(p, v)                                                                  \
    do {                                                                                     \
        uint32_t *p_ = (p), v_ = (v);                                                        \
        if (QC_LOAD(p_) != v_)                                                               \
            QC_STORE(p_, v_);                                                                \
    } while (0)
#define A (g + in->a)
#define B (g + in->b)
#define C (g + in->c)
#define ENTITY(e)                                                                            \
    do {                                                                                     \
        if (__builtin_expect((uint32_t)(e) >= maxent, 0)) {                                  \
            bad = (e);                                                                       \
            goto bad_entity;                                                                 \
        }                                                                                    \
    } while (0)
#define FIELD(f, width)                                                                      \
    do {                                                                                     \
        if (__builtin_expect((uint64_t)(uint32_t)(f) + (width) > entf, 0)) {                 \
            bad = (f);                                                                       \
            goto bad_field;                                                                  \
        }                                                                                    \
    } while (0)

    COUNT();
    DISPATCH();

op_DONE:
op_RETURN: {
    qc_word r0 = A[0], r1 = A[1], r2 = A[2];
    g[QC_OFS_RETURN] = r0;
    g[QC_OFS_RETURN + 1] = r1;
    g[QC_OFS_RETURN + 2] = r2;
    if (__builtin_expect(ctx->depth <= exitdepth, 0)) {
        kind = QC_ERR_STACK_UNDERFLOW;
        goto fail;
    }
    const qc_frame *fr = qc_frame_pop(ctx);
    if (ctx->depth == exitdepth) {
        ctx->budget_left = budget;
        ctx->pc = (int)(in - code);
        return QC_RUN_DONE;
    }
    JUMP(fr->return_pc);
}
op_MUL_F: C->f = A->f * B->f; NEXT();
op_MUL_V: C->f = A[0].f * B[0].f + A[1].f * B[1].f + A[2].f * B[2].f; NEXT();
op_MUL_FV: {
    float s = A->f;
    C[0].f = s * B[0].f;
    C[1].f = s * B[1].f;
    C[2].f = s * B[2].f;
    NEXT();
}
op_MUL_VF: {
    float s = B->f;
    C[0].f = s * A[0].f;
    C[1].f = s * A[1].f;
    C[2].f = s * A[2].f;
    NEXT();
}
op_DIV_F: C->f = A->f / B->f; NEXT();
op_ADD_F: C->f = A->f + B->f; NEXT();
op_ADD_V:
    C[0].f = A[0].f + B[0].f;
    C[1].f = A[1].f + B[1].f;
    C[2].f = A[2].f + B[2].f;
    NEXT();
op_SUB_F: C->f = A->f - B->f; NEXT();
op_SUB_V:
    C[0].f = A[0].f - B[0].f;
    C[1].f = A[1].f - B[1].f;
    C[2].f = A[2].f - B[2].f;
    NEXT();
op_EQ_F: C->f = A->f == B->f; NEXT();
op_EQ_V: C->f = A[0].f == B[0].f && A[1].f == B[1].f && A[2].f == B[2].f; NEXT();
op_EQ_S:
op_NE_S: {
    const char *sa = qc_string_get(vm, A->i), *sb = qc_string_get(vm, B->i);
    if (__builtin_expect(!sa || !sb, 0)) {
        bad = sa ? B->i : A->i;
        goto bad_string;
    }
    int same = A->i == B->i || strcmp(sa, sb) == 0;
    C->f = in->op == QC_OP_EQ_S ? same : !same;
    NEXT();
}
op_EQ_E:
op_EQ_FNC: C->f = A->i == B->i; NEXT();
op_NE_F: C->f = A->f != B->f; NEXT();
op_NE_V: C->f = A[0].f != B[0].f || A[1].f != B[1].f || A[2].f != B[2].f; NEXT();
op_NE_E:
op_NE_FNC: C->f = A->i != B->i; NEXT();
op_LE: C->f = A->f <= B->f; NEXT();
op_GE: C->f = A->f >= B->f; NEXT();
op_LT: C->f = A->f < B->f; NEXT();
op_GT: C->f = A->f > B->f; NEXT();
op_LOAD_F:
op_LOAD_S:
op_LOAD_ENT:
op_LOAD_FLD:
op_LOAD_FNC: {
    int32_t e = A->i, f = B->i;
    ENTITY(e);
    FIELD(f, 1);
    C->u = QC_LOAD(&ents[e * entf + (uint32_t)f].u);
    NEXT();
}
op_LOAD_V: {
    int32_t e = A->i, f = B->i;
    ENTITY(e);
    FIELD(f, 3);
    qc_word *p = &ents[e * entf + (uint32_t)f];
    uint32_t x = QC_LOAD(&p[0].u), y = QC_LOAD(&p[1].u), z = QC_LOAD(&p[2].u);
    C[0].u = x;
    C[1].u = y;
    C[2].u = z;
    NEXT();
}
op_ADDRESS: {
    int32_t e = A->i, f = B->i;
    ENTITY(e);
    FIELD(f, 1);
    if (__builtin_expect(e == 0 && vm->world_locked, 0)) {
        kind = QC_ERR_WORLD_WRITE;
        goto fail;
    }
    C->i = (int32_t)(e * entf + (uint32_t)f);
    NEXT();
}
op_STORE_F:
op_STORE_S:
op_STORE_ENT:
op_STORE_FLD:
op_STORE_FNC: *B = *A; NEXT();
op_STORE_V:
    B[0] = A[0];
    B[1] = A[1];
    B[2] = A[2];
    NEXT();
op_STOREP_F:
op_STOREP_S:
op_STOREP_ENT:
op_STOREP_FLD:
op_STOREP_FNC: {
    uint32_t p = B->u;
    if (__builtin_expect(p >= entity_words, 0)) {
        bad = B->i;
        goto bad_pointer;
    }
    QC_STORE(&ents[p].u, A->u);
    NEXT();
}
op_STOREP_V: {
    uint32_t p = B->u;
    if (__builtin_expect((uint64_t)p + 3 > entity_words, 0)) {
        bad = B->i;
        goto bad_pointer;
    }
    QC_STORE(&ents[p].u, A[0].u);
    QC_STORE(&ents[p + 1].u, A[1].u);
    QC_STORE(&ents[p + 2].u, A[2].u);
    NEXT();
}
op_NOT_F: C->f = !A->f; NEXT();
op_NOT_V: C->f = !A[0].f && !A[1].f && !A[2].f; NEXT();
op_NOT_S: {
    int32_t s = A->i;
    if (s == 0) {
        C->f = 1;
        NEXT();
    }
    const char *t = qc_string_get(vm, s);
    if (__builtin_expect(!t, 0)) {
        bad = s;
        goto bad_string;
    }
    C->f = !*t;
    NEXT();
}
op_NOT_ENT:
op_NOT_FNC: C->f = !A->i; NEXT();
op_IF:
    if (A->i)
        JUMP(in->b);
    NEXT();
op_IFNOT:
    if (!A->i)
        JUMP(in->b);
    NEXT();
op_GOTO: JUMP(in->a);
op_CALL0:
op_CALL1:
op_CALL2:
op_CALL3:
op_CALL4:
op_CALL5:
op_CALL6:
op_CALL7:
op_CALL8: {
    int32_t fnum = A->i;
    ctx->argc = in->op - QC_OP_CALL0;
    if (__builtin_expect(fnum <= 0 || fnum >= num_functions, 0)) {
        bad = fnum;
        kind = fnum == 0 ? QC_ERR_NULL_FUNCTION : QC_ERR_BAD_FUNCTION;
        goto fail;
    }
    const qc_function *fn = &functions[fnum];
    if (fn->first < 0) {
        int n = -fn->first;
        const struct qc_builtin_entry *b = &vm->builtins[n];
        ctx->pc = (int)(in - code);
        if (b->library) {
            ctx->budget_left = budget;
            if (b->library(ctx) != QC_OK)
                goto failed;
            budget = ctx->budget_left;
            dispatch = ctx->trace ? traced : labels;
            NEXT();
        }
        if (b->world) {
            ctx->budget_left = budget;
            ctx->pending_builtin = n;
            return QC_RUN_BUILTIN;
        }
        bad = fnum;
        kind = QC_ERR_NO_BUILTIN;
        goto fail;
    }
    int32_t here = (int32_t)(in - code);
    kind = qc_frame_push(ctx, fnum, here + 1, here);
    if (__builtin_expect(kind != QC_ERR_NONE, 0)) {
        bad = fnum;
        goto fail;
    }
    JUMP(fn->first);
}
op_STATE: {
    int32_t self = g[vm->sys.self].i;
    ENTITY(self);
    if (__builtin_expect(self == 0 && vm->world_locked, 0)) {
        kind = QC_ERR_WORLD_WRITE;
        goto fail;
    }
    qc_word *ed = &ents[self * entf];
    qc_word next;
    next.f = (float)((double)g[vm->sys.time].f + 0.1);
    QC_STORE(&ed[vm->sys.f_nextthink].u, next.u);
    qc_word frame;
    frame.u = QC_LOAD(&ed[vm->sys.f_frame].u);
    if (A->f != frame.f)
        QC_STORE(&ed[vm->sys.f_frame].u, A->u);
    QC_STORE(&ed[vm->sys.f_think].u, B->u);
    NEXT();
}
op_AND: C->f = A->f && B->f; NEXT();
op_OR: C->f = A->f || B->f; NEXT();
op_BITAND: C->f = (float)(qc_float_to_int(A->f) & qc_float_to_int(B->f)); NEXT();
op_BITOR: C->f = (float)(qc_float_to_int(A->f) | qc_float_to_int(B->f)); NEXT();
op_GATHER1: A->u = QC_LOAD(&shared[in->a].u); NEXT_FREE();
op_GATHER3:
    A[0].u = QC_LOAD(&shared[in->a].u);
    A[1].u = QC_LOAD(&shared[in->a + 1].u);
    A[2].u = QC_LOAD(&shared[in->a + 2].u);
    NEXT_FREE();
op_SCATTER1: STORE_CHANGED(&shared[in->a].u, A->u); NEXT_FREE();
op_SCATTER3:
    STORE_CHANGED(&shared[in->a].u, A[0].u);
    STORE_CHANGED(&shared[in->a + 1].u, A[1].u);
    STORE_CHANGED(&shared[in->a + 2].u, A[2].u);
    NEXT_FREE();
op_END:
    kind = QC_ERR_CODE_END;
    goto fail;
trace:
    qc_trace_insn(ctx, (int)(in - code));
    goto *labels[in->op];

runaway:
    ctx->pc = (int)(in - code);
    ctx->budget_left = 0;
    qc_raise(ctx, QC_ERR_RUNAWAY, "runaway loop: more than %u statements in one call",
             ctx->budget ? ctx->budget : vm->statement_budget);
    return QC_RUN_ERROR;
bad_entity:
    kind = QC_ERR_BAD_ENTITY;
    goto fail;
bad_field:
    kind = QC_ERR_FIELD_RANGE;
    goto fail;
bad_pointer:
    kind = QC_ERR_BAD_POINTER;
    goto fail;
bad_string:
    kind = QC_ERR_BAD_STRING;
fail:
    ctx->pc = (int)(in - code);
    ctx->budget_left = budget;
    qc_fail_value(ctx, kind, bad);
    return QC_RUN_ERROR;
failed: /* a library builtin recorded its error */
    ctx->pc = (int)(in - code);
    return QC_RUN_ERROR;

#undef DISPATCH
#undef COUNT
#undef NEXT
#undef NEXT_FREE
#undef JUMP
#undef STORE_CHANGED
#undef A
#undef B
#undef C
#undef ENTITY
#undef FIELD
}
