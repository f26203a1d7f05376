/* Start-up of the runtime (startup.c), once, when the library loads or at the first
 * transaction if that comes first (thread.c calls it). */
#ifndef LIBTM_STARTUP_H
#define LIBTM_STARTUP_H

void tm_startup(void);

#endif
