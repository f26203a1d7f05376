/* The console's command interpreter (see admin/interpreter.h). */
#include "admin/interpreter.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "admin/cvar.h"
#include "log.h"
#include "server.h"

#define MAX_EXEC_DEPTH 8

static struct {
    char *buf;
    size_t size, len;
} redirect;
static int errors;                    /* failures since the current sv_cmd_execute began */
static const char *error_where;       /* "file:line: " prefix of error messages */
static int exec_depth;
static char source[96] = "console";

void sv_cmd_set_source(const char *text)
{
    snprintf(source, sizeof source, "%s", text);
}

const char *sv_cmd_source(void)
{
    return source;
}

void sv_cmd_redirect_begin(char *buf, size_t size)
{
    redirect.buf = buf;
    redirect.size = size;
    redirect.len = 0;
    if (size)
        buf[0] = 0;
}

void sv_cmd_redirect_end(void)
{
    redirect.buf = NULL;
}

static void emit(const char *text)
{
    size_t n = strlen(text);
    bool newline = n > 0 && text[n - 1] == '\n';
    if (redirect.buf) {
        /* cut when full: the reply has a size limit anyway */
        char *end = redirect.buf + redirect.len;
        snprintf(end, redirect.size - redirect.len, "%s%s", text, newline ? "" : "\n");
        redirect.len += strlen(end);
        return;
    }
    /* the log takes one line at a time */
    const char *p = text;
    while (*p) {
        size_t len = strcspn(p, "\n");
        sv_log("%.*s", (int)len, p);
        p += len;
        if (*p)
            p++;
    }
}

void sv_cmd_printf(const char *fmt, ...)
{
    char text[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    emit(text);
}

void sv_cmd_error(const char *fmt, ...)
{
    char text[1024], line[1200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    snprintf(line, sizeof line, "%s%s", error_where ? error_where : "", text);
    errors++;
    emit(line);
}

static void print_cvar(const sv_cvar *cv)
{
    if (cv->secret)
        sv_cmd_printf("\"%s\" is %s", cv->name, cv->value[0] ? "set (not shown)" : "empty");
    else
        sv_cmd_printf("\"%s\" is \"%s\" (default \"%s\")", cv->name, cv->value,
                      cv->default_value);
}

/* Edit distance of two short names (case-insensitive), for "did you mean". */
static int distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 31 || lb > 31)
        return 99;
    int d[32][32];
    for (size_t i = 0; i <= la; i++)
        d[i][0] = (int)i;
    for (size_t j = 0; j <= lb; j++)
        d[0][j] = (int)j;
    for (size_t i = 1; i <= la; i++)
        for (size_t j = 1; j <= lb; j++) {
            int cost = tolower((unsigned char)a[i - 1]) != tolower((unsigned char)b[j - 1]);
            int best = d[i - 1][j - 1] + cost;
            if (d[i - 1][j] + 1 < best)
                best = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < best)
                best = d[i][j - 1] + 1;
            d[i][j] = best;
        }
    return d[la][lb];
}

typedef struct nearest {
    const char *word, *name;
    int dist;
} nearest;

static void consider(nearest *n, const char *name)
{
    int d = distance(n->word, name);
    if (d < n->dist) {
        n->dist = d;
        n->name = name;
    }
}

static void consider_cvar(const sv_cvar *cv, void *arg)
{
    consider(arg, cv->name);
}

static void execute_one(const char *command)
{
    sv_args a;
    if (!sv_tokenize(command, &a)) {
        sv_cmd_error("too many or too long words (at most %d words of %d characters): %.60s",
                     SV_MAX_ARGS, SV_MAX_ARG_LEN - 1, command);
        return;
    }
    if (a.argc == 0)
        return;
    for (const sv_cmd *c = sv_admin_commands; c->name; c++)
        if (!strcasecmp(c->name, a.argv[0])) {
            c->fn(&a);
            return;
        }
    sv_cvar *cv = sv_cvar_find(a.argv[0]);
    if (!cv) {
        nearest n = {.word = a.argv[0], .dist = 3}; /* at most two typos away */
        for (const sv_cmd *c = sv_admin_commands; c->name; c++)
            consider(&n, c->name);
        sv_cvar_each(consider_cvar, &n);
        if (n.name)
            sv_cmd_error("unknown command or variable \"%s\": did you mean \"%s\"? (cmdlist "
                         "and cvarlist list them)", a.argv[0], n.name);
        else
            sv_cmd_error("unknown command or variable \"%s\" (cmdlist and cvarlist list them)",
                         a.argv[0]);
        return;
    }
    if (a.argc == 1) {
        print_cvar(cv);
        return;
    }
    if (a.argc > 2) {
        sv_cmd_error("%s takes one value: put it in quotes (%s \"%s ...\")", cv->name, cv->name,
                     a.argv[1]);
        return;
    }
    char err[256];
    if (!sv_cvar_set(cv->name, a.argv[1], err, sizeof err))
        sv_cmd_error("%s", err);
}

/* Splits one line at ';' outside quotes (a "//" comment ends the line). */
static void execute_line(const char *line)
{
    char command[1024];
    size_t n = 0;
    bool quoted = false;
    for (const char *p = line;; p++) {
        if (!quoted && p[0] == '/' && p[1] == '/')
            break;
        if (!*p || (!quoted && *p == ';')) {
            command[n < sizeof command ? n : sizeof command - 1] = 0;
            if (n >= sizeof command)
                sv_cmd_error("command longer than %zu characters: %.60s...",
                             sizeof command - 1, command);
            else
                execute_one(command);
            n = 0;
            if (!*p)
                return;
            continue;
        }
        if (*p == '"')
            quoted = !quoted;
        if (n < sizeof command)
            command[n++] = *p;
    }
    command[n < sizeof command ? n : sizeof command - 1] = 0;
    if (n < sizeof command)
        execute_one(command);
}

bool sv_cmd_execute(const char *text, const char *where)
{
    int errors_before = errors;
    const char *saved_where = error_where;
    char prefix[600];
    int lineno = 1;
    for (const char *p = text; *p; lineno++) {
        size_t len = strcspn(p, "\n");
        char line[2048];
        if (len >= sizeof line) {
            snprintf(prefix, sizeof prefix, "%s%s%d: ", where ? where : "", where ? ":" : "",
                     lineno);
            error_where = prefix;
            sv_cmd_error("line longer than %zu characters", sizeof line - 1);
        } else {
            memcpy(line, p, len);
            line[len] = 0;
            if (len && line[len - 1] == '\r')
                line[len - 1] = 0;
            if (where) {
                snprintf(prefix, sizeof prefix, "%s:%d: ", where, lineno);
                error_where = prefix;
            }
            execute_line(line);
        }
        error_where = saved_where;
        p += len;
        if (*p)
            p++;
    }
    return errors == errors_before;
}

const char *sv_cmd_gamedir(char *buf, size_t size)
{
    snprintf(buf, size, "%s/id1", sv.opt.basedir);
    return buf;
}

bool sv_cmd_exec_file(const char *name, bool missing_ok)
{
    char dir[512], path[1024];
    if (!*name || name[0] == '/' || strstr(name, "..")) {
        sv_cmd_error("exec %s: give a file name inside the game directory %s (not absolute, "
                     "no ..)", name, sv_cmd_gamedir(dir, sizeof dir));
        return false;
    }
    snprintf(path, sizeof path, "%s/%s", sv_cmd_gamedir(dir, sizeof dir), name);
    FILE *f = fopen(path, "r");
    if (!f) {
        if (missing_ok && errno == ENOENT) {
            sv_log("no %s: using the defaults and the command line", path);
            return true;
        }
        sv_cmd_error("exec %s: cannot open %s: %s", name, path, strerror(errno));
        return false;
    }
    char *text = NULL;
    size_t size = 0;
    FILE *mem = open_memstream(&text, &size);
    char chunk[4096];
    size_t got;
    while (mem && (got = fread(chunk, 1, sizeof chunk, f)) > 0)
        fwrite(chunk, 1, got, mem);
    fclose(f);
    if (!mem) {
        sv_cmd_error("exec %s: out of memory", name);
        return false;
    }
    fclose(mem);
    if (exec_depth >= MAX_EXEC_DEPTH) {
        sv_cmd_error("exec %s: more than %d nested exec (does a file exec itself?)", name,
                     MAX_EXEC_DEPTH);
        free(text);
        return false;
    }
    sv_log("exec %s", path);
    exec_depth++;
    bool ok = sv_cmd_execute(text, path);
    exec_depth--;
    free(text);
    return ok;
}
