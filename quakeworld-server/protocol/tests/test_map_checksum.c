/* The map checksums: MD4 against RFC 1320's test suite, the two checksums of a small BSP29
 * file built here (which lumps each leaves out), and the files refused (short, another
 * version, a lump outside the file). The checksums of a real map are checked against the
 * world's loader in world/tests/test_bsp.c. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "qw_map_checksum.h"
#include "qw_md4.h"

/* RFC 1320 appendix A.5 test suite. */
static void test_md4_rfc_vectors(void **state)
{
    (void)state;
    static const struct { const char *in, *md; } v[] = {
        {"", "31d6cfe0d16ae931b73c59d7e0c089c0"},
        {"a", "bde52cb31de33e46245e05fbdbd6fb24"},
        {"abc", "a448017aaf21d8525fc10ae87aa6729d"},
        {"message digest", "d9130a8164549fe818874806e1c7014b"},
        {"abcdefghijklmnopqrstuvwxyz", "d79e1c308aa5bbcdeea8ed63df412da9"},
        {"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789",
         "043f8582f241db351ce627e153e7f0e4"},
        {"12345678901234567890123456789012345678901234567890123456789012345678901234567890",
         "e33b4ddc9c38f2199c3e7b164fcc0536"},
    };
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        uint8_t d[16];
        char h[33];
        qw_md4((const uint8_t *)v[i].in, strlen(v[i].in), d);
        for (int k = 0; k < 16; k++)
            sprintf(h + 2 * k, "%02x", d[k]);
        assert_string_equal(h, v[i].md);
    }
}

#define LUMPS 15
#define HEADER (4 + 8 * LUMPS)

static void put_i32(uint8_t *p, int32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)((uint32_t)v >> (8 * i));
}

/* A BSP29 file whose lump i holds i + 1 bytes of value i + 1, right after the header. */
static size_t build_file(uint8_t *file)
{
    put_i32(file, 29);
    size_t at = HEADER;
    for (int i = 0; i < LUMPS; i++) {
        put_i32(file + 4 + 8 * i, (int32_t)at);
        put_i32(file + 8 + 8 * i, i + 1);
        memset(file + at, i + 1, (size_t)i + 1);
        at += (size_t)i + 1;
    }
    return at;
}

static void test_checksums_of_a_small_file(void **state)
{
    (void)state;
    uint8_t file[1024];
    size_t len = build_file(file);
    uint32_t expect = 0, expect2 = 0;
    size_t at = HEADER;
    for (int i = 0; i < LUMPS; i++) {
        uint32_t block = qw_md4_block_checksum(file + at, (size_t)i + 1);
        at += (size_t)i + 1;
        if (i == 0)
            continue;                       /* the entities: in neither */
        expect ^= block;
        if (i != 4 && i != 5 && i != 10)    /* visibility, nodes, leafs: not in checksum2 */
            expect2 ^= block;
    }
    uint32_t c1 = 0, c2 = 0;
    assert_int_equal(qw_map_checksums(file, len, &c1, &c2), 0);
    assert_int_equal(c1, expect);
    assert_int_equal(c2, expect2);
    assert_true(c1 != c2);
    /* the entities may change (a map's lights, a server's edits) without changing either */
    file[HEADER] ^= 0xff;
    uint32_t d1, d2;
    assert_int_equal(qw_map_checksums(file, len, &d1, &d2), 0);
    assert_int_equal(d1, c1);
    assert_int_equal(d2, c2);
    /* what a client may rebuild changes checksum only */
    file[HEADER + 1 + 2 + 3 + 4] ^= 0xff;           /* the first byte of lump 4 */
    assert_int_equal(qw_map_checksums(file, len, &d1, &d2), 0);
    assert_true(d1 != c1);
    assert_int_equal(d2, c2);
}

static void test_bad_files_refused(void **state)
{
    (void)state;
    uint8_t file[1024];
    size_t len = build_file(file);
    uint32_t c1 = 7, c2 = 7;
    assert_int_equal(qw_map_checksums(file, HEADER - 1, &c1, &c2), -1);
    assert_int_equal(qw_map_checksums(file, len - 1, &c1, &c2), -1);   /* the last lump */
    put_i32(file, 30);
    assert_int_equal(qw_map_checksums(file, len, &c1, &c2), -1);
    put_i32(file, 29);
    put_i32(file + 4 + 8 * 3, -1);                                     /* a negative offset */
    assert_int_equal(qw_map_checksums(file, len, &c1, &c2), -1);
    assert_int_equal(c1, 7);                                           /* nothing written */
    assert_int_equal(c2, 7);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_md4_rfc_vectors),
        cmocka_unit_test(test_checksums_of_a_small_file),
        cmocka_unit_test(test_bad_files_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
