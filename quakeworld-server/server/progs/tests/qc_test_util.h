/* Helpers shared by the library's tests: loading the test program, calling a function by
 * name with parameters, reading results. */
#ifndef QC_TEST_UTIL_H
#define QC_TEST_UTIL_H

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../qc_builtins.h"
#include "../qc_ctx.h"
#include "../qc_strings.h"
#include "../qc_vm.h"

static inline qc_vm *qt_load(const char *path, const qc_load_options *opt)
{
    char err[512];
    qc_vm *vm = qc_vm_load_file(path, opt, err, sizeof err);
    if (!vm) {
        fprintf(stderr, "cannot load the test program: %s\n", err);
        exit(1);
    }
    return vm;
}

static inline qc_func qt_fn(qc_vm *vm, const char *name)
{
    qc_func f = qc_find_function(vm, name);
    if (!f) {
        fprintf(stderr, "the test program has no function %s\n", name);
        exit(1);
    }
    return f;
}

/* Parameter kinds for qt_call: 'f' float (double vararg), 'i' int32, 'v' const float *. */
static inline qc_status qt_vcall(qc_ctx *ctx, const char *name, const char *kinds, va_list ap)
{
    for (int i = 0; kinds[i]; i++) {
        if (kinds[i] == 'f')
            qc_set_parm_float(ctx, i, (float)va_arg(ap, double));
        else if (kinds[i] == 'i')
            qc_set_parm_int(ctx, i, va_arg(ap, int32_t));
        else
            qc_set_parm_vector(ctx, i, va_arg(ap, const float *));
    }
    return qc_call(ctx, qt_fn(qc_ctx_vm(ctx), name));
}

static inline qc_status qt_call(qc_ctx *ctx, const char *name, const char *kinds, ...)
{
    va_list ap;
    va_start(ap, kinds);
    qc_status s = qt_vcall(ctx, name, kinds, ap);
    va_end(ap);
    if (s != QC_OK)
        fprintf(stderr, "%s: %s\n%s", name, qc_ctx_error(ctx)->message,
                qc_ctx_error(ctx)->backtrace);
    return s;
}

#endif
