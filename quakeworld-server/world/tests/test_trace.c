/* Hull traces on generated maps (exact distances) and on the shared real maps (properties:
 * a trace that starts free never ends inside solid; spawns stand on floors; submodels block). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <string.h>

#include "test_util.h"
#include "trace.h"

static uint32_t lcg = 12345;
static float frand(float lo, float hi)
{
    lcg = lcg * 1664525u + 1013904223u;
    return lo + (hi - lo) * (float)(lcg >> 8) / (float)(1u << 24);
}

/* Generated room with a crate: every hull stops the box against the crate's side and top. */
static void generated_box_distances(void **state)
{
    (void)state;
    const float boxes[][6] = {{100, -50, 0, 164, 50, 40}};
    qw_bsp *bsp = room_with_boxes(640, 256, boxes, 1);
    for (int h = 0; h < QW_MAX_HULLS; h++) {
        const float *mins = qw_hull_mins[h], *maxs = qw_hull_maxs[h];
        /* Along +X at a height where the box hits the crate's side. */
        float z = 20 - mins[2] < 40 ? 20 - mins[2] : 10 - mins[2];
        float start[3] = {-100, 0, z}, end[3] = {300, 0, z};
        qw_trace tr;
        qw_trace_world(bsp, start, mins, maxs, end, &tr);
        float want = 100 - maxs[0];
        if (!(tr.fraction < 1 && fabsf(tr.endpos[0] - want) <= QW_DIST_EPSILON + 0.01f))
            fail_msg("hull %d: side hit at %g (fraction %g), want %g", h, tr.endpos[0], tr.fraction, want);
        /* Dropping onto the crate top (z = 40): rests with mins[2] on it. */
        float above[3] = {132, 0, 200}, below[3] = {132, 0, -50};
        qw_trace_world(bsp, above, mins, maxs, below, &tr);
        if (fabsf(tr.endpos[2] - (40 - mins[2])) > QW_DIST_EPSILON + 0.01f)
            fail_msg("hull %d: top hit at %g, want %g", h, tr.endpos[2], 40 - mins[2]);
        /* Diagonal into the corner: stops before both walls. */
        float diag_end[3] = {1000, 1000, z + 10};
        qw_trace_world(bsp, start, mins, maxs, diag_end, &tr);
        assert_true(tr.fraction < 1);
        assert_true(tr.endpos[0] <= 320 - maxs[0] && tr.endpos[1] <= 320 - maxs[1]);
        assert_int_equal(qw_hull_point_contents(&bsp->hulls[h], bsp->hulls[h].firstclipnode,
                                                tr.endpos), QW_CONTENTS_EMPTY);
    }
    assert_int_equal(qw_hull_for_size(qw_hull_mins[0], qw_hull_maxs[0]), 0);
    assert_int_equal(qw_hull_for_size(qw_hull_mins[1], qw_hull_maxs[1]), 1);
    assert_int_equal(qw_hull_for_size(qw_hull_mins[2], qw_hull_maxs[2]), 2);
    qw_bsp_free(bsp);
}

/* Box against box: the moving box's face meets the other's face. */
static void box_against_box(void **state)
{
    (void)state;
    const float org[3] = {100, 0, 0}, bmins[3] = {-16, -16, -24}, bmaxs[3] = {16, 16, 32};
    const float mins[3] = {-16, -16, -24}, maxs[3] = {16, 16, 32};
    float start[3] = {0, 0, 0}, end[3] = {200, 0, 0};
    qw_trace tr;
    qw_trace_box(org, bmins, bmaxs, start, mins, maxs, end, &tr);
    assert_true(fabsf(tr.endpos[0] - 68) <= QW_DIST_EPSILON + 0.01f);
    assert_float_equal(tr.plane.normal[0], -1, 0);
    /* Passing beside it (y offset 40 > 32) does not touch. */
    float s2[3] = {0, 40, 0}, e2[3] = {200, 40, 0};
    qw_trace_box(org, bmins, bmaxs, s2, mins, maxs, e2, &tr);
    assert_float_equal(tr.fraction, 1, 0);
    /* Starting overlapped: startsolid. */
    float s3[3] = {90, 0, 0};
    qw_trace_box(org, bmins, bmaxs, s3, mins, maxs, e2, &tr);
    assert_true(tr.startsolid);
}

/* On a real map, random traces from free points never end in solid, and tracing back from the
 * end toward the start is free as well (the DIST_EPSILON back-off keeps it outside). */
static void real_map_random_traces(const char *name)
{
    qw_bsp *bsp = load_shared_map(name);
    if (!bsp)
        skip();
    const qw_bsp_model *w = qw_bsp_get_model(bsp, 0);
    int checked = 0, hits = 0;
    for (int i = 0; i < 20000 && checked < 3000; i++) {
        int h = i % QW_MAX_HULLS;
        const qw_bsp_hull *hull = &bsp->hulls[h];
        float a[3], b[3];
        for (int k = 0; k < 3; k++) {
            a[k] = frand(w->mins[k], w->maxs[k]);
            b[k] = frand(w->mins[k], w->maxs[k]);
        }
        if (qw_hull_point_contents(hull, hull->firstclipnode, a) == QW_CONTENTS_SOLID)
            continue;
        checked++;
        qw_trace tr;
        qw_trace_world(bsp, a, qw_hull_mins[h], qw_hull_maxs[h], b, &tr);
        assert_false(tr.allsolid);
        assert_true(tr.fraction >= 0 && tr.fraction <= 1);
        /* The offset hull frame: for hulls 1/2 the hull is aligned with our box, offset 0. */
        if (qw_hull_point_contents(hull, hull->firstclipnode, tr.endpos) == QW_CONTENTS_SOLID)
            fail_msg("%s hull %d: trace from (%g %g %g) ends in solid at (%g %g %g)", name, h,
                     a[0], a[1], a[2], tr.endpos[0], tr.endpos[1], tr.endpos[2]);
        if (tr.fraction < 1) {
            hits++;
            /* The impact plane faces back toward the start. */
            float d = tr.plane.normal[0] * (b[0] - a[0]) + tr.plane.normal[1] * (b[1] - a[1]) +
                      tr.plane.normal[2] * (b[2] - a[2]);
            assert_true(d <= 0);
        }
    }
    assert_true(checked > 500);
    assert_true(hits > 100);
    qw_bsp_free(bsp);
}

static void crateprefab_random_traces(void **state) { (void)state; real_map_random_traces("crateprefab_dm"); }
static void lqdm2_random_traces(void **state) { (void)state; real_map_random_traces("lqdm2"); }

/* Every deathmatch spawn of crateprefab_dm is free for the player and has a floor below. */
static void crateprefab_spawns(void **state)
{
    (void)state;
    qw_bsp *bsp = load_shared_map("crateprefab_dm");
    if (!bsp)
        skip();
    qw_entity_iter it;
    static qw_entity_fields f;
    qw_entity_iter_init(&it, qw_bsp_entity_string(bsp));
    int spawns = 0;
    while (qw_entity_next(&it, &f) == 1) {
        const char *cls = qw_entity_get(&f, "classname"), *org = qw_entity_get(&f, "origin");
        if (!cls || strcmp(cls, "info_player_deathmatch") || !org)
            continue;
        float o[3];
        assert_int_equal(sscanf(org, "%f %f %f", &o[0], &o[1], &o[2]), 3);
        o[2] += 1;
        assert_int_not_equal(qw_point_contents(bsp, o), QW_CONTENTS_SOLID);
        float down[3] = {o[0], o[1], o[2] - 256};
        qw_trace tr;
        qw_trace_world(bsp, o, qw_hull_mins[1], qw_hull_maxs[1], down, &tr);
        assert_false(tr.startsolid);
        assert_true(tr.fraction < 1);
        assert_true(tr.plane.normal[2] >= 0.7f);
        assert_true(o[2] - tr.endpos[2] < 160);  /* spawns float up to ~100 above */
        spawns++;
    }
    assert_int_equal(spawns, 8);
    qw_bsp_free(bsp);
}

/* Brush submodels (doors, platforms) of lqdm2: tracing through one's bounds with the model at
 * its place hits it (for models solid at their centre), and moving the model moves the hit. */
static void lqdm2_submodels(void **state)
{
    (void)state;
    qw_bsp *bsp = load_shared_map("lqdm2");
    if (!bsp)
        skip();
    assert_int_equal(qw_bsp_num_submodels(bsp), 5);
    int solid_models = 0;
    const float zero[3] = {0, 0, 0};
    for (int m = 1; m <= qw_bsp_num_submodels(bsp); m++) {
        const qw_bsp_model *mod = qw_bsp_get_model(bsp, m);
        float c[3];
        for (int k = 0; k < 3; k++)
            c[k] = 0.5f * (mod->mins[k] + mod->maxs[k]);
        qw_bsp_hull hull;
        assert_int_equal(qw_bsp_model_hull(bsp, m, 0, &hull), 0);
        if (qw_hull_point_contents(&hull, hull.firstclipnode, c) != QW_CONTENTS_SOLID)
            continue;
        solid_models++;
        float start[3] = {mod->mins[0] - 100, c[1], c[2]}, end[3] = {mod->maxs[0] + 100, c[1], c[2]};
        qw_trace tr;
        assert_int_equal(qw_trace_bsp_model(bsp, m, zero, start, qw_hull_mins[0], qw_hull_maxs[0],
                                            end, &tr), 0);
        assert_true(tr.fraction < 1);
        assert_true(tr.endpos[0] >= mod->mins[0] - 2 && tr.endpos[0] <= c[0]);  /* bounds are off by ~1 */
        /* Shift the model 500 units up: the same line now misses it. */
        float up[3] = {0, 0, 500};
        qw_trace_bsp_model(bsp, m, up, start, qw_hull_mins[0], qw_hull_maxs[0], end, &tr);
        assert_float_equal(tr.fraction, 1, 0);
        /* And a line 500 higher hits it again, at the same x. */
        float s2[3] = {start[0], start[1], start[2] + 500}, e2[3] = {end[0], end[1], end[2] + 500};
        qw_trace tr2;
        qw_trace_bsp_model(bsp, m, up, s2, qw_hull_mins[0], qw_hull_maxs[0], e2, &tr2);
        assert_true(tr2.fraction < 1);
        assert_float_equal(tr2.endpos[2], start[2] + 500, 0.01);
    }
    assert_true(solid_models >= 1);
    qw_trace tr;
    assert_int_equal(qw_trace_bsp_model(bsp, 99, zero, zero, qw_hull_mins[0], qw_hull_maxs[0], zero, &tr), -1);
    qw_bsp_free(bsp);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(generated_box_distances),
        cmocka_unit_test(box_against_box),
        cmocka_unit_test(crateprefab_random_traces),
        cmocka_unit_test(lqdm2_random_traces),
        cmocka_unit_test(crateprefab_spawns),
        cmocka_unit_test(lqdm2_submodels),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
