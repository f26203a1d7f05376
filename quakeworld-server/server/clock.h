/* The server's monotonic clock: seconds since its first call (main calls it at start-up). */
#ifndef SV_CLOCK_H
#define SV_CLOCK_H

double sv_clock(void);

#endif
