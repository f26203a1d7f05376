/* _ITM_beginTransaction and the restart jump: the only assembly in libtm.
 *
 * Serial fast path: while the mode is serial (and hardware transactions, statistics and a
 * contention manager that hears ends are off), an outermost transaction that cannot cancel
 * and has both code paths runs its uninstrumented path at once, exclusively, as a mutex
 * would: one compare-and-swap takes the serial lock's word and checks the mode bytes beside
 * it, and the descriptor's run word says how it runs (TM_RUN_SERIAL_FAST), which
 * _ITM_commitTransaction's fast path tests. It never restarts, so it needs no checkpoint; it
 * calls nothing and keeps no stack frame. Every other case, and a busy word, goes on below.
 *
 * Otherwise begin saves what a restart must restore (libtm/ABI.md §5): the caller's stack
 * pointer after return (the CFA), the callee-saved registers and the return address, into a
 * struct tm_jmpbuf on its own stack, and calls tm_begin(properties, &jmpbuf), which copies the
 * buffer into the thread's descriptor. Restarting reloads the registers, sets %rsp to the CFA
 * and jumps to the return address with the action word in %eax: to the caller, begin returned
 * a second time. No CET shadow-stack note: tm_longjmp does not unwind a shadow stack.
 *
 * Hardware fast path (htm.c): while htm mode is on, an outermost transaction that can run its
 * uninstrumented path and cannot cancel starts an RTM transaction here and returns
 * a_runUninstrumentedCode inside it. The hardware transaction reads the htm mode flag and the
 * serial lock word, so switching the mode off or taking the serial lock aborts it. On abort
 * the CPU restores the registers as they were at xbegin (the stack is intact: all stores were
 * rolled back) and jumps to .Lhtm_aborted, which asks tm_htm_retry whether to try the hardware
 * again (the attempt count travels in the property word's top bits), else runs the software
 * path with TM_PR_HTM_FELL_BACK set. Nesting inside a hardware transaction is flat, counted
 * in tm_htm_nested (no xbegin nesting: the CPU limits its depth); the outermost
 * _ITM_commitTransaction ends the hardware transaction with xend.
 */
#include "stub_abi.h"

    .text

    .hidden tm_serial_lock
    .hidden tm_htm_retry
    .hidden tm_stats_enabled
    .hidden tm_htm_nested
    .hidden tm_begin
    .hidden tm_fork_generation
    .hidden tm_threads
    .hidden tm_serial_asymmetric

    .globl  _ITM_beginTransaction
    .type   _ITM_beginTransaction, @function
    .p2align 4
_ITM_beginTransaction:
    .cfi_startproc
    endbr64
    cmpl    $TM_SERIAL_FAST_MODE, tm_serial_lock+TM_SERIAL_LOCK_MODE_OFFSET(%rip)
    jne     .Lnot_serial_fast
    movl    %edi, %eax              /* both paths, no cancel, no certain irrevocability */
    andl    $TM_HTM_PROPS_MASK, %eax
    cmpl    $TM_HTM_PROPS_WANTED, %eax
    jne     .Lsoftware
    movq    %fs:TM_TCB_OFFSET, %rcx /* the descriptor (tx.h) */
    testq   %rcx, %rcx
    jz      .Lsoftware
    cmpq    $0, TM_TX_RUN_OFFSET(%rcx) /* outside any transaction */
    jne     .Lsoftware
    movl    tm_fork_generation(%rip), %eax /* not a parent's descriptor after fork */
    cmpl    %eax, TM_TX_GENERATION_OFFSET(%rcx)
    jne     .Lsoftware
    cmpl    $1, tm_threads(%rip)
    je      .Lserial_alone
    movq    tm_serial_lock+TM_SERIAL_LOCK_TURN_OFFSET(%rip), %rax
    testq   %rax, %rax
    jnz     .Lserial_turn
.Lserial_take:
    /* The word free and the mode as the first compare saw it, in one compare-and-swap: the
     * mode changes only under the word. */
    movabsq $(TM_SERIAL_FAST_MODE << 32), %rax
    leaq    1(%rax), %rdx
    lock cmpxchgq %rdx, tm_serial_lock(%rip)
    jne     .Lsoftware
    movabsq $TM_RUN_SERIAL_FAST, %rax
    movq    %rax, TM_TX_RUN_OFFSET(%rcx)
    addq    $1, TM_TX_ID_OFFSET(%rcx)  /* its id (the block's end: transaction.c) */
    movb    $0, TM_TX_IRREVOCABLE_NEEDED_OFFSET(%rcx)
    movl    $2, %eax                /* a_runUninstrumentedCode */
    ret
/* A thread alone runs on the serial lock's read side, without an atomic instruction
 * (tm_serial_lock_alone): its flag, then the word free, the mode unchanged and still alone (a
 * new thread registers under the word, which waits for the flag). */
.Lserial_alone:
    movl    $TM_READER_ALONE, TM_TX_READER_OFFSET(%rcx)
    cmpb    $0, tm_serial_asymmetric(%rip)
    je      .Lserial_alone_fence
.Lserial_alone_look:
    movabsq $(TM_SERIAL_FAST_MODE << 32), %rax
    cmpq    %rax, tm_serial_lock(%rip)
    jne     .Lserial_alone_undo
    cmpl    $1, tm_threads(%rip)
    jne     .Lserial_alone_undo
    movabsq $TM_RUN_SERIAL_ALONE, %rax
    movq    %rax, TM_TX_RUN_OFFSET(%rcx)
    addq    $1, TM_TX_ID_OFFSET(%rcx)
    movb    $0, TM_TX_IRREVOCABLE_NEEDED_OFFSET(%rcx)
    movl    $2, %eax                /* a_runUninstrumentedCode */
    ret
.Lserial_alone_fence:               /* no membarrier(2): the reader fences (serial_lock.h) */
    mfence
    jmp     .Lserial_alone_look
.Lserial_alone_undo:
    movl    $0, TM_TX_READER_OFFSET(%rcx)
    jmp     .Lsoftware
/* Somebody's turn (serial_lock.c): only its holder takes the word here. */
.Lserial_turn:
    cmpq    %rax, %rcx
    je      .Lserial_take
    jmp     .Lsoftware
.Lnot_serial_fast:
    cmpb    $0, tm_serial_lock+TM_SERIAL_LOCK_HTM_MODE_OFFSET(%rip) /* htm mode on? */
    jne     .Lhtm_candidate
.Lsoftware:
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

.Lhtm_candidate:
    movl    %edi, %eax
    andl    $TM_HTM_PROPS_MASK, %eax
    cmpl    $TM_HTM_PROPS_WANTED, %eax
    jne     .Lsoftware              /* tm_begin aborts a hardware transaction we may be in */
    xtest                           /* htm mode on: the CPU has RTM */
    jnz     .Lhtm_nested
    cmpb    $0, tm_stats_enabled(%rip)
    jne     .Lhtm_record_site
/* Also a begin nested in a software transaction: that holds the serial lock while htm mode is
 * on, so the hardware transaction aborts at once and tm_htm_retry sends it to software. */
.Lhtm_start:
    xbegin  .Lhtm_aborted
    cmpb    $0, tm_serial_lock+TM_SERIAL_LOCK_HTM_MODE_OFFSET(%rip) /* subscribe to the mode */
    je      .Lhtm_mode_off
    cmpl    $0, tm_serial_lock(%rip) /* ... and to the serial lock (same cache line) */
    jne     .Lhtm_locked
    movl    $2, %eax                /* a_runUninstrumentedCode, inside the hardware transaction */
    ret
.Lhtm_mode_off:
    xabort  $TM_HTM_ABORT_MODE
.Lhtm_locked:
    xabort  $TM_HTM_ABORT_LOCKED
/* Inside a hardware transaction: flat nesting, counted in tm_htm_nested, which only hardware
 * transactions write (an abort rolls it back, so outside one it is always 0). */
.Lhtm_nested:
    movq    tm_htm_nested@gottpoff(%rip), %rax
    addl    $1, %fs:(%rax)
    movl    $2, %eax
    ret

/* Statistics on: an outermost hardware transaction records its begin site for the per-block
 * counters (a plain store before xbegin: it survives aborts). */
.Lhtm_record_site:
    movq    %fs:TM_TCB_OFFSET, %rax     /* the descriptor (tx.h) */
    testq   %rax, %rax
    jz      .Lhtm_start             /* no descriptor yet: the commit counts no block */
    movq    (%rsp), %rcx
    movq    %rcx, TM_TX_HTM_SITE_OFFSET(%rax)
    jmp     .Lhtm_start

/* Abort: %eax holds the status; every other register and the stack are as at the outermost
 * xbegin (%edi = properties with the attempt count, (%rsp) = return address). */
.Lhtm_aborted:
    pushq   %rdi                    /* also aligns %rsp to 16 for the call */
    .cfi_adjust_cfa_offset 8
    movl    %edi, %esi
    movl    %eax, %edi
    call    tm_htm_retry            /* (status, props): props for another try, or 0 */
    popq    %rdi
    .cfi_adjust_cfa_offset -8
    testl   %eax, %eax
    jz      .Lhtm_give_up
    movl    %eax, %edi
    jmp     .Lhtm_start
.Lhtm_give_up:
    andl    $~TM_PR_HTM_PRIVATE, %edi
    orl     $TM_PR_HTM_FELL_BACK, %edi
    jmp     .Lsoftware
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
