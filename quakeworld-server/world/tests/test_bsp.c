/* BSP29 loading, the map checksums of a real map (the loader's and libqwproto's agree),
 * malformed files, entity parsing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "bsp.h"
#include "pvs.h"
#include "qw_map_checksum.h"
#include "trace.h"
#include "test_util.h"

static uint8_t *read_whole(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *buf = malloc((size_t)n);
    assert_non_null(buf);
    assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    *len = (size_t)n;
    return buf;
}

static void crateprefab_checksums(void **state)
{
    (void)state;
    char path[512];
    if (!shared_quake_file(path, sizeof path, "id1/maps/crateprefab.bsp"))
        skip();
    size_t len;
    uint8_t *file = read_whole(path, &len);
    uint32_t c1 = 0, c2 = 0;
    assert_int_equal(qw_map_checksums(file, len, &c1, &c2), 0);
    assert_int_equal(c1, 4195182090u);
    assert_int_equal(c2, 1845768093u);

    char err[256];
    qw_bsp *bsp = qw_bsp_load(path, err, sizeof err);
    assert_non_null(bsp);
    assert_int_equal(bsp->checksum, 4195182090u);
    assert_int_equal(bsp->checksum2, 1845768093u);
    assert_int_equal(qw_bsp_num_submodels(bsp), 0);
    assert_int_equal(bsp->num_leafs, 43);
    assert_int_equal(bsp->num_clipnodes, 236);
    assert_int_equal(bsp->num_planes, 142);
    const qw_bsp_model *world = qw_bsp_get_model(bsp, 0);
    assert_non_null(world);
    assert_null(qw_bsp_get_model(bsp, 1));
    /* MAPS.txt: extent 2046 x 2046 x 350 */
    assert_true(world->maxs[0] - world->mins[0] >= 2046 - 2 && world->maxs[0] - world->mins[0] <= 2046 + 2);
    qw_bsp_free(bsp);
    free(file);
}

/* Every shared map loads (exercises the validation on real compiler output). */
static void all_shared_maps_load(void **state)
{
    (void)state;
    static const char *maps[] = {"crateprefab_dm", "lqdm1", "lqdm2", "lqdm6", "lqdm7", "e1m2",
                                 "b_bh25", "b_nail1"};
    static const int submodels[] = {0, 3, 5, 17, 7, 84, 0, 0};
    int found = 0;
    for (size_t i = 0; i < sizeof maps / sizeof maps[0]; i++) {
        char rel[128], path[512], err[256];
        snprintf(rel, sizeof rel, "id1/maps/%s.bsp", maps[i]);
        if (!shared_quake_file(path, sizeof path, rel))
            continue;
        found++;
        qw_bsp *bsp = qw_bsp_load(path, err, sizeof err);
        if (!bsp)
            fail_msg("%s", err);
        assert_int_equal(qw_bsp_num_submodels(bsp), submodels[i]);
        qw_bsp_free(bsp);
    }
    if (!found)
        skip();
}

/* A small valid-shaped BSP built in memory: one plane, one node, two leafs, one model. */
static size_t build_tiny_bsp(uint8_t *buf, size_t cap)
{
    memset(buf, 0, cap);
    size_t pos = 4 + 8 * QW_BSP_NUM_LUMPS;
    uint32_t v = QW_BSP_VERSION;
    memcpy(buf, &v, 4);
#define LUMP(i, data, n) do { int32_t o = (int32_t)pos, l = (int32_t)(n); \
        memcpy(buf + 4 + 8 * (i), &o, 4); memcpy(buf + 8 + 8 * (i), &l, 4); \
        memcpy(buf + pos, (data), (size_t)(n)); pos += (size_t)(n); } while (0)
    const char ents[] = "{\n\"classname\" \"worldspawn\"\n}\n";
    LUMP(QW_LUMP_ENTITIES, ents, sizeof ents);
    float plane[5] = {0, 0, 1, 0, 0};  /* type stored as int 2 below */
    int32_t t = 2;
    memcpy(&plane[4], &t, 4);
    LUMP(QW_LUMP_PLANES, plane, 20);
    int16_t node[12] = {0, 0, -1, -2};  /* planenum (int32 0), children: leaf 0, leaf 1 */
    LUMP(QW_LUMP_NODES, node, 24);
    int32_t leafs[14] = {QW_CONTENTS_EMPTY, -1, 0, 0, 0, 0, 0, QW_CONTENTS_SOLID, -1};
    LUMP(QW_LUMP_LEAFS, leafs, 56);
    int32_t model[16] = {0};
    LUMP(QW_LUMP_MODELS, model, 64);
    int32_t clip[2] = {0, (int32_t)0xFFFEFFFF};  /* plane 0, children -1 (empty), -2 (solid) */
    LUMP(QW_LUMP_CLIPNODES, clip, 8);
#undef LUMP
    return pos;
}

static void tiny_bsp_loads(void **state)
{
    (void)state;
    uint8_t buf[1024];
    size_t len = build_tiny_bsp(buf, sizeof buf);
    char err[256];
    qw_bsp *bsp = qw_bsp_load_memory(buf, len, "tiny.bsp", err, sizeof err);
    if (!bsp)
        fail_msg("%s", err);
    assert_int_equal(bsp->num_nodes, 1);
    assert_int_equal(bsp->hull0[0].children[0], QW_CONTENTS_EMPTY);
    assert_int_equal(bsp->hull0[0].children[1], QW_CONTENTS_SOLID);
    assert_int_equal(bsp->clipnodes[0].children[1], QW_CONTENTS_SOLID);
    qw_bsp_free(bsp);
}

static void expect_rejected(const uint8_t *buf, size_t len, const char *needle)
{
    char err[256] = "";
    qw_bsp *bsp = qw_bsp_load_memory(buf, len, "bad.bsp", err, sizeof err);
    assert_null(bsp);
    assert_non_null(strstr(err, "bad.bsp"));
    if (!strstr(err, needle))
        fail_msg("error \"%s\" does not mention \"%s\"", err, needle);
}

static void malformed_rejected(void **state)
{
    (void)state;
    uint8_t good[1024], buf[1024];
    size_t len = build_tiny_bsp(good, sizeof good);

    expect_rejected(good, 10, "too short");

    memcpy(buf, good, len);
    buf[0] = 30;
    expect_rejected(buf, len, "version 30");

    memcpy(buf, good, len);  /* models lump runs past the end */
    int32_t big = 100000;
    memcpy(buf + 8 + 8 * QW_LUMP_MODELS, &big, 4);
    expect_rejected(buf, len, "models");

    memcpy(buf, good, len);  /* planes lump length not a multiple of 20 */
    int32_t odd = 19;
    memcpy(buf + 8 + 8 * QW_LUMP_PLANES, &odd, 4);
    expect_rejected(buf, len, "planes");

    memcpy(buf, good, len);  /* node referencing a missing plane */
    int32_t nodes_ofs;
    memcpy(&nodes_ofs, buf + 4 + 8 * QW_LUMP_NODES, 4);
    int32_t plane7 = 7;
    memcpy(buf + nodes_ofs, &plane7, 4);
    expect_rejected(buf, len, "nodes");

    memcpy(buf, good, len);  /* node child pointing to a leaf that does not exist */
    int16_t leaf9 = -10;
    memcpy(buf + nodes_ofs + 4, &leaf9, 2);
    expect_rejected(buf, len, "nodes");

    memcpy(buf, good, len);  /* node pointing to itself (a cycle) */
    int16_t self = 0;
    memcpy(buf + nodes_ofs + 4, &self, 2);
    expect_rejected(buf, len, "nodes");

    memcpy(buf, good, len);  /* model head clipnode out of range */
    int32_t models_ofs;
    memcpy(&models_ofs, buf + 4 + 8 * QW_LUMP_MODELS, 4);
    int32_t head = 5;
    memcpy(buf + models_ofs + 40, &head, 4);
    expect_rejected(buf, len, "models");

    memcpy(buf, good, len);  /* leaf visibility offset below -1 */
    int32_t leafs_ofs, visofs = -3;
    memcpy(&leafs_ofs, buf + 4 + 8 * QW_LUMP_LEAFS, 4);
    memcpy(buf + leafs_ofs + 4, &visofs, 4);
    expect_rejected(buf, len, "leafs");

    char err[256] = "";
    assert_null(qw_bsp_load("/nonexistent/dir/x.bsp", err, sizeof err));
    assert_non_null(strstr(err, "/nonexistent/dir/x.bsp"));

    uint32_t c1, c2;
    assert_int_equal(qw_map_checksums(good, 20, &c1, &c2), -1);
}

/* Corrupted copies of a real map either fail to load with a message or load and then answer
 * point, trace and visibility queries without crashing or hanging. */
static void corrupted_maps_never_crash(void **state)
{
    (void)state;
    char path[512];
    if (!shared_quake_file(path, sizeof path, "id1/maps/lqdm2.bsp"))
        skip();
    size_t len;
    uint8_t *orig = read_whole(path, &len);
    uint8_t *copy = malloc(len);
    assert_non_null(copy);
    uint32_t seed = 4242;
    int loaded = 0, rejected = 0;
    for (int round = 0; round < 300; round++) {
        memcpy(copy, orig, len);
        int flips = 1 + round % 8;
        for (int i = 0; i < flips; i++) {
            seed = seed * 1664525u + 1013904223u;
            /* Half the flips hit the header, the rest anywhere. */
            size_t at = (round & 1) ? (seed >> 8) % (4 + 8 * QW_BSP_NUM_LUMPS) : (seed >> 4) % len;
            copy[at] ^= (uint8_t)(1u << ((seed >> 28) & 7));
        }
        char err[256] = "";
        qw_bsp *bsp = qw_bsp_load_memory(copy, len, "corrupt.bsp", err, sizeof err);
        if (!bsp) {
            assert_true(strlen(err) > 0);
            rejected++;
            continue;
        }
        loaded++;
        qw_entity_iter it;
        static qw_entity_fields f;
        qw_entity_iter_init(&it, qw_bsp_entity_string(bsp));
        while (qw_entity_next(&it, &f) == 1)
            ;
        for (int q = 0; q < 50; q++) {
            float a[3], b[3];
            for (int k = 0; k < 3; k++) {
                seed = seed * 1664525u + 1013904223u;
                a[k] = (float)(seed % 4000) - 2000.0f;
                b[k] = (float)((seed >> 12) % 4000) - 2000.0f;
            }
            qw_trace tr;
            for (int m = 0; m < bsp->num_models; m++)
                qw_trace_bsp_model(bsp, m, a, a, qw_hull_mins[q % 3], qw_hull_maxs[q % 3], b, &tr);
            (void)qw_point_contents(bsp, a);
            (void)qw_bsp_leaf_for_point(bsp, b);
        }
        char perr[128];
        qw_pvs *pvs = qw_pvs_create(bsp, perr, sizeof perr);
        if (pvs) {
            uint8_t *fat = malloc((size_t)pvs->row_bytes);
            float o[3] = {0, 0, 0};
            qw_pvs_fat(pvs, o, fat);
            free(fat);
            qw_pvs_free(pvs);
        }
        qw_bsp_free(bsp);
    }
    assert_true(loaded > 0 && rejected > 0);
    free(copy);
    free(orig);
}

static void entity_parser(void **state)
{
    (void)state;
    const char *text = "{\n\"classname\" \"worldspawn\"\n\"message\" \"A // B\"\n}\n"
                       "// comment\n{ \"classname\" \"info_player_deathmatch\" \"origin\" \"1 2 3\" }";
    qw_entity_iter it;
    qw_entity_fields *f = malloc(sizeof *f);
    qw_entity_iter_init(&it, text);
    assert_int_equal(qw_entity_next(&it, f), 1);
    assert_string_equal(qw_entity_get(f, "classname"), "worldspawn");
    assert_string_equal(qw_entity_get(f, "message"), "A // B");
    assert_null(qw_entity_get(f, "origin"));
    assert_int_equal(qw_entity_next(&it, f), 1);
    assert_string_equal(qw_entity_get(f, "origin"), "1 2 3");
    assert_int_equal(qw_entity_next(&it, f), 0);

    const char *bad[] = {"{ \"a\" \"b\" ", "{ \"a\" }", "\"a\" \"b\"", "{ \"a\" \"unterminated }"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        qw_entity_iter_init(&it, bad[i]);
        assert_int_equal(qw_entity_next(&it, f), -1);
        assert_true(strlen(it.error) > 0);
    }
    free(f);
}

static void real_entities_parse(void **state)
{
    (void)state;
    char path[512], err[256];
    if (!shared_quake_file(path, sizeof path, "id1/maps/crateprefab_dm.bsp"))
        skip();
    qw_bsp *bsp = qw_bsp_load(path, err, sizeof err);
    assert_non_null(bsp);
    qw_entity_iter it;
    qw_entity_fields *f = malloc(sizeof *f);
    qw_entity_iter_init(&it, qw_bsp_entity_string(bsp));
    int n = 0, spawns = 0, r;
    while ((r = qw_entity_next(&it, f)) == 1) {
        const char *cls = qw_entity_get(f, "classname");
        assert_non_null(cls);
        if (n == 0)
            assert_string_equal(cls, "worldspawn");
        if (strcmp(cls, "info_player_deathmatch") == 0)
            spawns++;
        n++;
    }
    assert_int_equal(r, 0);
    assert_int_equal(n, 13);
    assert_int_equal(spawns, 8);
    free(f);
    qw_bsp_free(bsp);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(crateprefab_checksums),
        cmocka_unit_test(all_shared_maps_load),
        cmocka_unit_test(tiny_bsp_loads),
        cmocka_unit_test(malformed_rejected),
        cmocka_unit_test(corrupted_maps_never_crash),
        cmocka_unit_test(entity_parser),
        cmocka_unit_test(real_entities_parse),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
