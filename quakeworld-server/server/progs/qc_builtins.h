/* The builtin table: QuakeC functions whose first statement is -N are builtin number N.
 *
 * The library implements every builtin of QuakeWorld's defs.qc that needs no world (math,
 * strings, debug output, error/objerror/break); they are registered when a vm is loaded.
 * The server registers the world builtins (qc_world_builtins below lists what each must
 * do) with qc_builtin_register. A builtin reads its parameters with qc_parm_* and writes its
 * result with qc_set_return_* (qc_ctx.h); it returns QC_OK, or the QC_ERROR of qc_raise. */
#ifndef QC_BUILTINS_H
#define QC_BUILTINS_H

#include "qc_ctx.h"

#define QC_MAX_BUILTINS 512 /* builtin numbers 1..511 */

/* A world builtin runs instrumented inside the caller's transaction (so it must be
 * transaction_safe) and may call qc_call for nested QuakeC (touch functions). */
#ifdef QC_WITHOUT_TM
typedef qc_status (*qc_builtin_fn)(qc_ctx *ctx);
#else
typedef qc_status (*qc_builtin_fn)(qc_ctx *ctx) __attribute__((transaction_safe));
#endif

/* Registers builtin number (1..QC_MAX_BUILTINS-1). Returns 0, or -1 when the number is out of
 * range or already taken (by the library or an earlier registration). Serial phase only. */
int qc_builtin_register(qc_vm *vm, int number, const char *name, qc_builtin_fn fn);
bool qc_builtin_implemented(const qc_vm *vm, int number) QC_PURE;
/* Name of a registered builtin ("" if none). */
const char *qc_builtin_name(const qc_vm *vm, int number) QC_PURE;

struct qc_builtin_info {
    int number;
    const char *name;
    const char *what; /* what it must do */
};
/* The builtins the library implements, and the QuakeWorld builtins the server must provide
 * (numbers and names as QuakeWorld's defs.qc). Each list ends with {0, NULL, NULL}. */
extern const struct qc_builtin_info qc_library_builtins[];
extern const struct qc_builtin_info qc_world_builtins[];

/* For builtins that print: the concatenation of parameters first..argc-1 as strings (as
 * bprint, sprint, centerprint, error do), as a temporary string's text. */
const char *qc_varstring(qc_ctx *ctx, int first) QC_PURE;

#endif
