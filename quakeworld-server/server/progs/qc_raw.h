/* A statement as the file has it (the loader hands these to the decoder). */
#ifndef QC_RAW_H
#define QC_RAW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct qc_raw_statement {
    uint16_t op;
    int16_t a, b, c;
} qc_raw_statement;

struct qc_vm;
struct qc_load_options;
bool qc_decode(struct qc_vm *vm, const qc_raw_statement *raw, int nst,
               const struct qc_load_options *opt, char *err, size_t errlen);

#endif
