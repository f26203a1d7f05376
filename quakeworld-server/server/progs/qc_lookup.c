/* Name lookups: functions, fields and globals by name, through one small hash per table. */
#include <stdlib.h>
#include <string.h>

#include "qc_internal.h"

static uint32_t hash_name(const char *s)
{
    uint32_t h = 2166136261u; /* FNV-1a */
    while (*s)
        h = (h ^ (uint8_t)*s++) * 16777619u;
    return h;
}

int32_t qc_function_name_of(const qc_vm *vm, int i) { return vm->functions[i].name; }
int32_t qc_field_name_of(const qc_vm *vm, int i) { return vm->fielddefs[i].name; }
int32_t qc_global_name_of(const qc_vm *vm, int i) { return vm->globaldefs[i].name; }

/* The first entry of a name wins (as the originals' linear searches). */
bool qc_name_index_build(qc_name_index *ix, const qc_vm *vm, int count,
                         int32_t (*name_of)(const qc_vm *vm, int i))
{
    uint32_t slots = 16;
    while (slots < (uint32_t)count * 2)
        slots *= 2;
    ix->slots = calloc(slots, sizeof *ix->slots);
    if (!ix->slots)
        return false;
    ix->mask = slots - 1;
    for (int i = 0; i < count; i++) {
        const char *name = vm->strings + name_of(vm, i);
        if (!*name)
            continue;
        uint32_t h = hash_name(name) & ix->mask;
        for (;;) {
            int32_t at = ix->slots[h];
            if (at == 0) {
                ix->slots[h] = i + 1;
                break;
            }
            if (strcmp(vm->strings + name_of(vm, at - 1), name) == 0)
                break;
            h = (h + 1) & ix->mask;
        }
    }
    return true;
}

void qc_name_index_free(qc_name_index *ix)
{
    free(ix->slots);
    ix->slots = NULL;
}

int qc_name_index_find(const qc_name_index *ix, const qc_vm *vm, const char *name,
                       int32_t (*name_of)(const qc_vm *vm, int i))
{
    if (!ix->slots || !name)
        return -1;
    for (uint32_t h = hash_name(name) & ix->mask;; h = (h + 1) & ix->mask) {
        int32_t at = ix->slots[h];
        if (at == 0)
            return -1;
        if (strcmp(vm->strings + name_of(vm, at - 1), name) == 0)
            return at - 1;
    }
}

qc_func qc_find_function(const qc_vm *vm, const char *name)
{
    int i = qc_name_index_find(&vm->function_index, vm, name, qc_function_name_of);
    return i > 0 ? i : 0;
}

static int find_def(const qc_def *defs, int i, enum qc_type type)
{
    if (i < 0)
        return -1;
    if (type != QC_TYPE_VOID && defs[i].type != type)
        return -1;
    return defs[i].ofs;
}

int qc_find_field(const qc_vm *vm, const char *name, enum qc_type type)
{
    return find_def(vm->fielddefs,
                    qc_name_index_find(&vm->field_index, vm, name, qc_field_name_of), type);
}

int qc_find_global(const qc_vm *vm, const char *name, enum qc_type type)
{
    return find_def(vm->globaldefs,
                    qc_name_index_find(&vm->global_index, vm, name, qc_global_name_of), type);
}

const char *qc_function_name(const qc_vm *vm, qc_func f)
{
    if (f <= 0 || f >= vm->num_functions)
        return "?";
    return vm->strings + vm->functions[f].name;
}

int qc_function_builtin(const qc_vm *vm, qc_func f)
{
    if (f <= 0 || f >= vm->num_functions || vm->functions[f].first >= 0)
        return 0;
    return -vm->functions[f].first;
}

int qc_num_functions(const qc_vm *vm) { return vm->num_functions; }
int qc_num_fielddefs(const qc_vm *vm) { return vm->num_fielddefs; }

const char *qc_fielddef(const qc_vm *vm, int i, int *ofs, enum qc_type *type)
{
    if (i < 0 || i >= vm->num_fielddefs)
        return NULL;
    if (ofs)
        *ofs = vm->fielddefs[i].ofs;
    if (type)
        *type = (enum qc_type)vm->fielddefs[i].type;
    return vm->strings + vm->fielddefs[i].name;
}
