/* The option engine (cmdline.h): matching a word to an option, taking its value, the
 * defaults, --help and the messages about a bad command line. */
#include "cmdline.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *cmdline_basename(const char *argv0)
{
    const char *slash = strrchr(argv0, '/');
    return slash ? slash + 1 : argv0;
}

static void append(char *out, size_t size, const char *fmt, const char *text)
{
    size_t n = strlen(out);
    if (n < size)
        snprintf(out + n, size - n, fmt, text);
}

/* The names of a table joined: by separator, or (NULL) as "a, b or c". */
static void join_names(char *out, size_t size, const cmdline_choice *table,
                       const char *separator)
{
    for (const cmdline_choice *c = table; c->name; c++) {
        const char *before = c == table ? "" : separator ? separator : c[1].name ? ", " : " or ";
        append(out, size, "%s", before);
        append(out, size, "%s", c->name);
    }
}

void cmdline_choice_names(const cmdline_choice *table, char *out, size_t size)
{
    out[0] = 0;
    join_names(out, size, table, NULL);
}

/* The phrases of a choice table as one list: "a, b, or c" when there are more than two or
 * one holds a comma, else "a or b". */
static void join_phrases(char *out, size_t size, const cmdline_choice *table)
{
    int count = 0;
    bool commas = false;
    for (const cmdline_choice *c = table; c->name; c++, count++)
        commas |= strchr(c->help, ',') != NULL;
    const char *last = count > 2 || commas ? ", or " : " or ";
    for (const cmdline_choice *c = table; c->name; c++) {
        append(out, size, "%s", c == table ? "" : c[1].name ? ", " : last);
        append(out, size, "%s", c->help);
    }
}

static const char *choice_name(const cmdline_choice *table, int value)
{
    for (; table->name; table++)
        if (table->value == value)
            return table->name;
    return "?";
}

/* --- what an option needs, and the message when it does not get it ------------------- */

/* What a value of o must be, for a message: o->needs, else from its kind and range. */
static void needs_text(const cmdline_option *o, char *out, size_t size)
{
    if (o->needs)
        snprintf(out, size, "%s", o->needs);
    else if (o->kind == CMDLINE_WHOLE)
        snprintf(out, size, "a whole number from %lld to %llu", o->min, o->max);
    else if (o->kind == CMDLINE_REAL && isinf(o->hi))
        snprintf(out, size, "a number %s %g", o->lo_open ? ">" : ">=", o->lo);
    else if (o->kind == CMDLINE_REAL)
        snprintf(out, size, "a number %s %g %s %g", o->lo_open ? "above" : "from", o->lo,
                 o->lo_open ? "and at most" : "to", o->hi);
    else
        snprintf(out, size, "a value");
}

/* "P: -opt needs WHAT (got V)", or "P: -opt must be a, b or c (got V)" for a choice; a
 * missing value is "nothing" in a choice's message and left out of the others. */
static void say_wrong(const cmdline_program *p, const cmdline_option *o, const char *v)
{
    char what[256];
    if (o->kind == CMDLINE_CHOICE) {
        cmdline_choice_names(o->choices, what, sizeof what);
        fprintf(stderr, "%s: %s must be %s (got %s)\n", p->name, o->name, what, v ? v : "nothing");
        return;
    }
    needs_text(o, what, sizeof what);
    if (v)
        fprintf(stderr, "%s: %s needs %s (got %s)\n", p->name, o->name, what, v);
    else
        fprintf(stderr, "%s: %s needs %s\n", p->name, o->name, what);
}

/* --- taking a value ------------------------------------------------------------------- */

static void store_number(const cmdline_option *o, void *field, double real, long long whole,
                         unsigned long long uwhole, bool negative)
{
    bool is_whole = o->kind != CMDLINE_REAL;
    switch (o->type) {
    case CMDLINE_BOOL: *(bool *)field = is_whole ? whole != 0 || uwhole != 0 : real != 0; break;
    case CMDLINE_INT: *(int *)field = is_whole ? (int)(negative ? whole : (long long)uwhole)
                                                 : (int)real; break;
    case CMDLINE_UINT: *(unsigned *)field = is_whole ? (unsigned)uwhole : (unsigned)real; break;
    case CMDLINE_ULONG: *(unsigned long *)field = is_whole ? (unsigned long)uwhole
                                                           : (unsigned long)real; break;
    case CMDLINE_FLOAT: *(float *)field = is_whole ? (float)uwhole : (float)real; break;
    case CMDLINE_DOUBLE: *(double *)field = is_whole ? (double)uwhole : real; break;
    default: break;
    }
}

static bool take_whole(const cmdline_option *o, const char *v, void *field)
{
    if (!v || !*v)
        return false;
    char *end;
    errno = 0;
    if (v[0] == '-') {
        long long x = strtoll(v, &end, 10);
        if (errno || *end || o->min >= 0 || x < o->min)
            return false;
        store_number(o, field, 0, x, 0, true);
        return true;
    }
    unsigned long long x = strtoull(v, &end, 10);
    if (errno || *end || (o->min > 0 && x < (unsigned long long)o->min) || x > o->max)
        return false;
    store_number(o, field, 0, 0, x, false);
    return true;
}

static bool take_real(const cmdline_option *o, const char *v, void *field)
{
    if (!v || !*v)
        return false;
    char *end;
    errno = 0;
    double x = strtod(v, &end);
    if (errno || *end || isnan(x) || (o->lo_open ? x <= o->lo : x < o->lo) || x > o->hi)
        return false;
    store_number(o, field, x, 0, 0, false);
    return true;
}

static bool take_choice(const cmdline_option *o, const char *v, void *field)
{
    for (const cmdline_choice *c = o->choices; v && c->name; c++)
        if (!strcmp(c->name, v)) {
            store_number(o, field, c->value, c->value,
                         (unsigned long long)(c->value < 0 ? 0 : c->value), c->value < 0);
            return true;
        }
    return false;
}

static bool takes_value(const cmdline_option *o)
{
    return o->kind != CMDLINE_HELP && o->kind != CMDLINE_VERSION && o->kind != CMDLINE_FLAG &&
           o->kind != CMDLINE_SET;
}

/* Takes option o with its value v (NULL: none, or the end of the command line). */
static cmdline_result take(const cmdline_program *p, const cmdline_option *o, const char *v,
                           void *target)
{
    void *field = (char *)target + o->field;
    bool ok = true;
    switch (o->kind) {
    case CMDLINE_HELP:
        cmdline_usage(p, stdout);
        return CMDLINE_DONE;
    case CMDLINE_VERSION:
        p->version();
        return CMDLINE_DONE;
    case CMDLINE_FLAG:
        store_number(o, field, 1, 1, 1, false);
        break;
    case CMDLINE_SET:
        store_number(o, field, o->init, (long long)o->init,
                     (unsigned long long)(o->init < 0 ? 0 : o->init), o->init < 0);
        break;
    case CMDLINE_TEXT:
        ok = v && (*v || o->empty_ok);
        if (ok && o->type == CMDLINE_STRING)
            *(const char **)field = v;
        break;
    case CMDLINE_WHOLE:
        ok = take_whole(o, v, field);
        break;
    case CMDLINE_REAL:
        ok = take_real(o, v, field);
        break;
    case CMDLINE_CHOICE:
        ok = take_choice(o, v, field);
        break;
    case CMDLINE_CALL:
        ok = v && o->call(o, v, target);
        break;
    }
    if (!ok) {
        say_wrong(p, o, v);
        return CMDLINE_BAD;
    }
    if (p->applied && !p->applied(p, o, v, target))
        return CMDLINE_BAD;
    return CMDLINE_OK;
}

/* --- finding the option a word names ------------------------------------------------- */

/* Whether word (its first len characters) is o's name or one of its aliases; with prefix,
 * whether it begins one. */
static bool names(const cmdline_option *o, const char *word, size_t len, bool prefix)
{
    const char *list = o->name;
    for (const char *next = o->aliases; list; list = next, next = NULL) {
        while (*list) {
            size_t n = strcspn(list, " ");
            if (prefix ? len < n && !strncmp(list, word, len) : len == n && !strncmp(list, word, n))
                return true;
            list += n + strspn(list + n, " ");
        }
    }
    return false;
}

/* The option `word` names (its first len characters); NULL after a message. */
static const cmdline_option *find(const cmdline_program *p, const char *word, size_t len,
                                  const char *typed)
{
    for (const cmdline_option *o = p->options; o->name; o++)
        if (names(o, word, len, false))
            return o;
    const cmdline_option *found = NULL;
    if (p->gnu && len > 2 && word[1] == '-') {
        int matches = 0;
        for (const cmdline_option *o = p->options; o->name; o++)
            if (names(o, word, len, true)) {
                matches += !found || found->field != o->field || found->kind != o->kind;
                found = found ? found : o;
            }
        if (matches > 1) {
            fprintf(stderr, "%s: option %s is ambiguous; give more of its name (see %s --help)\n",
                    p->name, typed, p->name);
            return NULL;
        }
    }
    if (!found)
        fprintf(stderr, "%s: unknown option %s (see %s --help)\n", p->name, typed, p->name);
    return found;
}

static void set_defaults(const cmdline_program *p, void *target)
{
    for (const cmdline_option *o = p->options; o->name; o++)
        if (!o->no_default && (o->kind == CMDLINE_WHOLE || o->kind == CMDLINE_REAL ||
                               o->kind == CMDLINE_CHOICE))
            store_number(o, (char *)target + o->field, o->init, (long long)o->init,
                         (unsigned long long)(o->init < 0 ? 0 : o->init), o->init < 0);
}

cmdline_result cmdline_parse(const cmdline_program *p, int argc, char **argv, void *target)
{
    set_defaults(p, target);
    for (int i = 1; i < argc; i++) {
        const char *word = argv[i];
        if (word[0] != '-' || !word[1]) {
            int last = p->word ? p->word(argc, argv, i, target) : -1;
            if (last < 0) {
                fprintf(stderr, "%s: unexpected argument %s (see %s --help)\n", p->name, word,
                        p->name);
                return CMDLINE_BAD;
            }
            i = last;
            continue;
        }
        const char *name = p->fold_dashes && word[1] == '-' ? word + 1 : word;
        const char *equals = p->gnu && word[1] == '-' ? strchr(name, '=') : NULL;
        size_t len = equals ? (size_t)(equals - name) : strlen(name);
        const cmdline_option *o = find(p, name, len, word);
        if (!o)
            return CMDLINE_BAD;
        const char *value = NULL;
        if (equals && !takes_value(o)) {
            fprintf(stderr, "%s: %s takes no value (got %s)\n", p->name, o->name, equals + 1);
            return CMDLINE_BAD;
        } else if (equals) {
            value = equals + 1;
        } else if (takes_value(o) && i + 1 < argc) {
            value = argv[++i];
        }
        cmdline_result r = take(p, o, value, target);
        if (r != CMDLINE_OK)
            return r;
    }
    return CMDLINE_OK;
}

/* --- --help ------------------------------------------------------------------------- */

static void default_of(const cmdline_option *o, char *out, size_t size,
                       const cmdline_program *p)
{
    const char *text = p->default_text ? p->default_text(o) : NULL;
    if (text)
        snprintf(out, size, "%s", text);
    else if (o->kind == CMDLINE_CHOICE)
        snprintf(out, size, "%s", choice_name(o->choices, (int)o->init));
    else
        snprintf(out, size, "%g", o->init);
}

/* An option's help with its {placeholders} filled in. */
static void fill_help(const cmdline_program *p, const cmdline_option *o, char *out,
                      size_t size)
{
    out[0] = 0;
    for (const char *h = o->help; *h;) {
        char part[512] = "";
        size_t skip = 1;
        if (!strncmp(h, "{default}", 9)) {
            default_of(o, part, sizeof part, p);
            skip = 9;
        } else if (!strncmp(h, "{max}", 5)) {
            snprintf(part, sizeof part, "%llu", o->max);
            skip = 5;
        } else if (!strncmp(h, "{names}", 7) && o->choices) {
            join_names(part, sizeof part, o->choices, " | ");
            skip = 7;
        } else if (!strncmp(h, "{phrases}", 9) && o->choices) {
            join_phrases(part, sizeof part, o->choices);
            skip = 9;
        } else {
            part[0] = *h;
            part[1] = 0;
        }
        append(out, size, "%s", part);
        h += skip;
    }
}

/* The left column: "NAME VALUE", shown, or with short_column "-o, NAME VALUE". */
static void left_column(const cmdline_program *p, const cmdline_option *o, char *out,
                        size_t size)
{
    out[0] = 0;
    if (o->shown) {
        snprintf(out, size, "%s", o->shown);
        return;
    }
    if (p->short_column) {
        const char *a = o->aliases;
        bool letter = a && a[0] == '-' && a[1] && (!a[2] || a[2] == ' ');
        snprintf(out, size, letter ? "%.2s, " : "    ", letter ? a : "");
    }
    append(out, size, "%s", o->name);
    if (o->value) {
        append(out, size, " %s", o->value);
    }
}

/* "  LEFT" padded to the column (or "  LEFT  " when it is too long), then the text: lines
 * break at \n and, with a width, words wrap before it. */
static void print_option(FILE *out, const cmdline_program *p, const cmdline_option *o)
{
    char left[96], text[2048];
    left_column(p, o, left, sizeof left);
    fill_help(p, o, text, sizeof text);
    int column = (int)strlen(left) > p->column - 4 ? fprintf(out, "  %s  ", left)
                                                   : fprintf(out, "  %-*s", p->column - 2, left);
    for (const char *line = text;;) {
        size_t line_len = strcspn(line, "\n");
        if (p->width <= 0) {
            fprintf(out, "%.*s", (int)line_len, line);
        } else {
            bool line_empty = true;
            for (const char *w = line; w < line + line_len;) {
                size_t len = strcspn(w, " \n");
                if (!line_empty && column + 1 + (int)len > p->width) {
                    column = fprintf(out, "\n%*s", p->column, "") - 1;
                    line_empty = true;
                }
                column += fprintf(out, "%s%.*s", line_empty ? "" : " ", (int)len, w);
                line_empty = false;
                w += len;
                w += strspn(w, " ");
            }
        }
        fputc('\n', out);
        if (!line[line_len])
            break;
        line += line_len + 1;
        column = fprintf(out, "%*s", p->column, "");
    }
}

void cmdline_usage(const cmdline_program *p, FILE *out)
{
    if (p->usage_head)
        p->usage_head(out, p);
    for (const cmdline_option *o = p->options; o->name; o++)
        if (o->help)
            print_option(out, p, o);
    if (p->usage_tail)
        p->usage_tail(out, p);
}
