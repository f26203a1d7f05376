/* Functions compiled WITHOUT -fgnu-tm and without any transaction attribute: a transaction
 * that calls them has no instrumented clone to use and must go serial-irrevocable. */
#ifndef TMTEST_UNSAFE_HELPERS_H
#define TMTEST_UNSAFE_HELPERS_H

/* write(2) of one long to fd; returns what write returned. */
long unsafe_write_long(int fd, long value);

/* What _ITM_inTransaction() returned during the last call of unsafe_increment. */
extern int unsafe_increment_saw_mode;
/* Returns value + 1 and records _ITM_inTransaction(). */
long unsafe_increment(long value);
/* A pointer to unsafe_increment, so that the caller cannot tell what it calls. */
long (*unsafe_increment_pointer(void))(long);

/* Does nothing, but the compiler cannot know that. */
void unsafe_nothing(void);

#endif
