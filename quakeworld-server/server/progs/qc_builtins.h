/* The builtin table: QuakeC functions whose first statement is -N are builtin number N.
 *
 * The library implements every builtin of QuakeWorld's defs.qc that needs no world (math,
 * strings, debug output, error/objerror/break); they are registered when a vm is loaded.
 * The server registers the world builtins, a table of qc_builtin_def per file, with
 * qc_builtin_register_table. A builtin reads its parameters with qc_parm_* and writes its
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

/* A builtin that touches only its context (math, strings, the trace flag): the library's
 * own, called from the uninstrumented loop. */
typedef qc_status (*qc_builtin_loop_fn)(qc_ctx *ctx);

/* One builtin, all that is said of it in one place: each file of builtins keeps a table of
 * these beside its functions (the library's qc_builtins_*.c, the server's world builtins)
 * and registers it whole. Exactly one of world and loop is set. A table ends with {0}. */
struct qc_builtin_def {
    int number;               /* as QuakeWorld's defs.qc */
    const char *name;
    const char *help;         /* what it does */
    qc_builtin_fn world;      /* runs instrumented, may call QuakeC */
    qc_builtin_loop_fn loop;  /* runs from the loop (context only) */
};

/* Registers every builtin of table. Returns NULL, or the first entry it refused (number out
 * of 1..QC_MAX_BUILTINS-1, already taken by the library or an earlier registration, or not
 * exactly one function); the entries before it stay registered. Serial phase only. */
const struct qc_builtin_def *qc_builtin_register_table(qc_vm *vm,
                                                       const struct qc_builtin_def *table);
/* One world builtin: 0, or -1 as a refused entry of qc_builtin_register_table. */
int qc_builtin_register(qc_vm *vm, int number, const char *name, qc_builtin_fn fn);
bool qc_builtin_implemented(const qc_vm *vm, int number) QC_PURE;
/* Name and help of a registered builtin ("" if none). */
const char *qc_builtin_name(const qc_vm *vm, int number) QC_PURE;
const char *qc_builtin_help(const qc_vm *vm, int number) QC_PURE;

/* For builtins that print: the concatenation of parameters first..argc-1 as strings (as
 * bprint, sprint, centerprint, error do), as a temporary string's text. */
const char *qc_varstring(qc_ctx *ctx, int first) QC_PURE;

#endif
