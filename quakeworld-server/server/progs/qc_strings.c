/* String values (qc_strings.h): the program's table, the engine's permanent strings and each
 * context's ring of temporary strings. */
#include <string.h>

#include "qc_internal.h"

const char *qc_string_get(const qc_vm *vm, qc_string s)
{
    if (s >= 0 && s < vm->string_size)
        return vm->strings + s;
    if (s >= QC_STRING_ENGINE_BASE && (size_t)(s - QC_STRING_ENGINE_BASE) < vm->engine_string_space)
        return vm->engine_strings + (s - QC_STRING_ENGINE_BASE);
    if (s >= QC_STRING_TEMP_BASE) {
        uint32_t rel = (uint32_t)(s - QC_STRING_TEMP_BASE);
        uint32_t id = rel / QC_TEMP_STRING_SPACE, at = rel % QC_TEMP_STRING_SPACE;
        if (id < (uint32_t)vm->max_contexts && vm->contexts[id])
            return vm->contexts[id]->temp_strings + at;
    }
    return NULL;
}

/* The ring's last byte stays 0, so any temporary string read at any time ends inside it. */
qc_string qc_string_temp(qc_ctx *ctx, const char *text)
{
    size_t len = strlen(text);
    if (len > QC_TEMP_STRING_SPACE / 4 - 1)
        len = QC_TEMP_STRING_SPACE / 4 - 1;
    if ((size_t)ctx->temp_used + len + 1 > QC_TEMP_STRING_SPACE - 1)
        ctx->temp_used = 0;
    char *to = ctx->temp_strings + ctx->temp_used;
    memcpy(to, text, len);
    to[len] = 0;
    qc_string s = QC_STRING_TEMP_BASE + ctx->id * QC_TEMP_STRING_SPACE + ctx->temp_used;
    ctx->temp_used += (int)len + 1;
    return s;
}

/* Instrumented in a transaction (this function is transaction_safe): two threads taking
 * space at once conflict on engine_string_used, and the loser's bytes are undone. The
 * space's last byte stays 0. */
qc_string QC_SAFE qc_string_new(qc_vm *vm, const char *text)
{
    size_t len = 0;
    while (text[len])
        len++;
    size_t at = vm->engine_string_used;
    if (at + len + 1 > vm->engine_string_space - 1)
        return 0;
    for (size_t i = 0; i < len; i++)
        vm->engine_strings[at + i] = text[i];
    vm->engine_strings[at + len] = 0;
    vm->engine_string_used = at + len + 1;
    return QC_STRING_ENGINE_BASE + (qc_string)at;
}

size_t qc_engine_strings_used(const qc_vm *vm) { return vm->engine_string_used; }
