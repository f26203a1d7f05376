/* _ITM_beginTransaction and the restart jump: the only assembly in libtm.
 *
 * begin saves what a restart must restore (docs/itm-abi.md §5): the caller's stack pointer after
 * return (the CFA), the callee-saved registers and the return address, into a struct tm_jmpbuf
 * on its own stack, and calls tm_begin(properties, &jmpbuf), which copies the buffer into the
 * thread's descriptor. Restarting reloads the registers, sets %rsp to the CFA and jumps to the
 * return address with the action word in %eax: to the caller, begin returned a second time.
 * No CET shadow-stack note: tm_longjmp does not unwind a shadow stack.
 */
    .text

    .globl  _ITM_beginTransaction
    .type   _ITM_beginTransaction, @function
    .p2align 4
_ITM_beginTransaction:
    .cfi_startproc
    endbr64
    leaq    8(%rsp), %rax           /* CFA: %rsp once we have returned */
    subq    $72, %rsp               /* 64-byte tm_jmpbuf + padding; keeps %rsp 16-aligned */
    .cfi_adjust_cfa_offset 72
    movq    %rax, 0(%rsp)
    movq    %rbx, 8(%rsp)
    movq    %rbp, 16(%rsp)
    movq    %r12, 24(%rsp)
    movq    %r13, 32(%rsp)
    movq    %r14, 40(%rsp)
    movq    %r15, 48(%rsp)
    movq    72(%rsp), %rax          /* return address pushed by the caller's call */
    movq    %rax, 56(%rsp)
    movq    %rsp, %rsi              /* %edi already holds the properties */
    call    tm_begin
    addq    $72, %rsp
    .cfi_adjust_cfa_offset -72
    ret
    .cfi_endproc
    .size   _ITM_beginTransaction, .-_ITM_beginTransaction

/* void tm_longjmp(const struct tm_jmpbuf *jb, uint32_t action) -- never returns */
    .globl  tm_longjmp
    .hidden tm_longjmp
    .type   tm_longjmp, @function
    .p2align 4
tm_longjmp:
    .cfi_startproc
    endbr64
    movl    %esi, %eax
    movq    8(%rdi), %rbx
    movq    16(%rdi), %rbp
    movq    24(%rdi), %r12
    movq    32(%rdi), %r13
    movq    40(%rdi), %r14
    movq    48(%rdi), %r15
    movq    56(%rdi), %rdx
    movq    0(%rdi), %rsp
    jmp     *%rdx
    .cfi_endproc
    .size   tm_longjmp, .-tm_longjmp

    .section .note.GNU-stack,"",@progbits
