/* The option engine of the project's programs (qwsv, qwbot, qwmapgen, the libtm benchmarks):
 * one table of options per program -- name, value, help, what each sets and what it
 * accepts -- drives the parsing, the defaults, --help and the messages about a bad command
 * line, which name the option and what it needs ("qwsv: -port needs a whole number from 1
 * to 65535 (got x)"). Plain C, no TM: every program links cmdline.o as it is. */
#ifndef CMDLINE_H
#define CMDLINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef enum cmdline_kind {
    CMDLINE_HELP,    /* prints the usage on stdout: the parse ends with CMDLINE_DONE */
    CMDLINE_VERSION, /* the program's version(): CMDLINE_DONE */
    CMDLINE_FLAG,    /* takes no value; stores 1 (true) */
    CMDLINE_SET,     /* takes no value; stores `init` (-noprogress: 0) */
    CMDLINE_TEXT,    /* a word, not empty unless empty_ok */
    CMDLINE_WHOLE,   /* a whole number from min to max */
    CMDLINE_REAL,    /* a number from lo (above lo when lo_open) to hi */
    CMDLINE_CHOICE,  /* a name of `choices`, stored as its value */
    CMDLINE_CALL,    /* call() takes the value; false: "needs `needs`" */
} cmdline_kind;

/* What the field an option sets is (CMDLINE_FIELD finds it); NONE: nothing is stored (the
 * value is only checked, for the program's applied()). */
typedef enum cmdline_type {
    CMDLINE_NONE, CMDLINE_BOOL, CMDLINE_INT, CMDLINE_UINT, CMDLINE_ULONG, CMDLINE_FLOAT,
    CMDLINE_DOUBLE, CMDLINE_STRING, CMDLINE_OTHER,
} cmdline_type;

#define CMDLINE_TYPE_OF(x) _Generic((x), bool: CMDLINE_BOOL, int: CMDLINE_INT,               \
    unsigned: CMDLINE_UINT, unsigned long: CMDLINE_ULONG, float: CMDLINE_FLOAT,             \
    double: CMDLINE_DOUBLE, const char *: CMDLINE_STRING, default: CMDLINE_OTHER)
/* .field and .type of member m of struct type t (m may be nested: run.threads). */
#define CMDLINE_FIELD(t, m) .field = offsetof(t, m), .type = CMDLINE_TYPE_OF(((t *)0)->m)

/* A name an option takes, the value it stands for and its phrase in --help. A table ends
 * with an entry whose name is NULL. */
typedef struct cmdline_choice {
    const char *name;
    int value;
    const char *help;
} cmdline_choice;

typedef struct cmdline_option cmdline_option;
struct cmdline_option {
    const char *name;         /* as typed: "-port", "--size"; messages and --help use it */
    const char *value;        /* what follows the name in --help ("N"); NULL: nothing */
    const char *help;         /* --help's text, NULL: not listed. Lines break at \n (and
                                 words wrap at the program's width); {default}, {max} and,
                                 for a choice, {names} and {phrases} are filled in */
    cmdline_kind kind;
    const char *aliases;      /* other spellings, space-separated ("-h -help"), or NULL */
    size_t field;             /* offsetof(the program's struct, what it sets) */
    cmdline_type type;
    double init;              /* the field's default, what SET stores, or a call's constant */
    bool no_default;          /* the field keeps what it holds (the program's own default) */
    long long min;            /* CMDLINE_WHOLE */
    unsigned long long max;
    double lo, hi;            /* CMDLINE_REAL */
    bool lo_open;
    bool empty_ok;            /* CMDLINE_TEXT: "" is a value */
    const char *needs;        /* what a missing or wrong value lacks, when not the kind's
                                 own ("a whole number from 1 to 8") */
    const cmdline_choice *choices;  /* CMDLINE_CHOICE */
    /* CMDLINE_CALL: stores value into target (the program's struct); false: it is wrong */
    bool (*call)(const cmdline_option *o, const char *value, void *target);
    const char *shown;        /* --help's left column when not "NAME VALUE" */
    const void *data;         /* the program's own (qwsv: the console command it stands for) */
};

typedef struct cmdline_program cmdline_program;
struct cmdline_program {
    const char *name;                /* messages start "NAME: " */
    const cmdline_option *options;   /* ends with an entry whose name is NULL */
    int column;                      /* --help: where an option's text starts */
    int width;                       /* --help: where lines end (0: only at \n) */
    bool fold_dashes;                /* "--name" is also "-name" (Quake style) */
    bool gnu;                        /* "--name=value" and unique abbreviations of names,
                                        as getopt_long takes them */
    bool short_column;               /* --help: a one-letter alias stands first ("-o, --output") */
    void (*usage_head)(FILE *out, const cmdline_program *p);  /* before the options */
    void (*usage_tail)(FILE *out, const cmdline_program *p);  /* after them */
    void (*version)(void);
    /* {default} of an option when not its init (qwsv: a console variable's default), or NULL */
    const char *(*default_text)(const cmdline_option *o);
    /* After each option taken (value: its word, NULL for a flag); false, after a message,
     * stops the parse */
    bool (*applied)(const cmdline_program *p, const cmdline_option *o, const char *value,
                    void *target);
    /* A word that is no option (argv[i]): returns the index of its last word taken, or -1
     * ("unexpected argument"). NULL: every such word is unexpected. */
    int (*word)(int argc, char **argv, int i, void *target);
    void *user;                      /* for the callbacks */
};

typedef enum cmdline_result {
    CMDLINE_OK,   /* go on */
    CMDLINE_DONE, /* --help or --version was printed: exit 0 */
    CMDLINE_BAD,  /* a message on stderr said what is wrong */
} cmdline_result;

/* Sets every option's field to its default (those with a field and no no_default), then
 * reads argv[1..] into target. */
cmdline_result cmdline_parse(const cmdline_program *p, int argc, char **argv, void *target);
/* The usage: usage_head, the options with help, usage_tail. */
void cmdline_usage(const cmdline_program *p, FILE *out);
/* The names of a choice table for a message: "a, b or c". */
void cmdline_choice_names(const cmdline_choice *table, char *out, size_t size);
/* argv[0] without its directories. */
const char *cmdline_basename(const char *argv0);

#endif
