/* The server console's command interpreter: what server.cfg, +commands on the command line,
 * the stdin console and rcon run. A line holds commands separated by ';' (outside quotes);
 * "//" starts a comment. A word is a command (admin/commands.c) or a cvar (admin/cvar.h):
 * "NAME" prints it, "NAME VALUE" sets it. Output goes to the log, or to the rcon reply while
 * one is being built (sv_cmd_redirect_begin). Master thread only, between frames or while
 * the workers are parked (receive phase, U). */
#ifndef SV_ADMIN_INTERPRETER_H
#define SV_ADMIN_INTERPRETER_H

#include <stdbool.h>
#include <stddef.h>

#include "net/tokenize.h"

typedef void (*sv_cmd_fn)(const sv_args *a);
typedef struct sv_cmd {
    const char *name;
    sv_cmd_fn fn;
    const char *usage;                /* "NAME ARGS: what it does" */
} sv_cmd;

/* Runs every command of text (lines and ';'). `where` names the origin for error messages
 * ("server.cfg" gives "server.cfg:LINE: ..."; NULL for console/rcon). False if a command
 * failed (each failure is reported, the rest still runs). */
bool sv_cmd_execute(const char *text, const char *where);
/* Runs a file of commands from the game directory (BASEDIR/id1). missing_ok: a missing file
 * is no error (server.cfg). */
bool sv_cmd_exec_file(const char *name, bool missing_ok);
/* The game directory: where maps/ and server.cfg are. */
const char *sv_cmd_gamedir(char *buf, size_t size);

/* Output of commands: one or more lines (a trailing newline is added when missing). */
void sv_cmd_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Reports a command's failure (counted: sv_cmd_execute returns false). */
void sv_cmd_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* While redirected, output is collected in buf (truncated at size) instead of logged. */
void sv_cmd_redirect_begin(char *buf, size_t size);
void sv_cmd_redirect_end(void);

/* Who runs the commands, for the log ("console", "server.cfg", "rcon from ADDR"). */
void sv_cmd_set_source(const char *source);
const char *sv_cmd_source(void);

/* The command table (admin/commands.c). */
extern const sv_cmd sv_admin_commands[];

#endif
