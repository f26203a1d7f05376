/* What every entry point that needs the software runtime asks about hardware transactions: are
 * we in one, and abort it if so. Only reads the htm mode flag (serial_lock.h) and executes
 * xtest/xabort; the hardware runtime itself is htm.h. */
#ifndef LIBTM_HTM_GUARD_H
#define LIBTM_HTM_GUARD_H

#include "serial_lock.h"
#include "stub_abi.h"

/* The mode flag is tm_serial_lock.htm_mode (serial_lock.h): every hardware transaction reads
 * it, so switching it off aborts them all. */

/* Transactions flat-nested in the hardware transaction the thread is in. Only written inside
 * hardware transactions (nested begins in begin_x86_64.S, nested commits), so an abort rolls
 * it back and outside one it is always 0. */
extern __thread uint32_t tm_htm_nested __attribute__((visibility("hidden")));

/* True inside a hardware transaction. The mode is on in every hardware transaction (switching
 * it off aborts them), and xtest is only executed then: CPUs without RTM fault on it. */
static inline bool tm_in_htm(void)
{
    if (likely(!tm_htm_mode_on()))
        return false;
    bool in;
    __asm__ volatile("xtest" : "=@ccnz"(in));
    return in;
}

/* Entry points that need the software runtime call this first: inside a hardware transaction
 * it aborts it, and the retry runs in software. Outside one xabort does nothing. */
static inline void tm_htm_need_software(void)
{
    if (unlikely(tm_htm_mode_on()))
        __asm__ volatile("xabort %0" : : "i"(TM_HTM_ABORT_SOFTWARE) : "memory");
}

#endif
