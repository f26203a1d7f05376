/* The loader against bad files: truncations, mutated headers and tables, crafted errors and
 * random bytes, each given to qc_vm_load_memory. A rejected file must come back with an
 * error that names it; an accepted mutant is run (every function, a small budget) and must
 * end each call with QC_OK or a QuakeC error, never a crash. Built twice: with -fgnu-tm
 * against the library, and under AddressSanitizer/UBSan without TM.
 * Usage: test_qc_load GOOD.DAT */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "qc_test_util.h"

static uint8_t *good;
static size_t good_size;
static int rejected, accepted;

static int32_t get32(const uint8_t *d, size_t at)
{
    return (int32_t)((uint32_t)d[at] | (uint32_t)d[at + 1] << 8 | (uint32_t)d[at + 2] << 16 |
                     (uint32_t)d[at + 3] << 24);
}

static void put32(uint8_t *d, size_t at, int32_t v)
{
    for (int i = 0; i < 4; i++)
        d[at + i] = (uint8_t)((uint32_t)v >> (8 * i));
}

static void put16(uint8_t *d, size_t at, uint16_t v)
{
    d[at] = (uint8_t)v;
    d[at + 1] = (uint8_t)(v >> 8);
}

static void quiet(void *user, int developer, const char *text)
{
    (void)user;
    (void)developer;
    (void)text;
}

/* Runs every QuakeC function of an accepted file: hostile but loadable code must only ever
 * produce QuakeC errors. */
static void run_everything(qc_vm *vm)
{
    qc_vm_set_print(vm, quiet, NULL);
    qc_ctx *ctx = qc_ctx_new(vm);
    assert_non_null(ctx);
    qc_ctx_set_budget(ctx, 20000);
    int n = qc_num_functions(vm);
    for (qc_func f = 1; f < n; f++) {
        if (qc_function_builtin(vm, f))
            continue;
        qc_ctx_reset(ctx);
        for (int p = 0; p < 8; p++)
            qc_set_parm_int(ctx, p, (int32_t)(f * 7 + p));
        qc_status s = qc_call(ctx, f);
        assert_true(s == QC_OK || s == QC_ERROR);
        if (s == QC_ERROR)
            assert_true(qc_ctx_error(ctx)->kind != QC_ERR_NONE);
    }
}

/* Loads one candidate; returns true if it was rejected (with a proper message). */
static bool try_load(const uint8_t *data, size_t size, const char *what)
{
    char name[128], err[512];
    snprintf(name, sizeof name, "bad-%s.dat", what);
    qc_vm *vm = qc_vm_load_memory(data, size, name, NULL, err, sizeof err);
    if (vm) {
        accepted++;
        run_everything(vm);
        qc_vm_free(vm);
        return false;
    }
    rejected++;
    /* the message names the file and says something after it */
    assert_int_equal(strncmp(err, name, strlen(name)), 0);
    assert_true(strlen(err) > strlen(name) + 4);
    return true;
}

static void expect_rejected(const uint8_t *data, size_t size, const char *what,
                            const char *words)
{
    char name[128], err[512];
    snprintf(name, sizeof name, "bad-%s.dat", what);
    qc_vm *vm = qc_vm_load_memory(data, size, name, NULL, err, sizeof err);
    if (vm)
        fprintf(stderr, "%s was accepted\n", name);
    assert_null(vm);
    if (!strstr(err, words))
        fprintf(stderr, "%s: message '%s' lacks '%s'\n", name, err, words);
    assert_non_null(strstr(err, words));
    assert_int_equal(strncmp(err, name, strlen(name)), 0);
    rejected++;
}

static uint8_t *copy(void)
{
    uint8_t *d = malloc(good_size);
    assert_non_null(d);
    memcpy(d, good, good_size);
    return d;
}

static void test_good_file_loads(void **state)
{
    (void)state;
    char err[512];
    qc_vm *vm = qc_vm_load_memory(good, good_size, "good.dat", NULL, err, sizeof err);
    assert_non_null(vm);
    qc_vm_free(vm);
    vm = qc_vm_load_memory(good, good_size, "good.dat",
                           &(qc_load_options){ .required_crc = QC_QUAKEWORLD_CRC }, err,
                           sizeof err);
    assert_null(vm);
    assert_non_null(strstr(err, "CRC"));
    assert_non_null(strstr(err, "54730"));
    vm = qc_vm_load_file("/nonexistent/progs.dat", NULL, err, sizeof err);
    assert_null(vm);
    assert_non_null(strstr(err, "/nonexistent/progs.dat: cannot open"));
}

static void test_truncations(void **state)
{
    (void)state;
    size_t sizes[64];
    int n = 0;
    sizes[n++] = 0;
    sizes[n++] = 1;
    sizes[n++] = QC_HEADER_SIZE - 1;
    sizes[n++] = QC_HEADER_SIZE;
    for (int i = 1; i <= 40; i++)
        sizes[n++] = QC_HEADER_SIZE + (good_size - QC_HEADER_SIZE) * (size_t)i / 41;
    sizes[n++] = good_size - 1;
    for (int i = 0; i < n; i++) {
        char what[32];
        snprintf(what, sizeof what, "truncated-%zu", sizes[i]);
        assert_true(try_load(good, sizes[i], what));
    }
}

static void test_crafted(void **state)
{
    (void)state;
    int32_t ofs_st = get32(good, 8), ofs_gd = get32(good, 16), ofs_fd = get32(good, 24);
    int32_t ofs_fn = get32(good, 32), nfn = get32(good, 36), ofs_str = get32(good, 40);
    int32_t nstr = get32(good, 44), ngl = get32(good, 52), entf = get32(good, 56);
    int32_t nst = get32(good, 12);
    uint8_t *d;
    struct { int word; int32_t value; const char *what, *words; } header[] = {
        { 0, 7, "version7", "progs version 7" },
        { 0, 0x7fffffff, "version-max", "progs version" },
        { 2, -8, "statements-negative", "negative" },
        { 3, 0x7fffffff, "statements-count", "runs past the end" },
        { 4, (int32_t)good_size, "globaldefs-offset", "runs past the end" },
        { 7, 1 << 28, "fielddefs-count", "runs past the end" },
        { 8, (int32_t)good_size - 10, "functions-offset", "runs past the end" },
        { 9, 0, "no-functions", "no functions" },
        { 11, 0, "no-strings", "string table" },
        { 13, 10, "few-globals", "globals" },
        { 13, 70000, "many-globals", "runs past the end" },
        { 14, -1, "entityfields-negative", "entityfields" },
        { 14, 1 << 20, "entityfields-huge", "entityfields" },
    };
    for (size_t i = 0; i < sizeof header / sizeof header[0]; i++) {
        d = copy();
        put32(d, 4 * (size_t)header[i].word, header[i].value);
        expect_rejected(d, good_size, header[i].what, header[i].words);
        free(d);
    }
    d = copy(); /* the string table's last byte */
    d[ofs_str + nstr - 1] = 'x';
    expect_rejected(d, good_size, "strings-unterminated", "NUL");
    free(d);
    d = copy();
    put16(d, (size_t)ofs_st + 8 * 1, 999);
    expect_rejected(d, good_size, "opcode", "unknown opcode 999");
    free(d);
    /* a statement whose operand is past the globals: find an ADD_F */
    for (int s = 0; s < nst; s++) {
        if ((d = copy()) && (good[ofs_st + 8 * s] | good[ofs_st + 8 * s + 1] << 8) ==
                                QC_OP_ADD_F) {
            put16(d, (size_t)ofs_st + 8 * (size_t)s + 6, (uint16_t)ngl);
            expect_rejected(d, good_size, "operand", "outside the");
            free(d);
            break;
        }
        free(d);
    }
    for (int s = 0; s < nst; s++) {
        if ((d = copy()) && (good[ofs_st + 8 * s] | good[ofs_st + 8 * s + 1] << 8) == QC_OP_GOTO) {
            put16(d, (size_t)ofs_st + 8 * (size_t)s + 2, (uint16_t)(int16_t)-30000);
            expect_rejected(d, good_size, "jump", "jump to");
            free(d);
            break;
        }
        free(d);
    }
    /* functions: the last one (a QuakeC function in the test program) */
    size_t fn = (size_t)ofs_fn + 36 * (size_t)(nfn - 1);
    struct { size_t at; int32_t value; const char *what, *words; } func[] = {
        { 0, nst + 5, "first-statement", "first statement" },
        { 0, -100000, "builtin-number", "builtin number" },
        { 4, ngl, "parm-start", "outside the" },
        { 8, 1 << 30, "locals", "outside the" },
        { 16, nstr + 3, "function-name", "string table" },
        { 20, -2, "function-file", "string table" },
        { 24, 9, "numparms", "parameters" },
        { 24, -1, "numparms-negative", "parameters" },
    };
    for (size_t i = 0; i < sizeof func / sizeof func[0]; i++) {
        d = copy();
        put32(d, fn + func[i].at, func[i].value);
        expect_rejected(d, good_size, func[i].what, func[i].words);
        free(d);
    }
    d = copy();
    put32(d, fn + 24, 1);
    d[fn + 28] = 7;
    expect_rejected(d, good_size, "parm-size", "size 7");
    free(d);
    /* definitions */
    d = copy();
    put16(d, (size_t)ofs_gd + 8 + 2, (uint16_t)ngl);
    expect_rejected(d, good_size, "globaldef-offset", "global definition");
    free(d);
    d = copy();
    put16(d, (size_t)ofs_gd + 8, 77);
    expect_rejected(d, good_size, "globaldef-type", "unknown type");
    free(d);
    d = copy();
    put32(d, (size_t)ofs_gd + 8 + 4, nstr);
    expect_rejected(d, good_size, "globaldef-name", "name offset");
    free(d);
    d = copy();
    put16(d, (size_t)ofs_fd + 8 * 2 + 2, (uint16_t)entf);
    expect_rejected(d, good_size, "fielddef-offset", "field definition");
    free(d);
}

static uint32_t rng = 2463534242u;
static uint32_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 17;
    rng ^= rng << 5;
    return rng;
}

static void test_mutations(void **state)
{
    (void)state;
    int before = rejected;
    int32_t ofs_st = get32(good, 8), nst = get32(good, 12);
    int32_t ofs_fn = get32(good, 32), nfn = get32(good, 36);
    /* header words set to awkward values */
    const int32_t awkward[] = { -1, 0, 1, 0x7fffffff, (int32_t)0x80000000 };
    for (int w = 0; w < QC_HDR_WORDS; w++)
        for (size_t k = 0; k < sizeof awkward / sizeof *awkward; k++) {
            uint8_t *d = copy();
            put32(d, 4 * (size_t)w, awkward[k]);
            char what[48];
            snprintf(what, sizeof what, "header%d-%d", w, awkward[k]);
            try_load(d, good_size, what);
            free(d);
        }
    /* random damage to the statements and the functions (either rejected or run safely) */
    for (int i = 0; i < 300; i++) {
        uint8_t *d = copy();
        bool in_code = i % 2 == 0;
        size_t base = in_code ? (size_t)ofs_st : (size_t)ofs_fn;
        size_t len = in_code ? 8 * (size_t)nst : 36 * (size_t)nfn;
        for (int k = 0; k < 1 + i % 4; k++)
            d[base + next() % len] = (uint8_t)next();
        char what[48];
        snprintf(what, sizeof what, "%s-damage-%d", in_code ? "code" : "function", i);
        try_load(d, good_size, what);
        free(d);
    }
    /* random bytes anywhere */
    for (int i = 0; i < 100; i++) {
        uint8_t *d = copy();
        for (int k = 0; k < 8; k++)
            d[next() % good_size] = (uint8_t)next();
        char what[48];
        snprintf(what, sizeof what, "random-damage-%d", i);
        try_load(d, good_size, what);
        free(d);
    }
    printf("mutations: %d rejected, %d accepted and run without harm\n", rejected - before,
           accepted);
}

static void test_random_files(void **state)
{
    (void)state;
    for (int i = 0; i < 60; i++) {
        size_t size = next() % 4096;
        uint8_t *d = malloc(size + 1);
        for (size_t k = 0; k < size; k++)
            d[k] = (uint8_t)next();
        if (i % 2 && size >= 4)
            put32(d, 0, QC_PROGS_VERSION); /* gets past the version check */
        char what[48];
        snprintf(what, sizeof what, "random-%d", i);
        assert_true(try_load(d, size, what));
        free(d);
    }
}

static void test_enough_bad_files(void **state)
{
    (void)state;
    printf("%d bad files rejected with a message naming them, %d mutants accepted\n",
           rejected, accepted);
    assert_true(rejected >= 100);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s GOOD.DAT (the compiled tests/qc program)\n", argv[0]);
        return 2;
    }
    FILE *f = fopen(argv[1], "rb");
    if (!f) {
        fprintf(stderr, "%s: cannot open\n", argv[1]);
        return 1;
    }
    good = malloc(1 << 22);
    good_size = fread(good, 1, 1 << 22, f);
    fclose(f);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_good_file_loads),
        cmocka_unit_test(test_truncations),
        cmocka_unit_test(test_crafted),
        cmocka_unit_test(test_mutations),
        cmocka_unit_test(test_random_files),
        cmocka_unit_test(test_enough_bad_files),
    };
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    free(good);
    return failed;
}
