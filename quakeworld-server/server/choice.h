/* A mode's table: the names an option such as -sync takes, the value each stands for and
 * its phrase in qwsv --help. One table per option drives parsing (name -> value, options.c),
 * --help (options.c) and printing (value -> name: log lines, the serverinfo, qwsv-stats).
 * A table ends with an entry whose name is NULL. */
#ifndef SV_CHOICE_H
#define SV_CHOICE_H

#include <stddef.h>
#include <string.h>

typedef struct sv_choice {
    const char *name;
    int value;
    const char *help;
} sv_choice;

/* The entry called `name`, or NULL. */
static inline const sv_choice *sv_choice_named(const sv_choice *table, const char *name)
{
    for (; table->name; table++)
        if (!strcmp(table->name, name))
            return table;
    return NULL;
}

/* The name of `value` ("?" for a value the table does not hold). */
static inline const char *sv_choice_name(const sv_choice *table, int value)
{
    for (; table->name; table++)
        if (table->value == value)
            return table->name;
    return "?";
}

#endif
