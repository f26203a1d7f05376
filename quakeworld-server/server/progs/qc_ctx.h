/* Running QuakeC: one context per thread, calls from the engine, parameters, return value,
 * errors.
 *
 * A context holds everything a running call chain writes that no other thread needs: its
 * copy of the per-call globals (parameters, return, locals, temporaries, self, other, ...),
 * the call stack, the saved locals, its temporary strings and the error of the last call.
 * Create one per thread in the serial phase; only that thread uses it.
 *
 * In a transaction (the server's stm/stmlock modes) the interpreter reads the program and
 * the context without instrumentation and the shared globals and entity fields with
 * transactional loads and stores; outside one it uses plain accesses (lock modes). Each
 * atomic block that runs QuakeC starts with qc_ctx_reset(ctx): a restarted transaction then
 * begins from a clean context although the context's memory is not rolled back. */
#ifndef QC_CTX_H
#define QC_CTX_H

#include "qc_vm.h"

typedef enum qc_status { QC_OK = 0, QC_ERROR = 1 } qc_status;

typedef enum qc_error_kind {
    QC_ERR_NONE,
    QC_ERR_RUNAWAY,          /* the statement budget ran out ("runaway loop") */
    QC_ERR_BAD_ENTITY,       /* an entity number outside the entity slots */
    QC_ERR_FIELD_RANGE,      /* a field offset outside an entity */
    QC_ERR_BAD_POINTER,      /* a STOREP pointer outside the entity fields */
    QC_ERR_WORLD_WRITE,      /* writing to the world's fields after the map is spawned */
    QC_ERR_NULL_FUNCTION,    /* calling function 0 (an unset .think, a missing function) */
    QC_ERR_BAD_FUNCTION,     /* a function number outside the function table */
    QC_ERR_NO_BUILTIN,       /* a builtin number nobody registered */
    QC_ERR_STACK_OVERFLOW,   /* call depth or saved-locals stack exhausted */
    QC_ERR_STACK_UNDERFLOW,  /* returning with nothing to return to */
    QC_ERR_BAD_STRING,       /* a string value that is no string */
    QC_ERR_PROGRAM,          /* the error() builtin */
    QC_ERR_OBJECT,           /* the objerror() builtin: the engine removes self */
    QC_ERR_BREAK,            /* the break() builtin */
    QC_ERR_BUILTIN,          /* a builtin (the engine's) reported a failure */
    QC_ERR_CODE_END,         /* execution ran past the last statement */
    QC_ERR_KIND_COUNT
} qc_error_kind;

#define QC_ERROR_MESSAGE_MAX 256
#define QC_BACKTRACE_MAX 2048

typedef struct qc_error {
    qc_error_kind kind;
    char message[QC_ERROR_MESSAGE_MAX];   /* "runaway loop: more than 100000 statements" */
    char function[64];                    /* innermost QuakeC function */
    int statement;                        /* its statement number in the progs file */
    qc_entity self;                       /* self when it happened (objerror: to remove) */
    char backtrace[QC_BACKTRACE_MAX];     /* one line per frame, innermost first */
} qc_error;

/* A context for the calling thread. NULL when max_contexts are in use. Serial phase only. */
qc_ctx *qc_ctx_new(qc_vm *vm);
void qc_ctx_free(qc_ctx *ctx);
qc_vm *qc_ctx_vm(const qc_ctx *ctx) QC_PURE;

/* Start of an atomic block (or of any engine work that calls QuakeC): unwinds a call left
 * unfinished by a restarted transaction (restoring the locals it saved), forgets temporary
 * strings and the last error, and sets the per-call system globals to the vm's defaults. */
void qc_ctx_reset(qc_ctx *ctx) QC_PURE;

/* Calls function f. From the engine (nothing running on ctx) or from a builtin (a nested
 * call, as touch functions run from inside walkmove). QC_OK, or QC_ERROR with
 * qc_ctx_error(ctx) saying what and where: the call chain is then unwound (each function's
 * saved locals restored) and the caller decides (README: cancel the transaction). */
qc_status qc_call(qc_ctx *ctx, qc_func f) QC_SAFE;

const qc_error *qc_ctx_error(const qc_ctx *ctx) QC_PURE;
const char *qc_error_kind_name(qc_error_kind kind) QC_PURE;
/* For builtins: records an error (message formatted like printf) and returns QC_ERROR, which
 * the builtin returns. */
qc_status qc_raise(qc_ctx *ctx, qc_error_kind kind, const char *fmt, ...) QC_PURE
    __attribute__((format(printf, 3, 4)));

/* How many times QuakeC function f was entered on this context (for coverage: which
 * functions a game reaches; a call restarted with its transaction counts again; builtins are
 * not entered). */
uint32_t qc_ctx_function_calls(const qc_ctx *ctx, qc_func f) QC_PURE;

/* Statements a call may run (0 = the vm's budget); how many the last calls ran. */
void qc_ctx_set_budget(qc_ctx *ctx, uint32_t statements) QC_PURE;
uint64_t qc_ctx_statements(const qc_ctx *ctx) QC_PURE;
/* Seeds random() of this context (each context has its own generator). */
void qc_ctx_seed(qc_ctx *ctx, uint32_t seed) QC_PURE;

/* ---- Parameters and return value (this context's copy; no instrumentation) ------------- */
void qc_set_parm_float(qc_ctx *ctx, int i, float v) QC_PURE;
void qc_set_parm_int(qc_ctx *ctx, int i, int32_t v) QC_PURE; /* entity, string, function */
void qc_set_parm_vector(qc_ctx *ctx, int i, const float v[3]) QC_PURE;
float qc_parm_float(const qc_ctx *ctx, int i) QC_PURE;
int32_t qc_parm_int(const qc_ctx *ctx, int i) QC_PURE;
void qc_parm_vector(const qc_ctx *ctx, int i, float out[3]) QC_PURE;
int qc_argc(const qc_ctx *ctx) QC_PURE; /* parameters of the builtin call running */
float qc_return_float(const qc_ctx *ctx) QC_PURE;
int32_t qc_return_int(const qc_ctx *ctx) QC_PURE;
void qc_return_vector(const qc_ctx *ctx, float out[3]) QC_PURE;
void qc_set_return_float(qc_ctx *ctx, float v) QC_PURE;
void qc_set_return_int(qc_ctx *ctx, int32_t v) QC_PURE;
void qc_set_return_vector(qc_ctx *ctx, const float v[3]) QC_PURE;

/* ---- Per-call globals (self, other, time, trace_*, ...) of this context ----------------
 * false (and nothing written) when ofs is not a PER_CALL global. Shared globals are reached
 * through qc_vm_global. */
bool qc_ctx_set_int(qc_ctx *ctx, int ofs, int32_t v) QC_PURE;
bool qc_ctx_set_float(qc_ctx *ctx, int ofs, float v) QC_PURE;
bool qc_ctx_set_vector(qc_ctx *ctx, int ofs, const float v[3]) QC_PURE;
int32_t qc_ctx_get_int(const qc_ctx *ctx, int ofs) QC_PURE;   /* 0 when not PER_CALL */
float qc_ctx_get_float(const qc_ctx *ctx, int ofs) QC_PURE;
void qc_ctx_get_vector(const qc_ctx *ctx, int ofs, float out[3]) QC_PURE;

#endif
