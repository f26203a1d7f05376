/* Loading a progs.dat: every table checked against the file and against each other before
 * anything reads it, so that a truncated, damaged or hostile file gets an error naming the
 * file and the problem, never a crash. The statements are checked and decoded in
 * qc_decode.c. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qc_internal.h"
#include "qc_raw.h"
#include "whole_file.h"

#define QC_MAX_FILE_SIZE (64u << 20)
#define QC_MAX_GLOBALS 65536       /* statement operands are 16-bit */
#define QC_MAX_ENTITY_FIELDS 16384 /* words per entity */

static int32_t le32(const uint8_t *p)
{
    return (int32_t)((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
                     (uint32_t)p[3] << 24);
}

static uint16_t le16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }

static const char *const table_names[] = { "statements", "global definitions",
                                           "field definitions", "functions", "strings",
                                           "globals" };

/* Table t (0..5): header words 2+2t (offset) and 3+2t (count) with entries of `entry` bytes. */
static bool check_table(const int32_t *hdr, int t, size_t entry, size_t file_size,
                        char *err, size_t errlen, const char *name)
{
    int32_t ofs = hdr[QC_HDR_OFS_STATEMENTS + 2 * t], count = hdr[QC_HDR_NUM_STATEMENTS + 2 * t];
    if (ofs < 0 || count < 0) {
        qc_say(err, errlen, name, "the %s table has a negative offset or count (%d, %d)",
            table_names[t], ofs, count);
        return false;
    }
    uint64_t end = (uint64_t)ofs + (uint64_t)count * entry;
    if (end > file_size) {
        qc_say(err, errlen, name,
            "the %s table (%d entries of %zu bytes at offset %d) runs past the end of the "
            "file (%zu bytes): truncated or damaged", table_names[t], count, entry, ofs,
            file_size);
        return false;
    }
    return true;
}

static bool valid_string(const qc_vm *vm, int32_t s)
{
    return s >= 0 && s < vm->string_size;
}

static bool load_defs(qc_vm *vm, const uint8_t *data, int32_t ofs, int count, bool fields,
                      char *err, size_t errlen)
{
    qc_def *defs = calloc((size_t)count + 1, sizeof *defs);
    if (!defs) {
        qc_say(err, errlen, vm->name, "out of memory");
        return false;
    }
    if (fields) {
        vm->fielddefs = defs;
        vm->num_fielddefs = count;
    } else {
        vm->globaldefs = defs;
        vm->num_globaldefs = count;
    }
    const char *what = fields ? "field" : "global";
    int limit = fields ? vm->entity_fields : vm->num_globals;
    for (int i = 0; i < count; i++) {
        const uint8_t *p = data + ofs + (size_t)i * QC_DEF_SIZE;
        uint16_t type = le16(p) & (uint16_t)~QC_DEF_SAVEGLOBAL;
        defs[i] = (qc_def){ .type = type, .ofs = le16(p + 2), .name = le32(p + 4) };
        if (!valid_string(vm, defs[i].name)) {
            qc_say(err, errlen, vm->name, "%s definition %d: name offset %d outside the string "
                "table (%d bytes)", what, i, defs[i].name, vm->string_size);
            return false;
        }
        const char *dname = vm->strings + defs[i].name;
        if (type >= QC_TYPE_COUNT) {
            qc_say(err, errlen, vm->name, "%s definition %d (%s): unknown type %u", what, i, dname,
                type);
            return false;
        }
        int width = type == QC_TYPE_VECTOR ? 3 : 1;
        if (defs[i].ofs + width > limit) {
            qc_say(err, errlen, vm->name, "%s definition %d (%s): offset %u + %d words outside the "
                "%d %s", what, i, dname, defs[i].ofs, width, limit,
                fields ? "words of an entity" : "globals");
            return false;
        }
    }
    return true;
}

static bool load_functions(qc_vm *vm, const uint8_t *data, int32_t ofs, int count, int nst,
                           char *err, size_t errlen)
{
    vm->functions = calloc((size_t)count, sizeof *vm->functions);
    if (!vm->functions) {
        qc_say(err, errlen, vm->name, "out of memory");
        return false;
    }
    vm->num_functions = count;
    for (int i = 0; i < count; i++) {
        const uint8_t *p = data + ofs + (size_t)i * QC_FUNCTION_SIZE;
        qc_function *f = &vm->functions[i];
        f->first_statement = le32(p);
        f->parm_start = le32(p + 4);
        f->locals = le32(p + 8);
        f->name = le32(p + 16);
        f->file = le32(p + 20);
        f->numparms = le32(p + 24);
        memcpy(f->parm_size, p + 28, QC_MAX_PARMS);
        if (!valid_string(vm, f->name) || !valid_string(vm, f->file)) {
            qc_say(err, errlen, vm->name, "function %d: name or file offset (%d, %d) outside the "
                "string table (%d bytes)", i, f->name, f->file, vm->string_size);
            return false;
        }
        const char *fname = vm->strings + f->name;
        if (f->first_statement < 0) {
            if (f->first_statement <= -QC_MAX_BUILTINS) {
                qc_say(err, errlen, vm->name, "function %d (%s): builtin number %lld outside "
                    "1..%d", i, fname, -(long long)f->first_statement, QC_MAX_BUILTINS - 1);
                return false;
            }
            vm->info.num_builtin_functions++;
        } else if (f->first_statement >= nst && !(i == 0 && f->first_statement == 0)) {
            qc_say(err, errlen, vm->name, "function %d (%s): first statement %d outside the %d "
                "statements", i, fname, f->first_statement, nst);
            return false;
        }
        bool builtin = f->first_statement < 0;
        if (f->numparms > QC_MAX_PARMS || f->numparms < (builtin ? -QC_MAX_PARMS - 1 : 0)) {
            qc_say(err, errlen, vm->name, "function %d (%s): %d parameters (at most %d)", i, fname,
                f->numparms, QC_MAX_PARMS);
            return false;
        }
        if (f->parm_start < 0 || f->locals < 0 ||
            (int64_t)f->parm_start + f->locals > vm->num_globals) {
            qc_say(err, errlen, vm->name, "function %d (%s): locals %d + %d outside the %d globals",
                i, fname, f->parm_start, f->locals, vm->num_globals);
            return false;
        }
        int64_t parm_words = 0;
        for (int j = 0; j < f->numparms; j++) {
            if (f->parm_size[j] > 3) {
                qc_say(err, errlen, vm->name, "function %d (%s): parameter %d has size %u (1 or "
                    "3 words)", i, fname, j + 1, f->parm_size[j]);
                return false;
            }
            parm_words += f->parm_size[j];
        }
        if (!builtin && f->parm_start + parm_words > vm->num_globals) {
            qc_say(err, errlen, vm->name, "function %d (%s): parameters %d + %lld outside the %d "
                "globals", i, fname, f->parm_start, (long long)parm_words, vm->num_globals);
            return false;
        }
        if (builtin)
            f->numparms = 0; /* a builtin's parameters stay where the caller put them */
    }
    return true;
}

static void apply_defaults(qc_load_options *o, const qc_load_options *given)
{
    *o = given ? *given : (qc_load_options){ 0 };
    if (o->max_entities <= 0)
        o->max_entities = 768;
    if (o->max_contexts <= 0)
        o->max_contexts = 64;
    if (o->engine_string_space == 0)
        o->engine_string_space = 1u << 20;
    if (o->statement_budget == 0)
        o->statement_budget = 100000;
    if (o->max_depth <= 0)
        o->max_depth = 32;
    if (o->local_stack_words <= 0)
        o->local_stack_words = 2048;
}

qc_vm *qc_vm_load_memory(const void *bytes, size_t size, const char *name,
                         const qc_load_options *given, char *err, size_t errlen)
{
    const uint8_t *data = bytes;
    qc_load_options opt;
    apply_defaults(&opt, given);
    if (!name)
        name = "progs.dat";
    if (err && errlen)
        err[0] = 0;
    if (size < QC_HEADER_SIZE) {
        qc_say(err, errlen, name, "%zu bytes: too short for a progs header (%d bytes); not a "
            "progs.dat or truncated", size, QC_HEADER_SIZE);
        return NULL;
    }
    if (size > QC_MAX_FILE_SIZE) {
        qc_say(err, errlen, name, "%zu bytes: larger than any progs.dat (limit %u)", size,
            QC_MAX_FILE_SIZE);
        return NULL;
    }
    if (opt.max_entities > 65536 || opt.max_contexts > 4096 || opt.max_depth > 4096 ||
        opt.local_stack_words > (1 << 24) || opt.engine_string_space > (256u << 20)) {
        qc_say(err, errlen, name, "load options out of range (max_entities <= 65536, max_contexts "
            "<= 4096, max_depth <= 4096, local_stack_words <= 16M, engine_string_space <= "
            "256 MiB)");
        return NULL;
    }
    int32_t hdr[QC_HDR_WORDS];
    for (int i = 0; i < QC_HDR_WORDS; i++)
        hdr[i] = le32(data + 4 * i);
    if (hdr[QC_HDR_VERSION] != QC_PROGS_VERSION) {
        qc_say(err, errlen, name, "progs version %d; this interpreter runs version %d (Quake and "
            "QuakeWorld)", hdr[QC_HDR_VERSION], QC_PROGS_VERSION);
        return NULL;
    }
    if (opt.required_crc && hdr[QC_HDR_CRC] != opt.required_crc) {
        qc_say(err, errlen, name, "header CRC %d, but %d is required (%s)", hdr[QC_HDR_CRC],
            opt.required_crc, opt.required_crc == QC_QUAKEWORLD_CRC ?
            "QuakeWorld's defs.qc: this progs was built for another game" : "as configured");
        return NULL;
    }
    static const size_t entry[] = { QC_STATEMENT_SIZE, QC_DEF_SIZE, QC_DEF_SIZE,
                                    QC_FUNCTION_SIZE, 1, 4 };
    for (int t = 0; t < 6; t++)
        if (!check_table(hdr, t, entry[t], size, err, errlen, name))
            return NULL;
    int nst = hdr[QC_HDR_NUM_STATEMENTS], nfn = hdr[QC_HDR_NUM_FUNCTIONS];
    int ngl = hdr[QC_HDR_NUM_GLOBALS], nstr = hdr[QC_HDR_NUM_STRINGS];
    int entf = hdr[QC_HDR_ENTITYFIELDS];
    if (nfn < 1) {
        qc_say(err, errlen, name, "no functions (function 0, the null function, is required)");
        return NULL;
    }
    if (ngl < QC_OFS_RESERVED || ngl > QC_MAX_GLOBALS) {
        qc_say(err, errlen, name, "%d globals (between %d, the return value and parameters, and "
            "%d)", ngl, QC_OFS_RESERVED, QC_MAX_GLOBALS);
        return NULL;
    }
    if (entf < 0 || entf > QC_MAX_ENTITY_FIELDS) {
        qc_say(err, errlen, name, "entityfields %d (0..%d words per entity)", entf,
            QC_MAX_ENTITY_FIELDS);
        return NULL;
    }
    if (nstr < 1 || data[hdr[QC_HDR_OFS_STRINGS] + nstr - 1] != 0) {
        qc_say(err, errlen, name, "the string table (%d bytes) does not end with a NUL", nstr);
        return NULL;
    }

    qc_vm *vm = calloc(1, sizeof *vm);
    if (!vm) {
        qc_say(err, errlen, name, "out of memory");
        return NULL;
    }
    snprintf(vm->name, sizeof vm->name, "%s", name);
    vm->info.name = vm->name;
    vm->info.version = hdr[QC_HDR_VERSION];
    vm->info.crc = hdr[QC_HDR_CRC];
    vm->info.quakeworld_crc = hdr[QC_HDR_CRC] == QC_QUAKEWORLD_CRC;
    vm->num_globals = ngl;
    vm->entity_fields = entf;
    vm->string_size = nstr;
    vm->max_entities = opt.max_entities;
    vm->num_entities = opt.max_entities;
    vm->max_contexts = opt.max_contexts;
    vm->statement_budget = opt.statement_budget;
    vm->max_depth = opt.max_depth;
    vm->local_stack_words = opt.local_stack_words;
    vm->engine_string_space = opt.engine_string_space;
    vm->strings = malloc((size_t)nstr);
    vm->globals = calloc((size_t)ngl + 3, sizeof *vm->globals);
    vm->entities = calloc((size_t)opt.max_entities * (size_t)(entf ? entf : 1),
                          sizeof *vm->entities);
    vm->engine_strings = calloc(1, opt.engine_string_space);
    vm->contexts = calloc((size_t)opt.max_contexts, sizeof *vm->contexts);
    qc_raw_statement *raw = calloc((size_t)nst + 1, sizeof *raw);
    if (!vm->strings || !vm->globals || !vm->entities || !vm->engine_strings ||
        !vm->contexts || !raw) {
        qc_say(err, errlen, name, "out of memory");
        goto fail;
    }
    memcpy(vm->strings, data + hdr[QC_HDR_OFS_STRINGS], (size_t)nstr);
    for (int i = 0; i < ngl; i++)
        vm->globals[i].i = le32(data + hdr[QC_HDR_OFS_GLOBALS] + 4 * (size_t)i);
    if (!load_defs(vm, data, hdr[QC_HDR_OFS_GLOBALDEFS], hdr[QC_HDR_NUM_GLOBALDEFS], false, err,
                   errlen) ||
        !load_defs(vm, data, hdr[QC_HDR_OFS_FIELDDEFS], hdr[QC_HDR_NUM_FIELDDEFS], true, err,
                   errlen) ||
        !load_functions(vm, data, hdr[QC_HDR_OFS_FUNCTIONS], nfn, nst, err, errlen))
        goto fail;
    for (int i = 0; i < nst; i++) {
        const uint8_t *p = data + hdr[QC_HDR_OFS_STATEMENTS] + (size_t)i * QC_STATEMENT_SIZE;
        raw[i] = (qc_raw_statement){ le16(p), (int16_t)le16(p + 2), (int16_t)le16(p + 4),
                                     (int16_t)le16(p + 6) };
    }
    vm->info.num_statements = nst;
    vm->info.num_functions = nfn;
    vm->info.num_globaldefs = vm->num_globaldefs;
    vm->info.num_fielddefs = vm->num_fielddefs;
    vm->info.num_globals = ngl;
    vm->info.entity_fields = entf;
    vm->info.string_size = nstr;
    if (!qc_name_index_build(&vm->function_index, vm, nfn, qc_function_name_of) ||
        !qc_name_index_build(&vm->field_index, vm, vm->num_fielddefs, qc_field_name_of) ||
        !qc_name_index_build(&vm->global_index, vm, vm->num_globaldefs, qc_global_name_of)) {
        qc_say(err, errlen, name, "out of memory");
        goto fail;
    }
    if (!qc_decode(vm, raw, nst, &opt, err, errlen))
        goto fail;
    free(raw);
    raw = NULL;
    vm->initial_globals = malloc(sizeof *vm->globals * ((size_t)ngl + 3));
    if (!vm->initial_globals) {
        qc_say(err, errlen, name, "out of memory");
        goto fail;
    }
    memcpy(vm->initial_globals, vm->globals, sizeof *vm->globals * ((size_t)ngl + 3));
    const struct qc_builtin_def *refused = qc_register_library_builtins(vm);
    if (refused) {
        qc_say(err, errlen, name, "the library's builtin #%d %s is refused (its number is out of "
            "range or given twice)", refused->number, refused->name);
        goto fail;
    }
    return vm;
fail:
    free(raw);
    qc_vm_free(vm);
    return NULL;
}

qc_vm *qc_vm_load_file(const char *path, const qc_load_options *opt, char *err, size_t errlen)
{
    char too_large[64];
    snprintf(too_large, sizeof too_large, "larger than any progs.dat (limit %u bytes)",
             QC_MAX_FILE_SIZE);
    uint8_t *data;
    size_t size;
    if (!whole_file_read(path, QC_MAX_FILE_SIZE, too_large, &data, &size, err, errlen))
        return NULL;
    qc_vm *vm = qc_vm_load_memory(data, size, path, opt, err, errlen);
    free(data);
    return vm;
}

void qc_vm_free(qc_vm *vm)
{
    if (!vm)
        return;
    for (int i = 0; vm->contexts && i < vm->max_contexts; i++)
        if (vm->contexts[i])
            qc_ctx_free(vm->contexts[i]);
    qc_name_index_free(&vm->function_index);
    qc_name_index_free(&vm->field_index);
    qc_name_index_free(&vm->global_index);
    free(vm->code);
    free(vm->code_statement);
    free(vm->functions);
    free(vm->globaldefs);
    free(vm->fielddefs);
    free(vm->strings);
    free(vm->global_class);
    free(vm->percall_reason);
    free(vm->percall_system);
    free(vm->globals);
    free(vm->initial_globals);
    free(vm->entities);
    free(vm->engine_strings);
    free(vm->contexts);
    free(vm);
}

void qc_vm_restart(qc_vm *vm)
{
    size_t words = (size_t)vm->num_globals + 3;
    memcpy(vm->globals, vm->initial_globals, sizeof *vm->globals * words);
    memset(vm->entities, 0,
           sizeof *vm->entities * (size_t)vm->max_entities * (size_t)(vm->entity_fields ? vm->entity_fields : 1));
    vm->engine_string_used = 0;
    for (int i = 0; i < vm->max_contexts; i++) {
        qc_ctx *ctx = vm->contexts[i];
        if (!ctx)
            continue;
        qc_ctx_reset(ctx);
        memcpy(ctx->g, vm->globals, sizeof *ctx->g * words);
    }
}

const struct qc_progs_info *qc_vm_info(const qc_vm *vm) { return &vm->info; }

void qc_vm_describe(const qc_vm *vm, char *out, size_t outlen)
{
    const struct qc_progs_info *i = &vm->info;
    snprintf(out, outlen, "%s: progs version %d, CRC %d (%s), %d functions (%d builtins), %d "
             "statements, %d globals (%d per call, %d shared, %d constant), %d entity fields",
             i->name, i->version, i->crc,
             i->quakeworld_crc ? "QuakeWorld's defs.qc" : "not QuakeWorld's 54730",
             i->num_functions, i->num_builtin_functions, i->num_statements, i->num_globals,
             i->globals_per_call, i->globals_shared, i->globals_constant, i->entity_fields);
}
