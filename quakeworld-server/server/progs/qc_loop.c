/* The interpreter loop in its two variants (qc_loop_body.h). Both are transaction_pure: GCC
 * leaves them uninstrumented, and the TM variant calls the runtime's load and store barriers
 * itself for the shared data only. World builtins are not called from here (they must run
 * instrumented): the loop returns QC_RUN_BUILTIN and qc_call, a transaction_safe function,
 * calls them. */
#include <string.h>

#include "qc_frames.h"
#include "qc_internal.h"

#define QC_LOOP_NAME qc_run_plain
#define QC_LOAD(p) (*(p))
#define QC_STORE(p, v) (*(p) = (v))
#include "qc_loop_body.h"
#undef QC_LOOP_NAME
#undef QC_LOAD
#undef QC_STORE

#ifndef QC_WITHOUT_TM
/* libitm's 4-byte load and store barriers (the ABI GCC's instrumented code calls). */
uint32_t _ITM_RU4(const uint32_t *p);
void _ITM_WU4(uint32_t *p, uint32_t v);
#define QC_LOOP_NAME qc_run_tm
#define QC_LOAD(p) _ITM_RU4(p)
#define QC_STORE(p, v) _ITM_WU4((p), (v))
#include "qc_loop_body.h"
#endif
