/* The floor: a "runtime" that does nothing, to measure what GCC's code generation alone costs a
 * transaction (the -tm programs' calls to _ITM_beginTransaction, which GCC treats as returning
 * twice, so every variable live across it goes through the stack, and to
 * _ITM_commitTransaction). _ITM_beginTransaction says "run the uninstrumented code" and
 * _ITM_commitTransaction returns: no runtime can be faster. It gives no isolation at all, so
 * scripts/libtm-bench runs it with one thread only, and it aborts a transaction that has no
 * uninstrumented path (it could not run its instrumented one). Not a runtime for programs. */
    .text
    .globl  _ITM_beginTransaction
    .type   _ITM_beginTransaction, @function
    .p2align 4
_ITM_beginTransaction:
    .cfi_startproc
    testl   $0x2, %edi              /* pr_uninstrumentedCode */
    jz      1f
    movl    $0x2, %eax              /* a_runUninstrumentedCode */
    ret
1:  jmp     abort@PLT
    .cfi_endproc
    .size   _ITM_beginTransaction, .-_ITM_beginTransaction

    .globl  _ITM_commitTransaction
    .type   _ITM_commitTransaction, @function
    .p2align 4
_ITM_commitTransaction:
    .cfi_startproc
    ret
    .cfi_endproc
    .size   _ITM_commitTransaction, .-_ITM_commitTransaction

    .section .note.GNU-stack,"",@progbits
