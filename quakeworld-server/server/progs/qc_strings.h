/* QuakeC string values.
 *
 * A string value (qc_string, 32 bits) is one of:
 *   [0, string table size)        the program's string table (immutable)
 *   QC_STRING_ENGINE_BASE + n     a permanent engine string: n bytes into the vm's engine
 *                                 string space (netnames, spawn keys); never freed while the
 *                                 vm lives, immutable once made
 *   QC_STRING_TEMP_BASE + ...     a temporary string of one context (ftos, vtos): a ring of
 *                                 QC_TEMP_STRING_SPACE bytes per context, emptied by
 *                                 qc_ctx_reset, so valid for the rest of the engine's call
 *                                 (until the ring wraps round)
 * Every other value is "bad string" (an error when QuakeC compares or prints it). */
#ifndef QC_STRINGS_H
#define QC_STRINGS_H

#include "qc_vm.h"

#define QC_STRING_ENGINE_BASE 0x20000000
#define QC_STRING_TEMP_BASE 0x40000000
#define QC_TEMP_STRING_SPACE 16384 /* per context */

/* The text of s, or NULL when s is no string. Temporary strings of other contexts resolve
 * too (QuakeC may store one in a field), but their text changes as that context runs on. */
const char *qc_string_get(const qc_vm *vm, qc_string s) QC_PURE;
/* A temporary string of this context holding text (cut at QC_TEMP_STRING_SPACE / 4). */
qc_string qc_string_temp(qc_ctx *ctx, const char *text) QC_PURE;
/* A permanent engine string; 0 (the empty string) when the engine string space is full.
 * Callable in transactions: the space is shared state, taken with instrumented accesses. */
qc_string qc_string_new(qc_vm *vm, const char *text) QC_SAFE;
/* Bytes of engine string space used. */
size_t qc_engine_strings_used(const qc_vm *vm) QC_PURE;

#endif
