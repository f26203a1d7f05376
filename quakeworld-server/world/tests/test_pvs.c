/* PVS/PHS: run-length decoding on known bytes, and properties on real maps (every leaf sees
 * itself, PHS contains PVS, the fat PVS contains the eye leaf's PVS, spawn leafs). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "pvs.h"
#include "test_util.h"

/* Hand-made visibility: 20 leafs (3 bytes per row). */
static void decompress_known_bytes(void **state)
{
    (void)state;
    static uint8_t vis[] = {0x05, 0x00, 0x01, 0x80,   /* leaf 1: 05 00 80 */
                            0x00, 0x03,               /* leaf 2: 00 00 00 */
                            0xff, 0x00};              /* leaf 3: ff, then truncated run */
    qw_bsp_model model = {.visleafs = 20};
    qw_bsp_leaf leafs[4] = {{.contents = QW_CONTENTS_SOLID, .visofs = -1},
                            {.contents = QW_CONTENTS_EMPTY, .visofs = 0},
                            {.contents = QW_CONTENTS_EMPTY, .visofs = 4},
                            {.contents = QW_CONTENTS_EMPTY, .visofs = 6}};
    qw_bsp bsp;
    memset(&bsp, 0, sizeof bsp);
    bsp.models = &model;
    bsp.num_models = 1;
    bsp.leafs = leafs;
    bsp.num_leafs = 4;
    bsp.visdata = vis;
    bsp.visdata_len = sizeof vis;
    uint8_t out[8];
    qw_bsp_decompress_vis(&bsp, 1, out, 8);
    assert_int_equal(out[0], 0x05);
    assert_int_equal(out[1], 0x00);
    assert_int_equal(out[2], 0x80);
    assert_int_equal(out[3], 0);   /* beyond the row: zero */
    qw_bsp_decompress_vis(&bsp, 2, out, 8);
    assert_int_equal(out[0] | out[1] | out[2], 0);
    qw_bsp_decompress_vis(&bsp, 3, out, 8);   /* must stop at the lump's end */
    assert_int_equal(out[0], 0xff);
    assert_int_equal(out[1], 0);
    qw_bsp_decompress_vis(&bsp, 0, out, 8);   /* the solid leaf: everything */
    assert_int_equal(out[0] & out[1], 0xff);
}

static void real_map_properties(const char *name, int expect_hidden)
{
    qw_bsp *bsp = load_shared_map(name);
    if (!bsp)
        skip();
    char err[256];
    qw_pvs *pvs = qw_pvs_create(bsp, err, sizeof err);
    assert_non_null(pvs);
    int visleafs = pvs->num_leafs - 1, hidden = 0;
    for (int l = 1; l < pvs->num_leafs; l++) {
        const uint8_t *row = qw_pvs_row(pvs, l), *hear = qw_phs_row(pvs, l);
        if (bsp->leafs[l].contents != QW_CONTENTS_SOLID)
            assert_true(qw_pvs_row_has(row, l - 1));
        for (int i = 0; i < visleafs; i++) {
            if (qw_pvs_row_has(row, i))
                assert_true(qw_pvs_row_has(hear, i));
            else
                hidden++;
        }
    }
    if (expect_hidden)
        assert_true(hidden > 0);

    qw_entity_iter it;
    static qw_entity_fields f;
    qw_entity_iter_init(&it, qw_bsp_entity_string(bsp));
    int spawns = 0;
    uint8_t *fat = malloc((size_t)pvs->row_bytes);
    while (qw_entity_next(&it, &f) == 1) {
        const char *cls = qw_entity_get(&f, "classname"), *org = qw_entity_get(&f, "origin");
        if (!cls || strcmp(cls, "info_player_deathmatch") || !org)
            continue;
        float o[3];
        sscanf(org, "%f %f %f", &o[0], &o[1], &o[2]);
        int leaf = qw_bsp_leaf_for_point(bsp, o);
        assert_true(leaf > 0 && leaf < bsp->num_leafs);
        assert_int_not_equal(bsp->leafs[leaf].contents, QW_CONTENTS_SOLID);
        qw_pvs_fat(pvs, o, fat);
        const uint8_t *row = qw_pvs_row(pvs, leaf);
        for (int i = 0; i < pvs->row_bytes; i++)
            assert_int_equal(fat[i] & row[i], row[i]);
        /* The player box around the spawn touches the spawn's leaf. */
        float mins[3] = {o[0] - 16, o[1] - 16, o[2] - 24}, maxs[3] = {o[0] + 16, o[1] + 16, o[2] + 32};
        short leafnums[64];
        int n = qw_bsp_box_leafs(bsp, mins, maxs, leafnums, 64);
        assert_true(n >= 1);
        int found = 0;
        for (int i = 0; i < n; i++)
            found |= leafnums[i] == leaf - 1;
        assert_true(found);
        assert_int_equal(qw_bsp_box_leafs(bsp, mins, maxs, leafnums, 0), -1);
        spawns++;
    }
    assert_true(spawns > 0);
    free(fat);
    /* Out-of-range leafs see everything rather than reading out of bounds. */
    assert_ptr_equal(qw_pvs_row(pvs, -5), pvs->all);
    assert_ptr_equal(qw_pvs_row(pvs, pvs->num_leafs), pvs->all);
    qw_pvs_free(pvs);
    qw_bsp_free(bsp);
}

static void e1m2_pvs(void **state) { (void)state; real_map_properties("e1m2", 1); }
static void lqdm1_pvs(void **state) { (void)state; real_map_properties("lqdm1", 1); }
static void crateprefab_pvs(void **state) { (void)state; real_map_properties("crateprefab_dm", 0); }

/* Generated maps: one room, every leaf sees every other. */
static void generated_all_visible(void **state)
{
    (void)state;
    const float boxes[][6] = {{-100, -100, 0, -50, -50, 64}, {50, 50, 0, 120, 120, 256}};
    qw_bsp *bsp = room_with_boxes(1024, 256, boxes, 2);
    char err[256];
    qw_pvs *pvs = qw_pvs_create(bsp, err, sizeof err);
    assert_non_null(pvs);
    assert_true(pvs->num_leafs > 4);
    for (int l = 1; l < pvs->num_leafs; l++)
        for (int i = 0; i < pvs->num_leafs - 1; i++)
            assert_true(qw_pvs_row_has(qw_pvs_row(pvs, l), i));
    qw_pvs_free(pvs);
    qw_bsp_free(bsp);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(decompress_known_bytes),
        cmocka_unit_test(e1m2_pvs),
        cmocka_unit_test(lqdm1_pvs),
        cmocka_unit_test(crateprefab_pvs),
        cmocka_unit_test(generated_all_visible),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
