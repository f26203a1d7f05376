/* qwsv's command line: one table of options (name, value, help, and what each sets) drives
 * the parsing, qwsv --help and the messages about a bad command line. The options that
 * pick a mode (-sync, -sched, -jobweight) take their names, values and phrases from the
 * mode's own table (choice.h). Console commands given with a '+', and the classic options
 * that stand for console commands (-map, -maxclients, -timelimit, -fraglimit), are recorded
 * for admin/command_line.h, which runs them after server.cfg. */
#ifndef SV_OPTIONS_H
#define SV_OPTIONS_H

#include <stdbool.h>

#include "server.h"

/* Parses argv into *o. What an option that stands for a console command sets keeps the
 * cvar's default until then (sv_cvar_init ran first); every other option's field gets its
 * default here. --help and --version print and exit 0. False after a message on stderr for
 * a bad command line. */
bool sv_options_parse(int argc, char **argv, sv_options *o);

#endif
