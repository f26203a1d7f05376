/* Data flow from one _ITM_mem* call's %rax to the next one's %rdi, read from objdump -d (see
 * result-reuse.h). A small forward pass over one straight-line stretch: after an _ITM_mem*
 * call, %rax holds its result; mov, add, sub and lea carry that into other registers; any
 * other write to a register drops it; a call keeps only the callee-saved registers; a jump or
 * return ends the stretch. */
#include "result-reuse.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *listing; /* objdump's whole output */

int reuse_load(const char *binary, char *error, size_t error_size)
{
    char command[512];
    snprintf(command, sizeof command, "objdump -d --no-show-raw-insn '%s' 2>&1", binary);
    /* A sanitizer preloaded into the test (make check-asan) must not run in the shell and
     * objdump too: its leak report at their exit would fail the command. */
    unsetenv("LD_PRELOAD");
    FILE *pipe = popen(command, "r");
    if (!pipe) {
        snprintf(error, error_size, "cannot run \"%s\"", command);
        return -1;
    }
    size_t size = 0, capacity = 1 << 20;
    listing = malloc(capacity);
    size_t got;
    while (listing && (got = fread(listing + size, 1, capacity - size - 1, pipe)) > 0) {
        size += got;
        if (capacity - size < 4096)
            listing = realloc(listing, capacity *= 2);
    }
    int status = pclose(pipe);
    if (!listing) {
        snprintf(error, error_size, "out of memory reading objdump's output");
        return -1;
    }
    listing[size] = '\0';
    if (status != 0) {
        snprintf(error, error_size, "\"%s\" failed (status %d; objdump is in Debian's "
                 "binutils): %.200s", command, status, listing);
        return -1;
    }
    return 0;
}

/* General-purpose registers by number; each 64-bit name with its narrower aliases. */
static const char *const register_names[16][4] = {
    { "rax", "eax", "ax", "al" },     { "rcx", "ecx", "cx", "cl" },
    { "rdx", "edx", "dx", "dl" },     { "rbx", "ebx", "bx", "bl" },
    { "rsp", "esp", "sp", "spl" },    { "rbp", "ebp", "bp", "bpl" },
    { "rsi", "esi", "si", "sil" },    { "rdi", "edi", "di", "dil" },
    { "r8", "r8d", "r8w", "r8b" },    { "r9", "r9d", "r9w", "r9b" },
    { "r10", "r10d", "r10w", "r10b" }, { "r11", "r11d", "r11w", "r11b" },
    { "r12", "r12d", "r12w", "r12b" }, { "r13", "r13d", "r13w", "r13b" },
    { "r14", "r14d", "r14w", "r14b" }, { "r15", "r15d", "r15w", "r15b" },
};
enum { RAX = 0, RDI = 7 };
/* rbx, rbp, r12-r15 survive a call (SysV x86-64). */
#define CALLEE_SAVED ((1u << 3) | (1u << 5) | (1u << 12) | (1u << 13) | (1u << 14) | (1u << 15))

/* Register operand "%name": its number, and whether it is the full 64-bit register. */
static int register_number(const char *operand, size_t len, int *full)
{
    if (len < 2 || operand[0] != '%')
        return -1;
    for (int r = 0; r < 16; r++)
        for (int alias = 0; alias < 4; alias++)
            if (strlen(register_names[r][alias]) == len - 1 &&
                strncmp(operand + 1, register_names[r][alias], len - 1) == 0) {
                *full = alias == 0;
                return r;
            }
    return -1;
}

/* Registers named anywhere in an operand (the base and index of a memory operand). */
static unsigned registers_in(const char *operand, size_t len)
{
    unsigned set = 0;
    for (size_t i = 0; i < len; i++) {
        if (operand[i] != '%')
            continue;
        size_t j = i + 1;
        while (j < len && operand[j] >= '0' && (operand[j] <= '9' || operand[j] >= 'a'))
            j++;
        int full;
        int r = register_number(operand + i, j - i, &full);
        if (r >= 0)
            set |= 1u << r;
        i = j - 1;
    }
    return set;
}

/* The call target's name between '<' and '>' (without "@plt" and "+offset"). */
static void call_target(const char *line, const char *end, char *name, size_t size)
{
    name[0] = '\0';
    const char *open = memchr(line, '<', (size_t)(end - line));
    if (!open)
        return;
    size_t n = 0;
    for (const char *p = open + 1; p < end && *p != '>' && *p != '@' && *p != '+' && n + 1 < size; p++)
        name[n++] = *p;
    name[n] = '\0';
}

static int is_transfer(const char *name)
{
    return strncmp(name, "_ITM_mem", 8) == 0;
}

/* Adds one instruction to the finding's text, with its padding squeezed to one space. */
static void append(char *how, size_t size, const char *text, size_t len)
{
    size_t used = strlen(how);
    if (used + len + 3 >= size)
        return;
    if (used) {
        how[used++] = ';';
        how[used++] = ' ';
    }
    for (size_t i = 0; i < len; i++)
        if (text[i] != ' ' || (i > 0 && text[i - 1] != ' '))
            how[used++] = text[i];
    how[used] = '\0';
}

int reuse_in_function(const char *symbol, struct reuse_finding *found)
{
    char header[256];
    snprintf(header, sizeof header, " <%s>:\n", symbol);
    const char *p = listing ? strstr(listing, header) : NULL;
    if (!p)
        return -1;
    p = strchr(p, '\n') + 1;
    unsigned carried = 0; /* registers that hold the last _ITM_mem* result */
    char last[64] = "", how[160] = "";
    while (*p && *p != '\n') { /* a blank line ends the function */
        const char *end = strchr(p, '\n');
        if (!end)
            end = p + strlen(p);
        const char *tab = memchr(p, '\t', (size_t)(end - p));
        const char *insn = tab ? tab + 1 : end;
        const char *ops = insn;
        while (ops < end && *ops != ' ')
            ops++;
        size_t mnemonic_len = (size_t)(ops - insn);
        while (ops < end && *ops == ' ')
            ops++;
        const char *ops_end = memchr(ops, '#', (size_t)(end - ops));
        if (!ops_end)
            ops_end = end;
        while (ops_end > ops && ops_end[-1] == ' ')
            ops_end--;
        /* The last operand (AT&T: the destination) and the first (a source). */
        const char *last_op = ops;
        int depth = 0;
        for (const char *q = ops; q < ops_end; q++) {
            depth += *q == '(' ? 1 : *q == ')' ? -1 : 0;
            if (*q == ',' && depth == 0)
                last_op = q + 1;
        }
        size_t first_len = last_op > ops ? (size_t)(last_op - 1 - ops) : (size_t)(ops_end - ops);
        size_t last_len = (size_t)(ops_end - last_op);

        if (mnemonic_len >= 4 && strncmp(insn, "call", 4) == 0) {
            char target[64];
            call_target(insn, end, target, sizeof target);
            if (is_transfer(target)) {
                if (last[0] && (carried & (1u << RDI))) {
                    snprintf(found->first, sizeof found->first, "%s", last);
                    snprintf(found->second, sizeof found->second, "%s", target);
                    snprintf(found->how, sizeof found->how, "%s", how);
                    return 1;
                }
                snprintf(last, sizeof last, "%s", target);
                carried = 1u << RAX;
                how[0] = '\0';
            } else {
                carried &= CALLEE_SAVED;
            }
        } else if (insn[0] == 'j' || (mnemonic_len >= 3 && strncmp(insn, "ret", 3) == 0)) {
            carried = 0;
        } else if (carried && last_op > ops) {
            int full;
            int dst = register_number(last_op, last_len, &full);
            if (dst >= 0) {
                bool source_carried = (registers_in(ops, first_len) & carried) != 0;
                bool keeps;
                if (strncmp(insn, "mov", 3) == 0 && mnemonic_len <= 4)
                    keeps = source_carried && ops[0] == '%';
                else if (strncmp(insn, "lea", 3) == 0)
                    keeps = source_carried;
                else if (strncmp(insn, "add", 3) == 0 || strncmp(insn, "sub", 3) == 0)
                    keeps = source_carried || (carried & (1u << dst));
                else
                    keeps = false;
                keeps = keeps && full;
                if (keeps)
                    append(how, sizeof how, insn, (size_t)(ops_end - insn));
                carried = keeps ? carried | (1u << dst) : carried & ~(1u << dst);
            }
        }
        p = *end ? end + 1 : end;
    }
    return 0;
}
