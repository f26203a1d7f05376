/* Fatal misuse and internal errors: one line "libtm: ..." on stderr, then a defined exit. */
#ifndef LIBTM_FATAL_H
#define LIBTM_FATAL_H

/* Prints "libtm: <message>" and exits with status 1 (as GCC's libitm does for its errors). */
void tm_fatal(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2), cold));
/* Prints "libtm: <message>" and calls abort() (misuse that GCC's runtime also aborts on). */
void tm_fatal_abort(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2), cold));
/* Prints "libtm: <message>" and goes on. */
void tm_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2), cold));

#endif
