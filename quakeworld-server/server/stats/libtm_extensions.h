/* libtm's own entries, which GCC's libitm lacks, found at run time (see libtm_extensions.c). */
#ifndef SV_STATS_LIBTM_EXTENSIONS_H
#define SV_STATS_LIBTM_EXTENSIONS_H

#include <stddef.h>
#include <libtm.h>

/* Each is NULL when the process runs on another TM runtime (GCC's libitm) or without one. */
struct sv_libtm_extensions {
    void (*totals_read)(struct libtm_totals *totals, size_t size);
    const char *(*adaptive_mode)(void) __attribute__((transaction_pure));
    int (*serial_elsewhere)(void) __attribute__((transaction_pure));
};

extern struct sv_libtm_extensions sv_libtm;

#endif
