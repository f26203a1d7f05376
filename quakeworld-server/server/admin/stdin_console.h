/* The console on stdin: when stdin is a terminal or a pipe, each line typed (or written to
 * the pipe) is a console command (admin/interpreter.h), run by the master at the start of
 * the next frame, its output in the log. End of input (^D, the pipe's writer gone) closes
 * the console, not the server. Other stdin (a file, /dev/null) is not read. */
#ifndef SV_ADMIN_STDIN_CONSOLE_H
#define SV_ADMIN_STDIN_CONSOLE_H

/* Starts the reader thread if stdin is a terminal or a pipe. */
void sv_console_start(void);
/* Master, between frames: runs the lines read since the last call. */
void sv_console_run_pending(void);
/* The server is stopping (quit): the end of the input is not reported, as the server does
 * not keep running. */
void sv_console_stopping(void);

#endif
