/* The QuakeC virtual machine: loading a progs.dat (version 6), looking up its functions,
 * fields and globals, and the storage the program's state lives in.
 *
 * One qc_vm per loaded program. It holds the immutable program (statements decoded at load
 * time, functions, definitions, string table), the shared game state (entity fields and the
 * globals classified "shared"), the engine's permanent strings and the builtin table. Each
 * thread that runs QuakeC has a qc_ctx of its own (qc_ctx.h) holding its per-call state.
 * README.md in this folder explains the classification of globals and why it keeps
 * QuakeC's semantics when several threads run it at once. */
#ifndef QC_VM_H
#define QC_VM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "qc_format.h"

#ifdef QC_WITHOUT_TM
#define QC_SAFE
#define QC_PURE
#else
#define QC_SAFE __attribute__((transaction_safe))
#define QC_PURE __attribute__((transaction_pure))
#endif

/* One 32-bit QuakeC value: floats, and as integers entity numbers, string values, function
 * numbers, field offsets and entity-field pointers. A vector is three consecutive words. */
typedef union qc_word {
    float f;
    int32_t i;
    uint32_t u;
} qc_word;

typedef int32_t qc_func;   /* function number; 0 is the null function */
typedef int32_t qc_entity; /* entity number; 0 is the world */
typedef int32_t qc_string; /* string value (qc_strings.h) */

typedef struct qc_vm qc_vm;
typedef struct qc_ctx qc_ctx;

typedef struct qc_load_options {
    int max_entities;          /* entity slots (default 768, QuakeWorld's MAX_EDICTS) */
    int max_contexts;          /* contexts (threads) at once (default 64) */
    size_t engine_string_space;/* bytes for permanent engine strings (default 1 MiB) */
    int required_crc;          /* 0: any header CRC is accepted; else others are an error */
    uint32_t statement_budget; /* statements per engine call before "runaway loop" (100000) */
    int max_depth;             /* QuakeC call depth (default 32, as the original engines) */
    int local_stack_words;     /* words of saved locals (default 2048, as the originals) */
    /* Names of further globals to keep per call (NULL-terminated list, may be NULL): only for
     * call-chain scratch globals that every chain writes before it reads them. */
    const char *const *per_call_globals;
} qc_load_options;

/* Loads and checks a progs.dat. On any problem returns NULL and writes "FILE: what is wrong"
 * into err (errlen bytes). opt may be NULL (all defaults). Serial phase only. */
qc_vm *qc_vm_load_file(const char *path, const qc_load_options *opt, char *err, size_t errlen);
/* The same from memory; name is what messages call the input. */
qc_vm *qc_vm_load_memory(const void *data, size_t size, const char *name,
                         const qc_load_options *opt, char *err, size_t errlen);
void qc_vm_free(qc_vm *vm);
/* The program as loaded again, as id's engines load it for every map: every global back to
 * the file's value, every entity's fields 0, the engine's strings forgotten (their numbers
 * become invalid), each context's globals and temporary strings reset. Builtins, budgets
 * and contexts stay. Serial phase only, no QuakeC running. */
void qc_vm_restart(qc_vm *vm);

struct qc_progs_info {
    const char *name;
    int version, crc;
    bool quakeworld_crc; /* crc == QC_QUAKEWORLD_CRC */
    int num_statements, num_functions, num_builtin_functions, num_globaldefs, num_fielddefs;
    int num_globals, entity_fields, string_size;
    int decoded_instructions; /* statements plus the shared-global loads/stores added */
    int globals_per_call, globals_shared, globals_constant;
};
const struct qc_progs_info *qc_vm_info(const qc_vm *vm) QC_PURE;
/* One line for a log: "NAME: progs version 6, CRC 54730 (QuakeWorld), 482 functions, ..." */
void qc_vm_describe(const qc_vm *vm, char *out, size_t outlen);

/* ---- Lookups (by name; the engine does them once, at load) ---------------------------- */
qc_func qc_find_function(const qc_vm *vm, const char *name) QC_PURE; /* 0: none */
/* Offset of a field or global, or -1. type QC_TYPE_VOID matches any type. */
int qc_find_field(const qc_vm *vm, const char *name, enum qc_type type) QC_PURE;
int qc_find_global(const qc_vm *vm, const char *name, enum qc_type type) QC_PURE;
const char *qc_function_name(const qc_vm *vm, qc_func f) QC_PURE;  /* "?" if none */
int qc_function_builtin(const qc_vm *vm, qc_func f) QC_PURE;       /* its number, or 0 */
int qc_num_functions(const qc_vm *vm) QC_PURE;
/* Field definitions, for printing entities and parsing spawn key/values. */
int qc_num_fielddefs(const qc_vm *vm) QC_PURE;
const char *qc_fielddef(const qc_vm *vm, int i, int *ofs, enum qc_type *type) QC_PURE;

/* ---- Globals ---------------------------------------------------------------------------
 * Every global is classified at load time:
 *   PER_CALL  each context (thread) has its own copy: return value, parameters, every
 *             function's parameters and locals, compiler temporaries, and the system
 *             globals the engine sets per call (self, other, time, frametime, newmis,
 *             parm1..16, v_forward/v_up/v_right, trace_*, msg_entity)
 *   SHARED    one copy, accessed with transactional loads/stores in transactions
 *   CONSTANT  never written by the program (immediates, function and field constants, world):
 *             copied into each context when it is created */
typedef enum qc_global_class { QC_GLOBAL_PER_CALL, QC_GLOBAL_SHARED, QC_GLOBAL_CONSTANT }
    qc_global_class;
qc_global_class qc_global_class_of(const qc_vm *vm, int ofs) QC_PURE;
const char *qc_global_class_name(qc_global_class c) QC_PURE;
/* Why a global is per-call: "reserved", "locals", "temporary", "system", "configured". */
const char *qc_global_class_reason(const qc_vm *vm, int ofs) QC_PURE;

/* The vm's own block of globals: the value of SHARED globals; for PER_CALL system globals the
 * default that qc_ctx_reset copies into a context (set time/frametime here each frame); for
 * CONSTANT ones the value copied into new contexts. Write it in the serial phase only (in a
 * transaction, shared globals are read and written through this pointer by instrumented
 * code). NULL when ofs is out of range. */
qc_word *qc_vm_global(qc_vm *vm, int ofs) QC_PURE;
int qc_num_globals(const qc_vm *vm) QC_PURE;

/* Offsets of the system globals and fields the engine uses (-1 when the program lacks one). */
struct qc_system_offsets {
    int self, other, world, time, frametime, newmis, force_retouch, mapname, serverflags;
    int total_secrets, total_monsters, found_secrets, killed_monsters, parm1; /* parm1..16 */
    int v_forward, v_up, v_right, trace_allsolid, trace_startsolid, trace_fraction;
    int trace_endpos, trace_plane_normal, trace_plane_dist, trace_ent, trace_inopen;
    int trace_inwater, msg_entity;
    /* fields */
    int f_frame, f_think, f_nextthink, f_classname;
};
const struct qc_system_offsets *qc_vm_system(const qc_vm *vm) QC_PURE;

/* ---- Entities ----------------------------------------------------------------------------
 * The fields of entity e are qc_entity_fields(vm) words at qc_entity_ptr(vm, e) (NULL when e is
 * out of range); the engine reads and writes them there (instrumented in transactions).
 * QuakeC entity values are entity numbers. */
qc_word *qc_entity_ptr(qc_vm *vm, qc_entity e) QC_PURE;
int qc_entity_fields(const qc_vm *vm) QC_PURE;
int qc_max_entities(const qc_vm *vm) QC_PURE;
/* Once the map is spawned, QuakeC may no longer write the world's fields (as the originals
 * after loading): an ADDRESS or STATE on entity 0 is then the error "writing to world". */
void qc_vm_lock_world(qc_vm *vm, bool locked);
/* Entities [0, n) are the ones coredump prints (the server keeps this up to date). */
void qc_vm_set_num_entities(qc_vm *vm, int n);

/* ---- Output -------------------------------------------------------------------------------
 * dprint, eprint, coredump, traceon and error messages go to this hook. It is called without
 * instrumentation, possibly inside a transaction that later restarts (so a line may repeat):
 * a server defers it (sv_log_deferred). developer: 1 for dprint, which the original engines
 * print only with "developer 1". Default: stderr, developer lines only when developer is on. */
typedef void (*qc_print_fn)(void *user, int developer, const char *text);
void qc_vm_set_print(qc_vm *vm, qc_print_fn fn, void *user);
void qc_vm_set_developer(qc_vm *vm, bool on);

#endif
