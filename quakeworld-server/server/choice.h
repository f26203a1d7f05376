/* A mode's table: the names an option such as -sync takes, the value each stands for and
 * its phrase in qwsv --help. One table per option drives parsing (name -> value) and --help
 * (options.c, through the option engine) and printing (value -> name: log lines, the
 * serverinfo, qwsv-stats). A table ends with an entry whose name is NULL. */
#ifndef SV_CHOICE_H
#define SV_CHOICE_H

#include "cmdline.h"

/* {name, value, help}: the option engine's choice, so that the table is an option's too. */
typedef cmdline_choice sv_choice;

/* The name of `value` ("?" for a value the table does not hold). */
static inline const char *sv_choice_name(const sv_choice *table, int value)
{
    for (; table->name; table++)
        if (table->value == value)
            return table->name;
    return "?";
}

#endif
