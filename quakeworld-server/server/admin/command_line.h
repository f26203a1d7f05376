/* Console commands from the command line, in their order: "+set NAME VALUE", "+map NAME",
 * "+exec FILE" (any console command after a '+', with the words up to the next +command or
 * -option), and the classic options that set cvars (-map, -maxclients, -timelimit,
 * -fraglimit), recorded as the commands they stand for. They run after server.cfg, so the
 * command line overrides the file. */
#ifndef SV_ADMIN_COMMAND_LINE_H
#define SV_ADMIN_COMMAND_LINE_H

#include <stdbool.h>

/* argv[i] starts with '+': records that command; returns the index of its last word. */
int sv_cmdline_plus(int argc, char **argv, int i);
/* Records "name value" (a classic option). */
void sv_cmdline_add(const char *name, const char *value);
/* Runs the recorded commands in order; false if one failed (each failure is reported). */
bool sv_cmdline_run(void);

#endif
