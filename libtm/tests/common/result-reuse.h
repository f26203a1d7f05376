/* Reads the program's own disassembly (objdump -d) and tells whether GCC built the destination
 * of an _ITM_mem* call from the result of an earlier _ITM_mem* call: the code generation that
 * memops-result exists for. */
#ifndef TMTEST_RESULT_REUSE_H
#define TMTEST_RESULT_REUSE_H

#include <stddef.h>

/* The instruction sequence of one finding, for the test's log. */
struct reuse_finding {
    char first[64];   /* the _ITM_mem* call whose result is reused */
    char second[64];  /* the _ITM_mem* call whose destination (%rdi) is built from it */
    char how[160];    /* the instructions between the two that carry the value */
};

/* Disassembles `binary` once (objdump runs without the process's LD_PRELOAD, which this
 * removes). Returns 0, or -1 with a message in `error` (objdump missing, unreadable binary). */
int reuse_load(const char *binary, char *error, size_t error_size);

/* 1 when function `symbol` (as objdump names it) has an _ITM_mem* call whose %rdi derives
 * from %rax as the previous _ITM_mem* call returned it (through register moves, add and lea
 * only), filling `found`; 0 when it has none; -1 when the symbol is not in the binary. */
int reuse_in_function(const char *symbol, struct reuse_finding *found);

#endif
