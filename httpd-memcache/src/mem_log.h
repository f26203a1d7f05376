/* Message numbers for the module's log lines.
 *
 * httpd's own modules start each log message with a number (APLOGNO: "AH00123: "), so that a
 * line in error.log leads to one place in the source and stays findable when its wording
 * changes. httpd hands out its AH numbers from a registry of its own; a module built outside
 * httpd takes its own prefix so that its numbers never collide with httpd's: "MC" + 5 digits.
 * README.md ("Log messages") lists every number; tests/log-numbers checks that the two agree
 * and that no number is used twice. */
#ifndef MEM_LOG_H
#define MEM_LOG_H

#define MCLOGNO(n) "MC" #n ": "

#endif
