/* Checking and decoding the statements, and classifying the globals (README.md, "Globals").
 *
 * Decoding turns each statement into one instruction whose operands index the running
 * context's block of globals. A statement that reads a SHARED global is preceded by a GATHER
 * (copy the shared value into the context's block, with a transactional load in a
 * transaction) and one that writes a SHARED global is followed by a SCATTER (copy it back,
 * with a transactional store). So the interpreter's operations never ask where an operand
 * lives. Jump targets and function entry points are remapped to the decoded positions. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qc_internal.h"

#define R1 1
#define R3 3
/* words read through a and b, written through b and c, which operand is a jump offset */
#define USE(ra, rb, wb, wc, jump) { ra, rb, wb, wc, jump }
const struct qc_operand_use qc_operand_use[QC_OP_COUNT] = {
    [QC_OP_DONE] = USE(R3, 0, 0, 0, 0),
    [QC_OP_MUL_F] = USE(R1, R1, 0, 1, 0),
    [QC_OP_MUL_V] = USE(R3, R3, 0, 1, 0),
    [QC_OP_MUL_FV] = USE(R1, R3, 0, 3, 0),
    [QC_OP_MUL_VF] = USE(R3, R1, 0, 3, 0),
    [QC_OP_DIV_F] = USE(R1, R1, 0, 1, 0),
    [QC_OP_ADD_F] = USE(R1, R1, 0, 1, 0),
    [QC_OP_ADD_V] = USE(R3, R3, 0, 3, 0),
    [QC_OP_SUB_F] = USE(R1, R1, 0, 1, 0),
    [QC_OP_SUB_V] = USE(R3, R3, 0, 3, 0),
    [QC_OP_EQ_F] = USE(R1, R1, 0, 1, 0),
    [QC_OP_EQ_V] = USE(R3, R3, 0, 1, 0),
    [QC_OP_EQ_S] = USE(R1, R1, 0, 1, 0),
    [QC_OP_EQ_E] = USE(R1, R1, 0, 1, 0),
    [QC_OP_EQ_FNC] = USE(R1, R1, 0, 1, 0),
    [QC_OP_NE_F] = USE(R1, R1, 0, 1, 0),
    [QC_OP_NE_V] = USE(R3, R3, 0, 1, 0),
    [QC_OP_NE_S] = USE(R1, R1, 0, 1, 0),
    [QC_OP_NE_E] = USE(R1, R1, 0, 1, 0),
    [QC_OP_NE_FNC] = USE(R1, R1, 0, 1, 0),
    [QC_OP_LE] = USE(R1, R1, 0, 1, 0),
    [QC_OP_GE] = USE(R1, R1, 0, 1, 0),
    [QC_OP_LT] = USE(R1, R1, 0, 1, 0),
    [QC_OP_GT] = USE(R1, R1, 0, 1, 0),
    [QC_OP_LOAD_F] = USE(R1, R1, 0, 1, 0),
    [QC_OP_LOAD_V] = USE(R1, R1, 0, 3, 0),
    [QC_OP_LOAD_S] = USE(R1, R1, 0, 1, 0),
    [QC_OP_LOAD_ENT] = USE(R1, R1, 0, 1, 0),
    [QC_OP_LOAD_FLD] = USE(R1, R1, 0, 1, 0),
    [QC_OP_LOAD_FNC] = USE(R1, R1, 0, 1, 0),
    [QC_OP_ADDRESS] = USE(R1, R1, 0, 1, 0),
    [QC_OP_STORE_F] = USE(R1, 0, 1, 0, 0),
    [QC_OP_STORE_V] = USE(R3, 0, 3, 0, 0),
    [QC_OP_STORE_S] = USE(R1, 0, 1, 0, 0),
    [QC_OP_STORE_ENT] = USE(R1, 0, 1, 0, 0),
    [QC_OP_STORE_FLD] = USE(R1, 0, 1, 0, 0),
    [QC_OP_STORE_FNC] = USE(R1, 0, 1, 0, 0),
    [QC_OP_STOREP_F] = USE(R1, R1, 0, 0, 0),
    [QC_OP_STOREP_V] = USE(R3, R1, 0, 0, 0),
    [QC_OP_STOREP_S] = USE(R1, R1, 0, 0, 0),
    [QC_OP_STOREP_ENT] = USE(R1, R1, 0, 0, 0),
    [QC_OP_STOREP_FLD] = USE(R1, R1, 0, 0, 0),
    [QC_OP_STOREP_FNC] = USE(R1, R1, 0, 0, 0),
    [QC_OP_RETURN] = USE(R3, 0, 0, 0, 0),
    [QC_OP_NOT_F] = USE(R1, 0, 0, 1, 0),
    [QC_OP_NOT_V] = USE(R3, 0, 0, 1, 0),
    [QC_OP_NOT_S] = USE(R1, 0, 0, 1, 0),
    [QC_OP_NOT_ENT] = USE(R1, 0, 0, 1, 0),
    [QC_OP_NOT_FNC] = USE(R1, 0, 0, 1, 0),
    [QC_OP_IF] = USE(R1, 0, 0, 0, 'b'),
    [QC_OP_IFNOT] = USE(R1, 0, 0, 0, 'b'),
    [QC_OP_CALL0] = USE(R1, 0, 0, 0, 0),
    [QC_OP_CALL1] = USE(R1, 0, 0, 0, 0),
    [QC_OP_CALL2] = USE(R1, 0, 0, 0, 0),
    [QC_OP_CALL3] = USE(R1, 0, 0, 0, 0),
    [QC_OP_CALL4] = USE(R1, 0, 0, 0, 0),
    [QC_OP_CALL5] = USE(R1, 0, 0, 0, 0),
    [QC_OP_CALL6] = USE(R1, 0, 0, 0, 0),
    [QC_OP_CALL7] = USE(R1, 0, 0, 0, 0),
    [QC_OP_CALL8] = USE(R1, 0, 0, 0, 0),
    [QC_OP_STATE] = USE(R1, R1, 0, 0, 0),
    [QC_OP_GOTO] = USE(0, 0, 0, 0, 'a'),
    [QC_OP_AND] = USE(R1, R1, 0, 1, 0),
    [QC_OP_OR] = USE(R1, R1, 0, 1, 0),
    [QC_OP_BITAND] = USE(R1, R1, 0, 1, 0),
    [QC_OP_BITOR] = USE(R1, R1, 0, 1, 0),
};

const char *const qc_opcode_names[QC_XOP_COUNT] = {
#define QC_OPCODE_NAME(name) #name,
    QC_OPCODES(QC_OPCODE_NAME)
#undef QC_OPCODE_NAME
    "GATHER1", "GATHER3", "SCATTER1", "SCATTER3", "END"
};

/* The system globals (defs.qc's part before end_sys_globals) that the engine sets for each
 * call, or that builtins set during one: each context has its own (README.md argues each). */
static const char *const per_call_system[] = {
    "self", "other", "time", "frametime", "newmis", "msg_entity",
    "parm1", "parm2", "parm3", "parm4", "parm5", "parm6", "parm7", "parm8", "parm9", "parm10",
    "parm11", "parm12", "parm13", "parm14", "parm15", "parm16",
    "v_forward", "v_up", "v_right",
    "trace_allsolid", "trace_startsolid", "trace_fraction", "trace_endpos",
    "trace_plane_normal", "trace_plane_dist", "trace_ent", "trace_inopen", "trace_inwater",
    NULL
};
/* System globals the engine writes in the serial phase or reads across calls: shared even
 * when no statement writes them. */
static const char *const shared_system[] = {
    "force_retouch", "mapname", "serverflags", "total_secrets", "total_monsters",
    "found_secrets", "killed_monsters", NULL
};

static int operand(const qc_raw_statement *s, char which)
{
    return which == 'a' ? (uint16_t)s->a : which == 'b' ? (uint16_t)s->b : (uint16_t)s->c;
}

static bool check_statements(const qc_vm *vm, const qc_raw_statement *raw, int nst, char *err,
                             size_t errlen)
{
    for (int i = 0; i < nst; i++) {
        const qc_raw_statement *s = &raw[i];
        if (s->op >= QC_OP_COUNT) {
            qc_say(err, errlen, vm->name, "statement %d: unknown opcode %u (version 6 has "
                   "0..%d)", i, s->op, QC_OP_COUNT - 1);
            return false;
        }
        const struct qc_operand_use *u = &qc_operand_use[s->op];
        struct { char name; int width; } uses[3] = { { 'a', u->ra }, { 'b', u->rb | u->wb },
                                                      { 'c', u->wc } };
        for (int k = 0; k < 3; k++) {
            if (!uses[k].width)
                continue;
            int ofs = operand(s, uses[k].name);
            if (ofs + uses[k].width > vm->num_globals) {
                qc_say(err, errlen, vm->name, "statement %d (%s): operand %c = %d (%d words) "
                       "outside the %d globals", i, qc_opcode_names[s->op], uses[k].name, ofs,
                       uses[k].width, vm->num_globals);
                return false;
            }
        }
        if (u->jump) {
            int32_t target = i + (u->jump == 'a' ? s->a : s->b);
            if (target < 0 || target >= nst) {
                qc_say(err, errlen, vm->name, "statement %d (%s): jump to %d, outside the %d "
                       "statements", i, qc_opcode_names[s->op], target, nst);
                return false;
            }
        }
    }
    return true;
}

static void mark_names(const qc_vm *vm, const char *const *names, uint8_t *class,
                       uint8_t *reason, int cls, int why)
{
    for (int n = 0; names && names[n]; n++) {
        int ofs = qc_find_global(vm, names[n], QC_TYPE_VOID);
        if (ofs < 0)
            continue;
        int i = qc_name_index_find(&vm->global_index, vm, names[n], qc_global_name_of);
        int width = vm->globaldefs[i].type == QC_TYPE_VECTOR ? 3 : 1;
        for (int w = 0; w < width; w++) {
            class[ofs + w] = (uint8_t)cls;
            reason[ofs + w] = (uint8_t)why;
        }
    }
}

static bool classify(qc_vm *vm, const qc_raw_statement *raw, int nst,
                     const qc_load_options *opt)
{
    int n = vm->num_globals;
    uint8_t *class = vm->global_class = malloc((size_t)n);
    uint8_t *reason = vm->percall_reason = calloc((size_t)n, 1);
    uint8_t *named = calloc((size_t)n, 1);
    if (!class || !reason || !named) {
        free(named);
        return false;
    }
    memset(class, QC_GLOBAL_CONSTANT, (size_t)n);
    for (int i = 0; i < QC_OFS_RESERVED; i++) {
        class[i] = QC_GLOBAL_PER_CALL;
        reason[i] = QC_WHY_RESERVED;
    }
    /* Each function's parameters and saved locals (some compilers count the parameters of
     * a function prototyped earlier outside its locals: both are the function's own). */
    for (int f = 1; f < vm->num_functions; f++) {
        const qc_function *fn = &vm->functions[f];
        if (fn->first_statement < 0)
            continue;
        int words = fn->locals;
        int parm_words = 0;
        for (int j = 0; j < fn->numparms; j++)
            parm_words += fn->parm_size[j];
        if (parm_words > words)
            words = parm_words;
        for (int i = fn->parm_start; i < fn->parm_start + words && i < n; i++) {
            class[i] = QC_GLOBAL_PER_CALL;
            reason[i] = QC_WHY_LOCALS;
        }
    }
    for (int d = 0; d < vm->num_globaldefs; d++) {
        const qc_def *def = &vm->globaldefs[d];
        if (!vm->strings[def->name])
            continue;
        int width = def->type == QC_TYPE_VECTOR ? 3 : 1;
        for (int w = 0; w < width && def->ofs + w < n; w++)
            named[def->ofs + w] = 1;
    }
    /* Written by a statement: a named global is game state; an unnamed one is a compiler
     * temporary, live only inside one function's execution. */
    for (int s = 0; s < nst; s++) {
        const struct qc_operand_use *u = &qc_operand_use[raw[s].op];
        int ofs = u->wb ? (uint16_t)raw[s].b : (uint16_t)raw[s].c;
        int width = u->wb ? u->wb : u->wc;
        for (int w = 0; w < width; w++) {
            int g = ofs + w;
            if (class[g] == QC_GLOBAL_PER_CALL)
                continue;
            if (named[g]) {
                class[g] = QC_GLOBAL_SHARED;
            } else {
                class[g] = QC_GLOBAL_PER_CALL;
                reason[g] = QC_WHY_TEMPORARY;
            }
        }
    }
    free(named);
    mark_names(vm, shared_system, class, reason, QC_GLOBAL_SHARED, QC_WHY_NONE);
    mark_names(vm, per_call_system, class, reason, QC_GLOBAL_PER_CALL, QC_WHY_SYSTEM);
    mark_names(vm, opt->per_call_globals, class, reason, QC_GLOBAL_PER_CALL, QC_WHY_CONFIGURED);
    for (int i = 0; i < n; i++)
        if (class[i] != QC_GLOBAL_PER_CALL)
            reason[i] = QC_WHY_NONE;

    /* The per-call system globals qc_ctx_reset sets from the defaults. */
    vm->percall_system = malloc(sizeof(int) * ((size_t)n + 1));
    if (!vm->percall_system)
        return false;
    for (int i = 0; i < n; i++)
        if (reason[i] == QC_WHY_SYSTEM || reason[i] == QC_WHY_CONFIGURED)
            vm->percall_system[vm->num_percall_system++] = i;
    for (int i = 0; i < n; i++) {
        if (class[i] == QC_GLOBAL_PER_CALL)
            vm->info.globals_per_call++;
        else if (class[i] == QC_GLOBAL_SHARED)
            vm->info.globals_shared++;
        else
            vm->info.globals_constant++;
    }
    return true;
}

/* Appends GATHER/SCATTER instructions for the SHARED words of operand [ofs, ofs+width). */
static int emit_moves(const qc_vm *vm, qc_insn *out, int at, int ofs, int width, bool gather,
                      int statement)
{
    int emitted = 0;
    bool all = width == 3;
    for (int w = 0; w < width; w++)
        all = all && vm->global_class[ofs + w] == QC_GLOBAL_SHARED;
    if (all) {
        if (out) {
            out[at] = (qc_insn){ .op = gather ? QC_XOP_GATHER3 : QC_XOP_SCATTER3, .a = ofs };
            vm->code_statement[at] = statement;
        }
        return 1;
    }
    for (int w = 0; w < width; w++) {
        if (vm->global_class[ofs + w] != QC_GLOBAL_SHARED)
            continue;
        if (out) {
            out[at + emitted] = (qc_insn){ .op = gather ? QC_XOP_GATHER1 : QC_XOP_SCATTER1,
                                           .a = ofs + w };
            vm->code_statement[at + emitted] = statement;
        }
        emitted++;
    }
    return emitted;
}

/* Emits statement s at `at` (out NULL: only counts). Returns the instructions it takes. */
static int emit(const qc_vm *vm, const qc_raw_statement *raw, int s, const int32_t *map,
                qc_insn *out, int at)
{
    const qc_raw_statement *st = &raw[s];
    const struct qc_operand_use *u = &qc_operand_use[st->op];
    int n = 0;
    if (u->ra)
        n += emit_moves(vm, out, at + n, (uint16_t)st->a, u->ra, true, s);
    if (u->rb)
        n += emit_moves(vm, out, at + n, (uint16_t)st->b, u->rb, true, s);
    if (out) {
        qc_insn *in = &out[at + n];
        *in = (qc_insn){ .op = st->op, .a = (uint16_t)st->a, .b = (uint16_t)st->b,
                         .c = (uint16_t)st->c };
        if (u->jump == 'a')
            in->a = map[s + st->a];
        else if (u->jump == 'b')
            in->b = map[s + st->b];
        vm->code_statement[at + n] = s;
    }
    n++;
    if (u->wb)
        n += emit_moves(vm, out, at + n, (uint16_t)st->b, u->wb, false, s);
    if (u->wc)
        n += emit_moves(vm, out, at + n, (uint16_t)st->c, u->wc, false, s);
    return n;
}

static void find_system(qc_vm *vm)
{
    struct qc_system_offsets *o = &vm->sys;
#define G(field) o->field = qc_find_global(vm, #field, QC_TYPE_VOID)
    G(self); G(other); G(world); G(time); G(frametime); G(newmis); G(force_retouch);
    G(mapname); G(serverflags); G(total_secrets); G(total_monsters); G(found_secrets);
    G(killed_monsters); G(parm1); G(v_forward); G(v_up); G(v_right); G(trace_allsolid);
    G(trace_startsolid); G(trace_fraction); G(trace_endpos); G(trace_plane_normal);
    G(trace_plane_dist); G(trace_ent); G(trace_inopen); G(trace_inwater); G(msg_entity);
#undef G
    o->f_frame = qc_find_field(vm, "frame", QC_TYPE_FLOAT);
    o->f_think = qc_find_field(vm, "think", QC_TYPE_FUNCTION);
    o->f_nextthink = qc_find_field(vm, "nextthink", QC_TYPE_FLOAT);
    o->f_classname = qc_find_field(vm, "classname", QC_TYPE_STRING);
}

bool qc_decode(qc_vm *vm, const qc_raw_statement *raw, int nst, const qc_load_options *opt,
               char *err, size_t errlen)
{
    if (!check_statements(vm, raw, nst, err, errlen))
        return false;
    find_system(vm);
    bool has_state = false;
    for (int s = 0; s < nst; s++)
        has_state = has_state || raw[s].op == QC_OP_STATE;
    if (has_state && (vm->sys.self < 0 || vm->sys.time < 0 || vm->sys.f_frame < 0 ||
                      vm->sys.f_think < 0 || vm->sys.f_nextthink < 0)) {
        qc_say(err, errlen, vm->name, "uses STATE but lacks one of the globals self, time or "
               "the fields .frame, .think, .nextthink it needs");
        return false;
    }
    if (!classify(vm, raw, nst, opt)) {
        qc_say(err, errlen, vm->name, "out of memory");
        return false;
    }
    int32_t *map = malloc(sizeof *map * ((size_t)nst + 1));
    if (!map) {
        qc_say(err, errlen, vm->name, "out of memory");
        return false;
    }
    int total = 0;
    for (int s = 0; s < nst; s++) {
        map[s] = total;
        total += emit(vm, raw, s, NULL, NULL, 0);
    }
    map[nst] = total;
    vm->num_code = total + 1;
    vm->code = calloc((size_t)vm->num_code, sizeof *vm->code);
    vm->code_statement = calloc((size_t)vm->num_code, sizeof *vm->code_statement);
    if (!vm->code || !vm->code_statement) {
        free(map);
        qc_say(err, errlen, vm->name, "out of memory");
        return false;
    }
    for (int s = 0; s < nst; s++)
        emit(vm, raw, s, map, vm->code, map[s]);
    vm->code[total] = (qc_insn){ .op = QC_XOP_END };
    vm->code_statement[total] = nst;
    for (int f = 0; f < vm->num_functions; f++) {
        qc_function *fn = &vm->functions[f];
        fn->first = fn->first_statement >= 0 ? map[fn->first_statement < nst ?
                                                    fn->first_statement : nst]
                                             : fn->first_statement;
    }
    free(map);
    vm->info.decoded_instructions = total;
    return true;
}

qc_global_class qc_global_class_of(const qc_vm *vm, int ofs)
{
    if (ofs < 0 || ofs >= vm->num_globals)
        return QC_GLOBAL_CONSTANT;
    return (qc_global_class)vm->global_class[ofs];
}

const char *qc_global_class_name(qc_global_class c)
{
    return c == QC_GLOBAL_PER_CALL ? "per-call" : c == QC_GLOBAL_SHARED ? "shared" : "constant";
}

const char *qc_global_class_reason(const qc_vm *vm, int ofs)
{
    static const char *const why[] = { "", "reserved", "locals", "temporary", "system",
                                       "configured" };
    if (ofs < 0 || ofs >= vm->num_globals)
        return "";
    return why[vm->percall_reason[ofs]];
}
