/* The library's own view of a vm and a context (not for the engine: it uses the headers
 * qc_vm.h, qc_ctx.h, qc_strings.h, qc_builtins.h). */
#ifndef QC_INTERNAL_H
#define QC_INTERNAL_H

#include "qc_builtins.h"
#include "qc_ctx.h"
#include "qc_strings.h"
#include "qc_vm.h"

/* Decoded operations: the 66 opcodes of the file, plus what decoding adds. */
enum qc_xop {
    QC_XOP_GATHER1 = QC_OP_COUNT, /* ctx copy of shared global a  <- shared (1 word) */
    QC_XOP_GATHER3,               /* the same for a vector */
    QC_XOP_SCATTER1,              /* shared global a <- ctx copy (1 word) */
    QC_XOP_SCATTER3,
    QC_XOP_END,                   /* past the last statement: an error */
    QC_XOP_COUNT
};

/* A decoded statement: operands are global offsets (read from the context's block), jump
 * targets absolute indexes into the decoded code. */
typedef struct qc_insn {
    uint16_t op;
    uint16_t unused;
    int32_t a, b, c;
} qc_insn;

typedef struct qc_function {
    int32_t first;      /* decoded index of the first instruction; -N for builtin N */
    int32_t parm_start; /* where parameters are copied, and the saved region starts */
    int32_t locals;     /* words saved and restored around each call */
    int32_t numparms;
    uint8_t parm_size[QC_MAX_PARMS];
    int32_t name, file; /* string table offsets */
    int32_t first_statement; /* as in the file */
} qc_function;

typedef struct qc_def {
    uint16_t type; /* without QC_DEF_SAVEGLOBAL */
    uint16_t ofs;
    int32_t name;
} qc_def;

/* Name -> index hash (open addressing over power-of-two slots; 0 = empty, else index+1). */
typedef struct qc_name_index {
    uint32_t mask;
    int32_t *slots;
} qc_name_index;

enum qc_percall_reason { QC_WHY_NONE, QC_WHY_RESERVED, QC_WHY_LOCALS, QC_WHY_TEMPORARY,
                         QC_WHY_SYSTEM, QC_WHY_CONFIGURED };

struct qc_builtin_entry {
    qc_builtin_fn world; /* the engine's (instrumented) */
    qc_builtin_loop_fn library; /* the library's own (uninstrumented) */
    const char *name, *help;
};

struct qc_vm {
    char name[256];
    struct qc_progs_info info;
    /* immutable program */
    qc_insn *code;            /* decoded, ends with QC_XOP_END */
    int32_t *code_statement;  /* decoded index -> statement number in the file */
    int num_code;
    qc_function *functions;
    int num_functions;
    qc_def *globaldefs, *fielddefs;
    int num_globaldefs, num_fielddefs;
    char *strings;
    int string_size;
    int num_globals, entity_fields;
    uint8_t *global_class;    /* qc_global_class per global */
    uint8_t *percall_reason;  /* enum qc_percall_reason per global */
    int *percall_system;      /* offsets of per-call system globals (reset from defaults) */
    int num_percall_system;
    qc_name_index function_index, field_index, global_index;
    struct qc_system_offsets sys;
    /* shared state */
    qc_word *globals;         /* shared globals, per-call defaults, constants */
    qc_word *initial_globals; /* the same as loaded from the file (qc_vm_restart) */
    qc_word *entities;        /* max_entities * entity_fields */
    int max_entities;
    int num_entities;
    bool world_locked;
    char *engine_strings;
    size_t engine_string_space;
    size_t engine_string_used; /* shared: instrumented in transactions */
    /* configuration */
    uint32_t statement_budget;
    int max_depth, local_stack_words;
    struct qc_builtin_entry builtins[QC_MAX_BUILTINS];
    qc_print_fn print;
    void *print_user;
    bool developer;
    /* contexts, by id (temporary strings of any context resolve through this) */
    qc_ctx **contexts;
    int max_contexts;
};

typedef struct qc_frame {
    int32_t function;   /* running function */
    int32_t return_pc;  /* decoded index to continue at in the caller (-1: back to engine) */
    int32_t call_pc;    /* the caller's CALL, for backtraces (-1: from the engine) */
    int32_t saved_base; /* where its saved locals start in the local stack */
} qc_frame;

struct qc_ctx {
    qc_vm *vm;
    int id;
    qc_word *g;              /* this context's globals: per-call, constants, mirrors */
    qc_frame *frames;        /* frames[0 .. depth-1] */
    int depth;
    qc_word *local_stack;
    int local_used;
    int pc;                  /* decoded index of the instruction running (for errors) */
    int argc;                /* parameters of the builtin call running */
    int builtin_depth;       /* builtins running on this context (nested calls inside) */
    int pending_builtin;     /* set by the loop when it leaves to run a world builtin */
    uint32_t budget, budget_left;
    uint64_t statements;     /* statements run (budget accounting) */
    bool trace;
    uint32_t rng;
    char *temp_strings;
    int temp_used;
    qc_error error;
    uint32_t *calls;         /* entries into each function (a restarted call counts again) */
};

/* The interpreter loop (qc_loop.c): runs from ctx->pc until the frame at exitdepth returns
 * (QC_RUN_DONE), a world builtin is due (QC_RUN_BUILTIN: ctx->pending_builtin, pc already
 * past the call) or an error was recorded (QC_RUN_ERROR). */
enum qc_run_result { QC_RUN_DONE, QC_RUN_BUILTIN, QC_RUN_ERROR };
enum qc_run_result qc_run_plain(qc_ctx *ctx, int exitdepth) QC_PURE;
#ifndef QC_WITHOUT_TM
enum qc_run_result qc_run_tm(qc_ctx *ctx, int exitdepth) QC_PURE;
#endif

/* Pops frames down to exitdepth, restoring each one's saved locals (qc_exec.c). */
void qc_unwind(qc_ctx *ctx, int exitdepth) QC_PURE;
/* Errors are recorded by qc_raise (qc_ctx.h: at the running instruction, with a backtrace),
 * the interpreter's own ones by this, whose message says what `value` was. */
void qc_fail_value(qc_ctx *ctx, qc_error_kind kind, int32_t value) QC_PURE;
void qc_print(const qc_vm *vm, int developer, const char *text) QC_PURE;
/* Tracing one instruction (traceon). */
void qc_trace_insn(qc_ctx *ctx, int pc) QC_PURE;

/* Name lookups (qc_lookup.c). */
bool qc_name_index_build(qc_name_index *ix, const qc_vm *vm, int count,
                         int32_t (*name_of)(const qc_vm *vm, int i));
void qc_name_index_free(qc_name_index *ix);
int qc_name_index_find(const qc_name_index *ix, const qc_vm *vm, const char *name,
                       int32_t (*name_of)(const qc_vm *vm, int i)) QC_PURE;
int32_t qc_function_name_of(const qc_vm *vm, int i) QC_PURE;
int32_t qc_field_name_of(const qc_vm *vm, int i) QC_PURE;
int32_t qc_global_name_of(const qc_vm *vm, int i) QC_PURE;

/* A load's or decode's error: "NAME: message" into err (nothing when err is NULL). */
void qc_say(char *err, size_t errlen, const char *name, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Decoding and classification (qc_decode.c): fills code, code_statement, global_class,
 * functions[].first; false with a message in err. */
#include "qc_raw.h"
/* Operand use per file opcode: words read through a/b, written through b/c, jump operands. */
struct qc_operand_use { uint8_t ra, rb, wb, wc; int8_t jump; /* 'a' or 'b' or 0 */ };
extern const struct qc_operand_use qc_operand_use[QC_OP_COUNT];
extern const char *const qc_opcode_names[QC_XOP_COUNT];

/* The library's builtins, one table per file (qc_builtins_math.c, qc_builtins_debug.c),
 * registered at load: NULL, or the entry refused (a number given twice). */
extern const struct qc_builtin_def qc_math_builtins[], qc_debug_builtins[];
const struct qc_builtin_def *qc_register_library_builtins(qc_vm *vm);

/* Entity text as the original engines print it (qc_print_entity.c). */
void qc_print_entity(qc_ctx *ctx, qc_entity e) QC_SAFE;

static inline int32_t qc_float_to_int(float f)
{
    return (f > -2147483648.0f && f < 2147483648.0f) ? (int32_t)f : INT32_MIN;
}

#endif
