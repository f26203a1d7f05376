/* Commands from the command line (see admin/command_line.h). */
#include "admin/command_line.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "admin/interpreter.h"

#define MAX_COMMANDS 64
#define COMMAND_SIZE 1024

static char commands[MAX_COMMANDS][COMMAND_SIZE];
static int num_commands, num_lost;

/* Appends a word, quoted when it holds blanks or ';' (the shell removed the user's quotes). */
static void append_word(char *cmd, const char *word)
{
    size_t n = strlen(cmd);
    bool quote = !*word || strpbrk(word, " \t;") != NULL;
    snprintf(cmd + n, COMMAND_SIZE - n, "%s%s%s%s", n ? " " : "", quote ? "\"" : "", word,
             quote ? "\"" : "");
}

/* An argument that starts the next option: "+word" or "-letter" (-1 is a value). */
static bool starts_option(const char *a)
{
    return a[0] == '+' || (a[0] == '-' && (isalpha((unsigned char)a[1]) || a[1] == '-'));
}

static char *new_command(void)
{
    if (num_commands == MAX_COMMANDS) {
        num_lost++;
        return NULL;
    }
    char *cmd = commands[num_commands++];
    cmd[0] = 0;
    return cmd;
}

int sv_cmdline_plus(int argc, char **argv, int i)
{
    char *cmd = new_command();
    if (cmd)
        append_word(cmd, argv[i] + 1);
    while (i + 1 < argc && !starts_option(argv[i + 1])) {
        i++;
        if (cmd)
            append_word(cmd, argv[i]);
    }
    return i;
}

void sv_cmdline_add(const char *name, const char *value)
{
    char *cmd = new_command();
    if (!cmd)
        return;
    append_word(cmd, name);
    append_word(cmd, value);
}

bool sv_cmdline_run(void)
{
    bool ok = num_lost == 0;
    if (num_lost)
        sv_cmd_error("command line: more than %d commands (%d ignored): put them in a file "
                     "and use +exec FILE", MAX_COMMANDS, num_lost);
    sv_cmd_set_source("command line");
    for (int i = 0; i < num_commands; i++) {
        if (!commands[i][0]) {
            sv_cmd_error("command line: a lone '+' (write +set NAME VALUE, +map NAME, ...)");
            ok = false;
            continue;
        }
        if (!sv_cmd_execute(commands[i], NULL)) {
            sv_cmd_printf("  (from the command line: %s)", commands[i]);
            ok = false;
        }
    }
    sv_cmd_set_source("console");
    return ok;
}
